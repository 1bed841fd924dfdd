"""Answering a question: section look-ups, two retrievers, fitted ranking and calibrated confidence.

A question is cleaned and understood (rootfaq/query.py). A section number goes straight to the rule and
the rulings that cite it. Otherwise two retrievers propose candidates: BM25F over the words (index.py)
and cosine similarity over sentence vectors (encoder.py, dense.py). Each candidate's evidence is weighed
by weights fitted to generated questions (ranking.py); a logistic model says how likely the best
candidate is right, and only above its threshold is the answer confident. A post that asks several
separate questions gets an answer for each. The only module that needs rapidfuzz.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..corpus import refs
from ..corpus.files import corpus_hash, read_corpus_files
from ..corpus.records import Record
from ..corpus.terms import words
from . import index as index_mod
from . import ranking
from .encoder import ModelUnavailable, load_encoder
from .query import QueryModel, Understood, clean_query

LEXICAL_CANDIDATES = 60
SEMANTIC_CANDIDATES = 40
SYNONYM_WEIGHT = 0.5  # a rule term a player's word stands for, relative to the word itself
FAN_GROUP, BOT_GROUP = "outsiders", "clockwork"


@dataclass
class ScoredHit:
    record: Record
    score: float
    why: str = "text"


@dataclass
class Answer:
    query: str
    confident: bool
    hits: list[ScoredHit]
    notices: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    factions: list[str] = field(default_factory=list)
    reference: str | None = None
    probability: float | None = None  # calibrated chance that the first hit is right (None for look-ups)
    playing: str | None = None  # the faction the player says they play
    parts: list[Answer] = field(default_factory=list)  # one answer per question of a multi-question post


def open_index(rebuild: bool = False, progress: Callable[[str], None] | None = None) -> index_mod.OpenIndex:
    """The index for the shipped corpus, built or rebuilt as needed. `progress` hears about slow steps."""
    texts = read_corpus_files()
    build_notices: list[str] = []

    def load() -> index_mod.IndexContent:
        from ..corpus.build import build_corpus, query_model  # parsing is needed only to build
        from ..corpus.wordlist import english_words

        corpus = build_corpus(texts)
        vectors = build_vectors(corpus.records, build_notices, progress)
        return index_mod.IndexContent(corpus.records, query_model(corpus), vectors, english_words())

    index = index_mod.open_or_build(corpus_hash(texts), load, rebuild=rebuild, progress=progress)
    index.notices.extend(build_notices)
    return index


def ask_repairing(index: index_mod.OpenIndex, raw_query: str, **options) -> Answer:
    """`ask`, with one rebuild and one retry when whoosh fails while searching (the answer says so)."""
    before = len(index.notices)
    answer = index.repairing(lambda: ask(index, raw_query, **options))
    answer.notices.extend(index.notices[before:])
    return answer


def build_vectors(records: list[Record], notices: list[str], progress: Callable[[str], None] | None = None):
    """Record vectors from the shipped ones, encoding only texts whose fingerprint is not shipped."""
    from . import dense

    known = dense.shipped_vectors()
    encode = None
    missing = dense.missing_count(records, known)
    if missing:
        try:
            encode = sentence_encoder().encode
        except ModelUnavailable as problem:
            notices.append(f"{problem.message}; {missing} texts are searched by their words only")

    def report(done: int, total: int) -> None:
        if progress:
            progress(f"encoding changed records for the semantic search: {done}/{total}")

    return dense.compute_record_vectors(records, known, encode, report)


_ENCODER: dict[str, object] = {}


def sentence_encoder():
    """The sentence encoder, loaded once per process; ModelUnavailable (remembered) when it cannot be.

    ROOTFAQ_MODEL_DIR points at another copy of the model files (its sha256 is still checked)."""
    if "encoder" not in _ENCODER:
        try:
            override = os.environ.get("ROOTFAQ_MODEL_DIR")
            _ENCODER["encoder"] = load_encoder(Path(override) if override else None)
        except ModelUnavailable as problem:
            _ENCODER["encoder"] = problem
    found = _ENCODER["encoder"]
    if isinstance(found, ModelUnavailable):
        raise found
    return found


def model_of(index: index_mod.OpenIndex) -> QueryModel:
    """The query model of an index, with its lookup structures, built once per process."""
    return index.derived("query_model", lambda: QueryModel(index.query_model, index.english_words))


def resolve_faction(index: index_mod.OpenIndex, name: str) -> str:
    """A faction key from a name or nickname ("cats", "Eyrie", "vaga"); UsageError when unknown.
    The rules for names live in factions.py (strict: exact names, or one clearly meant misspelling)."""
    from ..corpus.factions import read_faction

    return read_faction(index.query_model["factions"], name).key


def records_for_ref(index: index_mod.OpenIndex, ref: str) -> tuple[list[Record], list[Record]]:
    """(records holding exactly this section, FAQ rulings that cite it)."""
    holding = [r for r in index.records.values() if r.section == ref and r.source != "faq" and r.is_answer]
    citing = [r for r in index.records.values() if r.source == "faq" and ref in r.xrefs and r.is_answer]
    return holding, citing


def nearest_refs(index: index_mod.OpenIndex, ref: str, limit: int = 5) -> list[str]:
    """Existing section numbers near a missing one (refs.nearest: same prefix, closest number)."""
    sections = {r.section for r in index.records.values() if r.section and r.source != "faq"}
    return refs.nearest(ref, sorted(sections), limit)


# --- asking -------------------------------------------------------------------------------------------------


def ask(
    index: index_mod.OpenIndex,
    raw_query: str,
    factions: list[str] | None = None,
    sources: list[str] | None = None,
    official: bool = False,
    limit: int = 5,
) -> Answer:
    """Answer a question: the best records first, each with a score, and whether we are confident."""
    query, notices = clean_query(raw_query)
    if not query:
        return Answer(query, False, [], notices + ["empty question: type a rules question or a section number"])
    allowed = index_mod.allowed_ids(index, sources, factions, official) if (sources or factions or official) else None

    ref = refs.parse_query_ref(query) or named_section(index, query)
    if ref:
        answer = _answer_reference(index, query, ref, allowed, limit)
        answer.notices[:0] = notices
        return answer

    questions = split_questions(query)
    if len(questions) > 1:
        parts = [_answer_words(index, part, allowed, limit, context=query) for part in questions]
        answer = _combine(query, parts, limit)
    else:
        answer = _answer_words(index, query, allowed, limit)
    answer.notices[:0] = notices
    return answer


def _answer_words(index, query: str, allowed: set[str] | None, limit: int, context: str | None = None) -> Answer:
    """Rank the records for a question in words and decide whether the first one is sure enough."""
    model = model_of(index)
    understood = model.understand(query)
    if context is not None:  # one question of a longer post: the factions the post names still count
        around = model.understand(context)
        understood.factions += [k for k in around.factions if k not in understood.factions]
        understood.playing = understood.playing or around.playing
    notices: list[str] = []
    try:
        query_vector = sentence_encoder().encode([model.corrected(query, understood.corrections)])[0]
        mode = ranking.HYBRID
    except ModelUnavailable as problem:
        query_vector, mode = None, ranking.LEXICAL
        notices.append(f"{problem.message}: searching by words only")
    weights = ranking.ranking_model().modes[mode]
    ranked = rank(index, model, understood, allowed, query_vector, weights)
    hits = _collapse_family([h for h, _ in ranked])[:limit]
    probability = confidence(ranked, understood, weights) if hits else 0.0
    return Answer(query, bool(hits) and probability >= weights.threshold, hits, notices, understood.corrections,
                  understood.factions, probability=round(probability, 4), playing=understood.playing)


def named_section(index, query: str) -> str | None:
    """The section a question names exactly by its printed title ("field hospitals", "Lords of the Forest"),
    when one section has that title; a look-up like a section number."""
    titles = index.derived("section_titles", lambda: _section_titles(index))
    return titles.get(" ".join(words(query)))


def _section_titles(index) -> dict[str, str]:
    """Printed title (lower-case words) -> section number, for titles that name one section only."""
    sections: dict[str, set[str]] = {}
    for record in index.records.values():
        if record.source != "faq" and record.section and record.section_title and record.is_answer:
            key = " ".join(words(record.section_title))
            if len(key) > 3:
                sections.setdefault(key, set()).add(refs.base_ref(record.section))
    return {title: next(iter(found)) for title, found in sections.items() if len(found) == 1}


def _combine(query: str, parts: list[Answer], limit: int) -> Answer:
    """One answer for a multi-question post: each question's first hit, surest first, then the rest."""
    by_sureness = sorted(parts, key=lambda a: -(a.probability or 0.0))
    hits: list[ScoredHit] = []
    for part in by_sureness:
        hits.extend(h for h in part.hits[:1] if h.record.id not in {x.record.id for x in hits})
    for part in by_sureness:
        hits.extend(h for h in part.hits[1:] if h.record.id not in {x.record.id for x in hits})
    best = by_sureness[0]
    notices = list(dict.fromkeys(n for part in parts for n in part.notices))
    corrections = {k: v for part in parts for k, v in part.corrections.items()}
    factions = list(dict.fromkeys(k for part in parts for k in part.factions))
    return Answer(query, best.confident, hits[:limit], notices, corrections, factions, probability=best.probability,
                  playing=best.playing, parts=parts)


