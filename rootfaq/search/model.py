"""The fitted model: the features ranking and confidence read, and the weights, confidence coefficients
and levels fitted for them, one set per mode: `hybrid` (both retrievers) and `lexical` (the sentence model
unavailable). They live in rootfaq/model_data/ranking.json, written by scripts/fit.py from generated
questions (never from an evaluation set), checked against these feature lists and loaded once.

    weights = fitted_model().modes[HYBRID]
    weights.score(features)          # a candidate's first-stage score
    weights.second_stage             # the trees that re-order the best of them (second_stage.py), or None
    weights.probability(evidence)    # how likely the first candidate is right
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field

from ..errors import RootfaqError
from .second_stage import SecondStage, SecondStageError, parse_second_stage
from .shipped import ShippedDataDamaged, read_shipped

RANKING_FILE = "ranking.json"
HYBRID, LEXICAL = "hybrid", "lexical"

FEATURES = (
    "lexical",  # BM25F score over the best candidate's
    "lexical_rank",  # 1 / (1 + rank) in the BM25F list; 0 when BM25F did not find it
    "semantic_whole",  # cosine of the question to the record as a whole
    "semantic_heading",  # best cosine of the question to one of the record's questions or headings
    "semantic_rank",  # 1 / (1 + rank) in the semantic list
    "heading_match",  # F1 of shared stems with the record's best question or heading
    "part_intro",  # the record is a rulebook part's introduction
    "sub_item",  # the record is a bullet sub-item of a section
    "faction_match",  # a faction the question names is what the record is about
    "faction_other",  # the question names factions; the record is about others only
    "faction_untagged",  # the question names factions; the record is about none in particular
    "cites_ref",  # the record holds or cites a section number in the question
    "fan_unasked",  # a fan-expansion rule, and the question names nothing of that expansion
    "bot_unasked",  # a Clockwork-bot ruling, and the question names no bot
    "coverage",  # share of the question's content words the record contains
    "rare_coverage",  # the same, each word weighted by its rarity in the corpus (idf)
    "rare_missing",  # the rarest content word the record lacks, as a share of the rarest possible
)

CONFIDENCE_FEATURES = (
    "score",  # the best candidate's score
    "margin",  # its lead over the best candidate of another family (a sub-item is its section's family)
    "semantic_heading",
    "semantic_whole",
    "semantic_margin",  # its best heading cosine over the best of another family's
    "lexical_raw",  # its BM25F score per query word: how much of the question its words explain
    "lexical_top",  # 1 when the best candidate is also BM25F's first
    "semantic_top",  # 1 when it is also the semantic retriever's first
    "known",  # share of the question's words the corpus uses
    "coverage",
    "rare_coverage",
    "rare_missing",
    "heading_match",  # how nearly it restates one of the record's questions or headings, players' asked ones too
    "content_words",  # log(1 + number of content words)
    "faction_match",
    "faction_other",
    "told",  # 1 when the question comes with a story: a post of several sentences, or one question of one post
    "neighbours",  # its share of the nearest headings' vote by meaning (dense.neighbour_votes)
    "word_neighbours",  # its share of the same vote by shared stems (ranking.word_votes)
)


class RankingDataError(RootfaqError):
    """The fitted ranking file is missing or does not match this code."""


@dataclass(frozen=True)
class ModeWeights:
    """The fitted weights for one mode: ranking weights, confidence coefficients and threshold."""

    weights: tuple[float, ...]
    confidence: tuple[float, ...]
    intercept: float
    threshold: float  # confident from here (precision held out: 90%)
    show_best: float  # not sure, but the best candidate is shown in full from here (right half the time)
    floor: float  # below it, nothing in the sources answers the question clearly
    second_stage: SecondStage | None = field(default=None, compare=False)  # re-orders the best ones

    def score(self, features: tuple[float, ...]) -> float:
        return sum(w * f for w, f in zip(self.weights, features, strict=True))

    def probability(self, evidence: tuple[float, ...]) -> float:
        z = self.intercept + sum(c * e for c, e in zip(self.confidence, evidence, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


@dataclass(frozen=True)
class RankingModel:
    modes: dict[str, ModeWeights]
    fitted_on: str


def parse_ranking_model(data: dict, file: str = RANKING_FILE) -> RankingModel:
    """Validate the fitted file against the code's feature lists: a mismatch is an error, never a guess."""
    if not isinstance(data, dict) or data.get("features") != list(FEATURES) or \
            data.get("confidence_features") != list(CONFIDENCE_FEATURES):
        raise RankingDataError(f"{file} was fitted for other features than this code computes",
                               "run scripts/fit.py, or reinstall rootfaq")
    modes = {}
    for mode in (HYBRID, LEXICAL):
        entry = data.get(mode)
        try:
            weights = tuple(float(w) for w in entry["weights"])
            confidence = tuple(float(c) for c in entry["confidence"])
            mode_weights = ModeWeights(weights, confidence, float(entry["intercept"]), float(entry["threshold"]),
                                       float(entry["show_best"]), float(entry["floor"]),
                                       parse_second_stage(entry.get("second_stage"), len(FEATURES) + 1))
        except SecondStageError as problem:
            raise RankingDataError(f"{file}: mode '{mode}': {problem}", "run scripts/fit.py") from None
        except (TypeError, KeyError, ValueError):
            raise RankingDataError(f"{file}: mode '{mode}' is incomplete", "run scripts/fit.py") from None
        if len(weights) != len(FEATURES) or len(confidence) != len(CONFIDENCE_FEATURES) or \
                not 0.0 <= mode_weights.floor <= mode_weights.show_best <= mode_weights.threshold < 1.0 or \
                not 0.0 < mode_weights.threshold or not all(map(math.isfinite, weights + confidence)):
            raise RankingDataError(f"{file}: mode '{mode}' has the wrong number of weights or a bad threshold",
                                   "run scripts/fit.py")
        modes[mode] = mode_weights
    return RankingModel(modes, str(data.get("fitted_on", "")))


@functools.cache
def fitted_model() -> RankingModel:
    """The shipped fitted weights, read and checked once per process."""
    try:
        data = json.loads(read_shipped(RANKING_FILE).decode("utf-8"))
    except ShippedDataDamaged as damage:
        raise RankingDataError(damage.message, damage.hint) from None
    except ValueError as exc:
        raise RankingDataError(f"{RANKING_FILE} cannot be read ({exc})", "reinstall rootfaq") from None
    return parse_ranking_model(data)
