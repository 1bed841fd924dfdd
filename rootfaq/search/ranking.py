"""Ranking: evidence about each candidate, weighed by weights fitted to data.

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

from ..corpus import refs
from ..corpus.records import Record
from ..errors import RootfaqError
from .index import OpenIndex, analyze, word_stems
from .lexical import search as lexical_search
from .query import QueryReader, Understood
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
    threshold: float  # confident from here (precision held out: 90%)
    show_best: float  # not sure, but the best candidate is shown in full from here (right half the time)
    floor: float  # below it, nothing in the sources answers the question clearly

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
                                       float(entry["show_best"]), float(entry["floor"]))
        except (TypeError, KeyError, ValueError):
            raise RankingDataError(f"{file}: mode '{mode}' is incomplete", "run scripts/fit.py") from None
        if len(weights) != len(FEATURES) or len(confidence) != len(CONFIDENCE_FEATURES) or \
                not 0.0 <= mode_weights.floor <= mode_weights.show_best <= mode_weights.threshold < 1.0 or \
                not 0.0 < mode_weights.threshold or not all(map(math.isfinite, weights + confidence)):
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
            data = json.loads(read_shipped(RANKING_FILE).decode("utf-8"))
        except ShippedDataDamaged as damage:
            raise RankingDataError(damage.message, damage.hint) from None
        except ValueError as exc:
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


# --- the evidence about each candidate ----------------------------------------------------------------------

LEXICAL_CANDIDATES = 60
SEMANTIC_CANDIDATES = 40
SYNONYM_WEIGHT = 0.5  # a rule term a player's word stands for, relative to the word itself
STORY_WEIGHT = 0.25  # a word of the story around a post's question, relative to the question's own
FAN_GROUP, BOT_GROUP = "outsiders", "clockwork"


@dataclass
class ScoredHit:
    record: Record
    score: float


@dataclass
class Evidence:
    """What the retrievers said of one candidate, and its features in FEATURES order."""

    lexical: float = 0.0
    lexical_raw: float = 0.0  # the BM25F score itself, per query word
    lexical_rank: int | None = None
    semantic_whole: float = 0.0
    semantic_heading: float = 0.0
    semantic_rank: int | None = None
    features: tuple[float, ...] = ()


def rank(
    index: OpenIndex,
    model: QueryReader,
    understood: Understood,
    allowed: set[str] | None,
    query_vector,
    weights: ModeWeights,
) -> list[tuple[ScoredHit, Evidence]]:
    """Candidates from both retrievers, scored by the fitted weights, best first."""
    scored = [(ScoredHit(index.records[record_id], round(weights.score(found.features), 4)), found)
              for record_id, found in evidence(index, model, understood, allowed, query_vector).items()]
    scored.sort(key=lambda pair: -pair[0].score)
    return scored


def evidence(index: OpenIndex, model: QueryReader, understood: Understood, allowed: set[str] | None,
             query_vector) -> dict[str, Evidence]:
    """Record id -> what is known of it as an answer, its features filled in: the one evidence function,
    read by `rank` and by scripts/fit.py alike."""
    found = candidates(index, understood, allowed, query_vector)
    query_stems = model.stems(understood.content)
    for record_id, entry in found.items():
        entry.features = features(index, model, index.records[record_id], entry, understood, query_stems)
    return found


def candidates(index: OpenIndex, understood: Understood, allowed: set[str] | None, query_vector) -> dict[str, Evidence]:
    """Record id -> what each retriever said of it, for the union of both retrievers' best."""
    weighted = [(w, 1.0) for w in understood.content] + [(w, SYNONYM_WEIGHT) for w in understood.expansions] \
        + [(w, STORY_WEIGHT) for w in understood.context]
    lexical = lexical_search(index, weighted, understood.factions, allowed=allowed, limit=LEXICAL_CANDIDATES)
    found: dict[str, Evidence] = {}
    if not lexical:  # not one word of the question is in the corpus: whatever the vectors say is noise
        return found
    top = lexical[0].score if lexical else 1.0
    per_word = 1.0 / max(1, len(understood.content) + len(understood.expansions))  # the question's, not the story's
    for position, hit in enumerate(lexical):
        found[hit.id] = Evidence(lexical=hit.score / (top or 1.0), lexical_raw=hit.score * per_word,
                                 lexical_rank=position)
    if query_vector is None:
        return found
    from .dense import semantic_scores

    scores = semantic_scores(index, query_vector)
    ordered = sorted(scores, key=lambda rid: -scores[rid][1])
    position = 0
    for record_id in ordered:
        if allowed is not None and record_id not in allowed:
            continue
        whole, heading = scores[record_id]
        entry = found.get(record_id)
        if entry is None:
            if position >= SEMANTIC_CANDIDATES:
                position += 1
                continue
            entry = found[record_id] = Evidence()
        entry.semantic_whole, entry.semantic_heading, entry.semantic_rank = whole, heading, position
        position += 1
    return found