_SENTENCE_END = re.compile(r"(?<=[?.!])\s+|\s+(?=\d\)\s)|\s+(?=\(\d\)\s)")


def split_questions(text: str) -> list[str]:
    """The separate questions of a post: sentences ending in '?', or numbered items "1) ... 2) ...".

    One question with its story around it is one question; so is "Do I win now, or next turn?"."""
    sentences = [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]
    questions = [re.sub(r"^\(?\d\)\s*", "", s) for s in sentences if s.endswith("?")]
    questions = [q for q in questions if len(words(q)) >= 3]
    return questions if len(questions) > 1 else [text]


def _answer_reference(index, query: str, ref: str, allowed: set[str] | None, limit: int) -> Answer:
    holding, citing = records_for_ref(index, ref)
    found = [ScoredHit(r, 10.0, "section") for r in holding]
    found += [ScoredHit(r, 5.0, "cites") for r in citing]
    if allowed is not None:
        found = [h for h in found if h.record.id in allowed]
    if holding:
        # A filter that leaves none of the section's records found nothing: not confident.
        notices = [] if found else [f"section {ref} exists, but nothing under it passes the filter"]
        return Answer(query, bool(found), found[:limit], notices, reference=ref)
    nearest = nearest_refs(index, ref)
    notice = f"no section {ref} in the corpus; " + (f"nearest: {', '.join(nearest)}" if nearest else "nothing near it")
    return Answer(query, False, found[:limit], [notice], reference=ref)


