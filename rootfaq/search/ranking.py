"""Ranking and confidence: evidence about each candidate, weighed by weights fitted to data.

Candidates come from two retrievers (BM25F over the words, cosine over sentence vectors). Each gets a
vector of evidence (`FEATURES`); its score is the weighted sum. Whether the best answer is sure enough to
be called an answer is a logistic model over `CONFIDENCE_FEATURES`, with a threshold chosen for precision.
The weights and the threshold live in rootfaq/model_data/ranking.json, written by scripts/fit.py from
generated questions (never from an evaluation set); there is one set for each mode: `hybrid` (both
retrievers) and `lexical` (the sentence model unavailable).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

from ..errors import RootfaqError

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
    "content_words",  # log(1 + number of content words)
    "faction_match",
    "faction_other",
)


class RankingDataError(RootfaqError):
    """The fitted ranking file is missing or does not match this code."""


@dataclass(frozen=True)
class ModeWeights:
    """The fitted weights for one mode: ranking weights, confidence coefficients and threshold."""

    weights: tuple[float, ...]
    confidence: tuple[float, ...]
    intercept: float
    threshold: float

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
            mode_weights = ModeWeights(weights, confidence, float(entry["intercept"]), float(entry["threshold"]))
        except (TypeError, KeyError, ValueError):
            raise RankingDataError(f"{file}: mode '{mode}' is incomplete", "run scripts/fit.py") from None
        if len(weights) != len(FEATURES) or len(confidence) != len(CONFIDENCE_FEATURES) or \
                not 0.0 < mode_weights.threshold < 1.0 or not all(map(math.isfinite, weights + confidence)):
            raise RankingDataError(f"{file}: mode '{mode}' has the wrong number of weights or a bad threshold",
                                   "run scripts/fit.py")
        modes[mode] = mode_weights
    return RankingModel(modes, str(data.get("fitted_on", "")))


_MODEL: RankingModel | None = None


def ranking_model() -> RankingModel:
    """The shipped fitted weights, read and checked once per process."""
    global _MODEL
    if _MODEL is None:
        try:
            text = resources.files("rootfaq.model_data").joinpath(RANKING_FILE).read_text("utf-8")
            data = json.loads(text)
        except (OSError, ValueError) as exc:
            raise RankingDataError(f"{RANKING_FILE} cannot be read ({exc})", "reinstall rootfaq") from None
        _MODEL = parse_ranking_model(data)
    return _MODEL


def heading_match(query: set[str], headings: list[set[str]]) -> float:
    """How well the question matches a record's best heading: F1 of shared stems."""
    best = 0.0
    for heading in headings:
        shared = len(query & heading)
        if shared:
            recall, precision = shared / len(query), shared / len(heading)
            best = max(best, 2 * recall * precision / (recall + precision))
    return best
