"""Confidence: how likely the first answer is right, from a logistic model over what ranking found.

The model and its threshold are fitted with the ranking weights (rootfaq/search/model.py); an answer is
confident only above the threshold of its mode.
"""

from __future__ import annotations

import math
import re

from .model import CONFIDENCE_FEATURES, FEATURES, ModeWeights
from .query import Understood
from .ranking import Evidence, ScoredHit, family_of

_SENTENCE_ENDS = re.compile(r"[.!?]+(?=\s|$)")
_LETTER = re.compile(r"[A-Za-z]")


def confidence(ranked: list[tuple[ScoredHit, Evidence]], understood: Understood, weights: ModeWeights) -> float:
    """The calibrated probability that the first hit is right."""
    return weights.probability(confidence_evidence(ranked, understood))


def told(understood: Understood) -> bool:
    """Whether the question comes with a story: a post of several sentences, or one question of a post (its
    story is the context). Such answers are right more often at the same evidence (held out: 90% of posts'
    first hits between probabilities 0.5 and 0.86, against 62% of blind-written one-line questions')."""
    cleaned = understood.cleaned
    # the last sentence counts whether or not it was typed with its stop ("... left. What happens now")
    unstopped = bool(_LETTER.search(_SENTENCE_ENDS.split(cleaned)[-1]))
    return bool(understood.context) or len(_SENTENCE_ENDS.findall(cleaned)) + unstopped > 1


def confidence_evidence(ranked: list[tuple[ScoredHit, Evidence]], understood: Understood) -> tuple[float, ...]:
    """What the confidence model reads, in CONFIDENCE_FEATURES order."""
    best, found = ranked[0]
    family = family_of(best.record)
    others = [(hit, evidence) for hit, evidence in ranked[1:] if family_of(hit.record) != family]
    by_name = dict(zip(FEATURES, found.features, strict=True))
    values = {
        # The fitted score; the nearest headings' votes that ranking.order adds to it are features of their own.
        "score": found.fitted,
        "margin": found.fitted - (others[0][1].fitted if others else 0.0),
        "semantic_heading": found.semantic_heading,
        "semantic_whole": found.semantic_whole,
        "semantic_margin": found.semantic_heading - max((e.semantic_heading for _, e in others), default=0.0),
        "lexical_raw": found.lexical_raw,
        "lexical_top": float(found.lexical_rank == 0),
        "semantic_top": float(found.semantic_rank == 0),
        "known": understood.known,
        "coverage": by_name["coverage"],
        "rare_coverage": by_name["rare_coverage"],
        "rare_missing": by_name["rare_missing"],
        "heading_match": by_name["heading_match"],
        "content_words": math.log1p(len(understood.content)),
        "faction_match": by_name["faction_match"],
        "faction_other": by_name["faction_other"],
        "told": float(told(understood)),
        # How many near ways of asking lead to it, which the fitted score does not read (`docs/levers.md`).
        "neighbours": found.neighbours,
        "word_neighbours": found.word_neighbours,
    }
    return tuple(values[name] for name in CONFIDENCE_FEATURES)