def features(index: OpenIndex, model: QueryReader, record: Record, found: Evidence, understood: Understood,
             query_stems: set[str]) -> tuple[float, ...]:
    """The evidence about one candidate, in FEATURES order."""
    named = set(understood.factions)
    groups = {index.query_model.factions[k].group for k in named if k in index.query_model.factions}
    asks_fan = FAN_GROUP in groups or understood.names_fan_content
    on_faction = set(record.factions)
    values = {
        "lexical": found.lexical,
        "lexical_rank": 0.0 if found.lexical_rank is None else 1.0 / (1 + found.lexical_rank),
        "semantic_whole": found.semantic_whole,
        "semantic_heading": found.semantic_heading,
        "semantic_rank": 0.0 if found.semantic_rank is None else 1.0 / (1 + found.semantic_rank),
        "heading_match": heading_match(query_stems, model.heading_stems(record)),
        "part_intro": float(record.source == "outsiders" and not record.section),
        "sub_item": float(bool(record.section) and refs.base_ref(record.section) != record.section),
        "faction_match": float(bool(named & set(record.factions[:2]))),
        "faction_other": float(bool(named) and bool(on_faction) and not named & on_faction),
        "faction_untagged": float(bool(named) and not on_faction),
        "cites_ref": float(bool(understood.refs) and (record.section in understood.refs
                                                      or bool(set(understood.refs) & set(record.xrefs)))),
        "fan_unasked": float(record.grade == "fan-rule" and not asks_fan),
        "bot_unasked": float(BOT_GROUP in on_faction and BOT_GROUP not in named),
        **coverage(index, model, record, understood),
    }
    return tuple(values[name] for name in FEATURES)


def family_of(record: Record) -> str:
    """A section and its own sub-items are one family: showing both would say the same thing twice."""
    if record.source == "outsiders" and record.section and refs.base_ref(record.section) != record.section:
        return f"rule-{refs.base_ref(record.section)}"
    return record.id


def collapse_family(hits: list[ScoredHit]) -> list[ScoredHit]:
    """Keep one of a section and its own sub-items: the better scored."""
    seen: set[str] = set()
    kept = []
    for hit in hits:
        family = family_of(hit.record)
        if family not in seen:
            seen.add(family)
            kept.append(hit)
    return kept


def coverage(index: OpenIndex, model: QueryReader, record: Record, understood: Understood) -> dict[str, float]:
    """How much of the question the record's text and headings hold: the share of its content words,
    the same weighted by rarity (idf), and how rare the rarest word it lacks is."""
    content = [w for w in dict.fromkeys(understood.content) if len(w) > 2]
    if not content:
        return {"coverage": 0.0, "rare_coverage": 0.0, "rare_missing": 0.0}
    haystack = index.derived(f"stems:{record.id}", lambda: _record_stems(record))
    total = max(1, len(index.records))
    rarest = math.log(1 + total)
    held = [bool(word_stems(w) & haystack) for w in content]
    rarity = [math.log(1 + total / (1 + model.counts.get(w, 0))) for w in content]
    missing = [r for r, h in zip(rarity, held, strict=True) if not h]
    return {
        "coverage": sum(held) / len(content),
        "rare_coverage": sum(r for r, h in zip(rarity, held, strict=True) if h) / sum(rarity),
        "rare_missing": max(missing, default=0.0) / rarest,
    }


def _record_stems(record: Record) -> frozenset[str]:
    parts = [record.title, *record.alt_titles, *record.phrasings, record.section_title, record.text, *record.factions]
    return frozenset(analyze(" ".join(filter(None, parts))))