# --- ranking ------------------------------------------------------------------------------------------------


@dataclass
class Evidence:
    """What the retrievers said of one candidate, and its features in ranking.FEATURES order."""

    lexical: float = 0.0
    lexical_raw: float = 0.0  # the BM25F score itself, per query word
    lexical_rank: int | None = None
    semantic_whole: float = 0.0
    semantic_heading: float = 0.0
    semantic_rank: int | None = None
    features: tuple[float, ...] = ()


def rank(
    index: index_mod.OpenIndex,
    model: QueryModel,
    understood: Understood,
    allowed: set[str] | None,
    query_vector,
    weights: ranking.ModeWeights,
) -> list[tuple[ScoredHit, Evidence]]:
    """Candidates from both retrievers, scored by the fitted weights, best first."""
    evidence = candidates(index, understood, allowed, query_vector)
    query_stems = model.stems(understood.content)
    scored = []
    for record_id, found in evidence.items():
        record = index.records[record_id]
        found.features = features(index, model, record, found, understood, query_stems)
        scored.append((ScoredHit(record, round(weights.score(found.features), 4)), found))
    scored.sort(key=lambda pair: -pair[0].score)
    return scored


def candidates(index, understood: Understood, allowed: set[str] | None, query_vector) -> dict[str, Evidence]:
    """Record id -> what each retriever said of it, for the union of both retrievers' best."""
    weighted = [(w, 1.0) for w in understood.content] + [(w, SYNONYM_WEIGHT) for w in understood.expansions]
    lexical = index_mod.search(index, weighted, understood.factions, allowed=allowed, limit=LEXICAL_CANDIDATES)
    found: dict[str, Evidence] = {}
    if not lexical:  # not one word of the question is in the corpus: whatever the vectors say is noise
        return found
    top = lexical[0].score if lexical else 1.0
    per_word = 1.0 / max(1, len(weighted))
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


