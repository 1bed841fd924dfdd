"""Query understanding and ranking: the only module that needs rapidfuzz.

A question goes through: clean-up and length cap -> section reference? -> words, typo fixes against the
corpus vocabulary, faction nicknames, player synonyms, filler dropped -> BM25F candidates from the index
-> re-ranked with fuzzy similarity to each record's question or heading and the factions named.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from . import index as index_mod
from . import refs
from .corpus_files import corpus_hash, read_corpus_files
from .records import Record
from .terms import TermMatcher, words

MAX_QUERY_CHARS = 300
TYPO_CUTOFF = 0.75
CANDIDATES = 60
NOT_A_FACTION = "-"  # faction-name key for phrases that look like nicknames but are not ("bird cards")

# Ranking weights, tuned on our own benchmark; each says how much one kind of evidence counts.
HEADING_WEIGHT = 0.7  # how well the query matches the record's question or heading
NAMED_RULE_BONUS = 0.5  # the question is exactly a rule's printed title
PART_PRIOR = 0.5  # a part heading ("Bone Patrol! v2.1") is rarely the answer itself
FACTION_WEIGHT = 0.35  # the record is about a faction the query names
OFF_FACTION_PENALTY = 0.25  # the query names a faction and the record is about others only
CITES_REF_WEIGHT = 0.5  # the record holds or cites a section number in the query
SYNONYM_WEIGHT = 0.5
DIVERSITY_MARGIN = 0.8  # see _diversify  # a rule term a player word stands for, relative to the word itself

# Confidence: how much of the question the best hit covers, and how clearly it stands out.
CONFIDENT_COVERAGE = 0.5
CONFIDENT_KNOWN = 0.7
CONFIDENT_SCORE = 0.45


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


@dataclass
class Understood:
    """What we made of a question."""

    cleaned: str
    content: list[str]
    expansions: list[str]
    factions: list[str]
    corrections: dict[str, str]
    refs: list[str]
    known: float = 1.0  # share of the content words the corpus uses (a corrected typo counts in part)


def open_index(rebuild: bool = False) -> index_mod.OpenIndex:
    """The index for the shipped corpus, built or rebuilt as needed."""
    texts = read_corpus_files()

    def load():
        from .corpus import build_corpus, query_model  # parsing is needed only to build

        corpus = build_corpus(texts)
        return corpus.records, query_model(corpus)

    return index_mod.open_or_build(corpus_hash(texts), load, rebuild=rebuild)


def clean_query(raw: str) -> tuple[str, list[str]]:
    """Printable text on one line, cut to a sane length; notices say what was changed."""
    notices = []
    text = "".join(ch if unicodedata.category(ch)[0] not in "C" else " " for ch in raw)
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > MAX_QUERY_CHARS:
        cut = text[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] or text[:MAX_QUERY_CHARS]
        notices.append(f"question cut to its first {len(cut)} characters (of {len(text)})")
        text = cut
    return text, notices


class QueryModel:
    """The query model stored in the index, with lookup structures built once per process."""

    def __init__(self, data: dict):
        self.data = data
        self.synonyms = TermMatcher(data["synonyms"])
        self.filler = {f for f in data["filler"] if " " not in f}
        self.filler_phrases = TermMatcher({f: ["filler"] for f in data["filler"] if " " in f})
        self.faction_names = TermMatcher(data["faction_names"])
        self.faction_terms = TermMatcher(data["faction_terms"])
        self.counts: dict[str, int] = data["word_counts"]
        self._headings: dict[str, list[set[str]]] = {}
        self.by_length: dict[int, list[str]] = {}
        for word in self.counts:
            if word.isalpha():
                self.by_length.setdefault(len(word), []).append(word)

    def stems(self, tokens: list[str]) -> set[str]:
        """Stems of the content words (filler dropped)."""
        return {stem for t in tokens if t not in self.filler for stem in index_mod.analyze(t)}

    def heading_stems(self, record: Record) -> list[set[str]]:
        cached = self._headings.get(record.id)
        if cached is None:
            lines = index_mod.record_headings(record)
            if record.source == "outsiders" and record.part:
                lines = [f"{record.part} {line}" for line in lines] or [record.part]
            cached = [s for s in (self.stems(words(line)) for line in lines) if s]
            self._headings[record.id] = cached
        return cached

    def title_stems(self, record: Record) -> set[str]:
        return self.stems(words(record.section_title or ""))

    def correct(self, word: str) -> str | None:
        """The corpus word a typo most likely meant, or None when it is fine or unknown."""
        if word in self.counts or len(word) < 4 or not word.isalpha():
            return None
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        choices = [w for n in (len(word) - 1, len(word), len(word) + 1) for w in self.by_length.get(n, ())]
        best = process.extractOne(
            word, choices, scorer=OSA.normalized_similarity, score_cutoff=TYPO_CUTOFF
        )
        if not best:
            return None
        # Among equally close words, the commoner one is the likelier meaning.
        ties = [c for c in choices if OSA.normalized_similarity(word, c) >= best[1]]
        return max(ties, key=lambda c: self.counts.get(c, 0))

    def understand(self, cleaned: str) -> Understood:
        fixed, corrections = self.fix_typos(words(cleaned))
        filler_positions = {i for start, end, _ in self.filler_phrases.spans(fixed) for i in range(start, end)}
        named, nickname_positions, expansions = self.factions_named(fixed)
        for start, end, terms in self.synonyms.spans(fixed):
            if not filler_positions.intersection(range(start, end)):  # "at what point" is not about points
                expansions.extend(terms)
        dropped = filler_positions | nickname_positions
        content = [t for i, t in enumerate(fixed) if t not in self.filler and i not in dropped]
        if not content and not named:
            content = fixed
        expansions = [e for e in dict.fromkeys(expansions) if e not in content and e not in self.filler]
        known = self.known_share(content, corrections)
        return Understood(cleaned, content, expansions, named, corrections, refs.refs_in_query(cleaned), known)

    def fix_typos(self, tokens: list[str]) -> tuple[list[str], dict[str, str]]:
        corrections = {}
        fixed = []
        for token in tokens:
            better = self.correct(token)
            if better:
                corrections[token] = better
            fixed.append(better or token)
        return fixed, corrections

    def factions_named(self, tokens: list[str]) -> tuple[list[str], set[int], list[str]]:
        """(faction keys named, positions of the names, words to search instead)."""
        named: list[str] = []
        positions: set[int] = set()
        expansions: list[str] = []
        for start, end, keys in self.faction_names.spans(tokens):
            keys = [k for k in keys if k != NOT_A_FACTION]
            if not keys:
                continue
            named.extend(k for k in keys if k not in named)
            # A nickname is searched as the faction's printed name; the word itself counts less.
            positions.update(range(start, end))
            expansions.extend(tokens[start:end])
            for key in keys:
                expansions.extend(words(self.data["factions"][key]["name"]))
        return named, positions, expansions

    def known_share(self, content: list[str], corrections: dict[str, str]) -> float:
        """The share of content words the corpus uses. A fixed typo counts in part: a long word one edit
        away is likelier a typo than a short one ("warirors" vs "world" -> "would")."""
        typo_of = {fixed: typo for typo, fixed in corrections.items()}
        scored = [
            (0.75 if len(typo_of[t]) >= 6 else 0.5) if t in typo_of else 1.0 if t in self.counts else 0.0
            for t in content
        ]
        return sum(scored) / len(scored) if scored else 1.0


def model_of(index: index_mod.OpenIndex) -> QueryModel:
    cached = getattr(index, "_model", None)
    if cached is None:
        cached = QueryModel(index.query_model)
        index._model = cached
    return cached


def resolve_faction(index: index_mod.OpenIndex, name: str) -> str:
    """A faction key from a name or nickname ("cats", "Eyrie", "vaga"); UsageError when unknown.
    The rules for names live in factions.py (strict: exact names, or one clearly meant misspelling)."""
    from .factions import read_faction

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
    model = model_of(index)
    allowed = index_mod.allowed_ids(index, sources, factions, official) if (sources or factions or official) else None

    ref = refs.parse_query_ref(query)
    if ref:
        answer = _answer_reference(index, query, ref, allowed, limit)
        answer.notices[:0] = notices
        return answer

    understood = model.understand(query)
    hits = rank(index, model, understood, sources, factions, official)
    hits = _diversify(_collapse_family(hits))[:limit]
    confident = bool(hits) and is_confident(hits[0], understood)
    return Answer(query, confident, hits, notices, understood.corrections, understood.factions)


def _answer_reference(index, query: str, ref: str, allowed: set[str] | None, limit: int) -> Answer:
    holding, citing = records_for_ref(index, ref)
    found = [ScoredHit(r, 10.0, "section") for r in holding]
    found += [ScoredHit(r, 5.0, "cites") for r in citing]
    if allowed is not None:
        found = [h for h in found if h.record.id in allowed]
    if holding:
        return Answer(query, True, found[:limit], reference=ref)
    nearest = nearest_refs(index, ref)
    notice = f"no section {ref} in the corpus; " + (f"nearest: {', '.join(nearest)}" if nearest else "nothing near it")
    return Answer(query, False, found[:limit], [notice], reference=ref)


def rank(
    index: index_mod.OpenIndex,
    model: QueryModel,
    understood: Understood,
    sources: list[str] | None,
    factions: list[str] | None,
    official: bool,
) -> list[ScoredHit]:
    """BM25F candidates re-ranked by fuzzy similarity, faction evidence and cited sections."""
    weighted = [(w, 1.0) for w in understood.content]
    weighted += [(w, SYNONYM_WEIGHT) for w in understood.expansions]
    allowed = index_mod.allowed_ids(index, sources, factions, official) if (sources or factions or official) else None
    candidates = index_mod.search(index, weighted, understood.factions, allowed=allowed, limit=CANDIDATES)
    if not candidates:
        return []
    top = candidates[0].score or 1.0
    query_stems = model.stems(understood.content)
    hits = []
    for candidate in candidates:
        record = index.records[candidate.id]
        score = candidate.score / top
        score += HEADING_WEIGHT * heading_match(query_stems, model.heading_stems(record))
        if record.source != "faq" and query_stems and query_stems == model.title_stems(record):
            score += NAMED_RULE_BONUS  # the player typed the rule's name: "field hospitals", "guano"
        if record.source == "outsiders" and not record.section:
            score *= PART_PRIOR
        if understood.factions:
            if set(understood.factions) & set(record.factions[:2]):
                score += FACTION_WEIGHT
            elif not set(understood.factions) & set(record.factions):
                score -= OFF_FACTION_PENALTY
        if understood.refs and (record.section in understood.refs or set(understood.refs) & set(record.xrefs)):
            score += CITES_REF_WEIGHT
        hits.append(ScoredHit(record, round(score, 4)))
    hits.sort(key=lambda h: -h.score)
    return hits


def heading_match(query: set[str], headings: list[set[str]]) -> float:
    """How well the question matches a record's best heading: F1 of shared stems."""
    best = 0.0
    for heading in headings:
        shared = len(query & heading)
        if shared:
            recall, precision = shared / len(query), shared / len(heading)
            best = max(best, 2 * recall * precision / (recall + precision))
    return best