def features(index, model: QueryModel, record: Record, found: Evidence, understood: Understood,
             query_stems: set[str]) -> tuple[float, ...]:
    """The evidence about one candidate, in ranking.FEATURES order."""
    named = set(understood.factions)
    groups = {index.query_model["factions"].get(k, {}).get("group") for k in named}
    asks_fan = FAN_GROUP in groups or understood.names_fan_content
    on_faction = set(record.factions)
    values = {
        "lexical": found.lexical,
        "lexical_rank": 0.0 if found.lexical_rank is None else 1.0 / (1 + found.lexical_rank),
        "semantic_whole": found.semantic_whole,
        "semantic_heading": found.semantic_heading,
        "semantic_rank": 0.0 if found.semantic_rank is None else 1.0 / (1 + found.semantic_rank),
        "heading_match": ranking.heading_match(query_stems, model.heading_stems(record)),
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
    return tuple(values[name] for name in ranking.FEATURES)


def confidence(ranked: list[tuple[ScoredHit, Evidence]], understood: Understood, weights: ranking.ModeWeights) -> float:
    """The calibrated probability that the first hit is right."""
    return weights.probability(confidence_evidence(ranked, understood))


def confidence_evidence(ranked: list[tuple[ScoredHit, Evidence]], understood: Understood) -> tuple[float, ...]:
    """What the confidence model reads, in ranking.CONFIDENCE_FEATURES order."""
    best, found = ranked[0]
    family = family_of(best.record)
    others = [(hit, evidence) for hit, evidence in ranked[1:] if family_of(hit.record) != family]
    by_name = dict(zip(ranking.FEATURES, found.features, strict=True))
    values = {
        "score": best.score,
        "margin": best.score - (others[0][0].score if others else 0.0),
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
        "content_words": math.log1p(len(understood.content)),
        "faction_match": by_name["faction_match"],
        "faction_other": by_name["faction_other"],
    }
    return tuple(values[name] for name in ranking.CONFIDENCE_FEATURES)


def family_of(record: Record) -> str:
    """A section and its own sub-items are one family: showing both would say the same thing twice."""
    if record.source == "outsiders" and record.section and refs.base_ref(record.section) != record.section:
        return f"rule-{refs.base_ref(record.section)}"
    return record.id


def _collapse_family(hits: list[ScoredHit]) -> list[ScoredHit]:
    """Keep one of a section and its own sub-items: the better scored."""
    seen: set[str] = set()
    kept = []
    for hit in hits:
        family = family_of(hit.record)
        if family not in seen:
            seen.add(family)
            kept.append(hit)
    return kept


def coverage(index, model: QueryModel, record: Record, understood: Understood) -> dict[str, float]:
    """How much of the question the record's text and headings hold: the share of its content words,
    the same weighted by rarity (idf), and how rare the rarest word it lacks is."""
    content = [w for w in dict.fromkeys(understood.content) if len(w) > 2]
    if not content:
        return {"coverage": 0.0, "rare_coverage": 0.0, "rare_missing": 0.0}
    haystack = index.derived(f"stems:{record.id}", lambda: _record_stems(record))
    total = max(1, len(index.records))
    rarest = math.log(1 + total)
    held = [bool(set(index_mod.analyze(w)) & haystack) for w in content]
    rarity = [math.log(1 + total / (1 + model.counts.get(w, 0))) for w in content]
    missing = [r for r, h in zip(rarity, held, strict=True) if not h]
    return {
        "coverage": sum(held) / len(content),
        "rare_coverage": sum(r for r, h in zip(rarity, held, strict=True) if h) / sum(rarity),
        "rare_missing": max(missing, default=0.0) / rarest,
    }


def _record_stems(record: Record) -> frozenset[str]:
    parts = [record.title, *record.alt_titles, *record.phrasings, record.section_title, record.text, *record.factions]
    return frozenset(index_mod.analyze(" ".join(filter(None, parts))))