def _collapse_family(hits: list[ScoredHit]) -> list[ScoredHit]:
    """Keep one of a section and its own sub-items: the better scored."""
    seen: set[str] = set()
    kept = []
    for hit in hits:
        record = hit.record
        family = record.id
        if record.source == "outsiders" and record.section and refs.base_ref(record.section) != record.section:
            family = f"rule-{refs.base_ref(record.section)}"
        if family in seen:
            continue
        seen.add(family)
        kept.append(hit)
    return kept


def _diversify(hits: list[ScoredHit]) -> list[ScoredHit]:
    """Keep the rule text in sight: when the first three hits all come from one source and another
    source's best hit scores nearly as well as the third, it takes third place."""
    if len(hits) < 4 or len({h.record.source for h in hits[:3]}) > 1:
        return hits
    third = hits[2].score
    for position, hit in enumerate(hits[3:12], start=3):
        if hit.record.source != hits[0].record.source and hit.score >= DIVERSITY_MARGIN * third:
            return hits[:2] + [hit] + hits[2:position] + hits[position + 1 :]
    return hits


def coverage(record: Record, understood: Understood) -> float:
    """The share of the question's content words that the record's text or headings contain."""
    content = [w for w in understood.content if len(w) > 2]
    if not content:
        return 0.0
    parts = [record.title, *record.alt_titles, *record.phrasings, record.section_title, record.text, *record.factions]
    haystack = set(index_mod.analyze(" ".join(filter(None, parts))))
    hit = sum(1 for w in content if set(index_mod.analyze(w)) & haystack)
    return hit / len(content)


def is_confident(best: ScoredHit, understood: Understood) -> bool:
    """Confident when the question speaks the corpus's language, and the best hit covers it and scores."""
    return (
        understood.known >= CONFIDENT_KNOWN
        and coverage(best.record, understood) >= CONFIDENT_COVERAGE
        and best.score >= CONFIDENT_SCORE
    )
