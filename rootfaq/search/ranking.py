"""Ranking: evidence about each candidate, weighed by weights fitted to data.

Candidates come from two retrievers (BM25F over the words, cosine over sentence vectors). Each gets a
vector of evidence (model.FEATURES); its score is the weighted sum, with the weights of the fitted model
(model.py). `evidence` is the one function that computes it, and `order` the one that orders the candidates by
it (and by the nearest headings' votes, by meaning and by words), for `rank` and for scripts/fit.py alike.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from ..corpus import refs
from ..corpus.query_model import FAN_GROUP
from ..corpus.records import Record
from .index import OpenIndex, analyze, word_stems
from .lexical import search as lexical_search
from .model import FEATURES, ModeWeights
from .query import HeadingStems, QueryReader, Understood
from .second_stage import SecondStage, reorder


def heading_f1s(query: set[str], headings: HeadingStems) -> list[float]:
    """F1 of shared stems between the question and each heading that shares one. Counted from the
    question's few stems through the headings' stem index, not heading by heading (a record has 12
    headings on average, the questions players asked among them)."""
    shared: dict[int, int] = {}
    by_stem = headings.by_stem
    for stem in query:
        for heading in by_stem.get(stem, ()):
            shared[heading] = shared.get(heading, 0) + 1
    sizes, asked = headings.sizes, len(query)
    scores = []
    for heading, count in shared.items():
        # Not 2 x count / (asked + size): equal in exact arithmetic, but rounded differently, which breaks
        # the word vote's ties differently (52 of 1,374 answers' scores moved when tried).
        recall, precision = count / asked, count / sizes[heading]
        scores.append(2 * recall * precision / (recall + precision))
    return scores


def word_votes(headings: dict[str, list[float]], count: int, temperature: float) -> dict[str, float]:
    """Record id -> its share of a vote by the `count` headings nearest the question by shared stems
    (`headings`: each candidate's heading_f1s), each weighing exp((F1 - best) / temperature): a record that
    many ways of asking in the question's own words lead to, where `heading_match` reads only the best one."""
    nearest = heapq.nlargest(count, ((f1, rid) for rid, f1s in headings.items() for f1 in f1s))
    if not nearest or nearest[0][0] <= 0:
        return {}
    weights = [math.exp((f1 - nearest[0][0]) / temperature) for f1, _ in nearest]
    total = sum(weights)
    votes: dict[str, float] = {}
    for (_, rid), weight in zip(nearest, weights, strict=True):
        votes[rid] = votes.get(rid, 0.0) + weight / total
    return votes


# --- the evidence about each candidate ----------------------------------------------------------------------

# Each retriever's best, as candidates. 60 and 40 before: 30 and 20 answer as well (3,392 training questions and
# posts, written blind: top-1 1,167 -> 1,168, top-3 1,328 -> 1,327; our check sets level within two) and a warm
# question costs a millisecond less (`docs/levers.md`).
LEXICAL_CANDIDATES = 30
SEMANTIC_CANDIDATES = 20
SYNONYM_WEIGHT = 0.5  # a rule term a player's word stands for, relative to the word itself
STORY_WEIGHT = 0.25  # a word of the story around a post's question, relative to the question's own
# The nearest headings' vote (dense.neighbour_votes): the first stage's best NEIGHBOUR_CANDIDATES are ordered
# by their fitted score + NEIGHBOUR_WEIGHT x their share of the vote of the NEIGHBOURS headings nearest the
# question. Temperature and count chosen on set AB alone (training/blind-questions-AB.yaml, never indexed or
# fitted: weight 0.5 to 16, temperature 0.02 to 0.1, 10 or 20 headings); the weight as the word vote's, below.
NEIGHBOURS = 10
NEIGHBOUR_TEMPERATURE = 0.1
NEIGHBOUR_WEIGHT = 2.0
NEIGHBOUR_CANDIDATES = 20
# The same vote by words (`word_votes`): the candidates' WORD_NEIGHBOURS headings that share the most of the
# question's stems (F1), each exp((F1 - best) / WORD_NEIGHBOUR_TEMPERATURE), adding WORD_NEIGHBOUR_WEIGHT x the
# share. Temperature and count chosen on set AB alone (weight 1 to 8, temperature 0.05 to 0.2, 10 or 20
# headings: a plateau from weight 2 to 4). Both votes weigh 2 rather than 4: level on set AB and the fresh sets,
# and held out by record in scripts/fit.py 32 more of 3,286 questions written while reading their record come
# first (`docs/levers.md` has the figures).
WORD_NEIGHBOURS = 10
WORD_NEIGHBOUR_TEMPERATURE = 0.1
WORD_NEIGHBOUR_WEIGHT = 2.0
BOT_GROUP = "clockwork"


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
    neighbours: float = 0.0  # its share of the nearest headings' vote
    word_neighbours: float = 0.0  # its share of the same vote by shared stems
    heading_f1s: list[float] = field(default_factory=list)  # F1 of shared stems with each heading sharing one
    features: tuple[float, ...] = ()
    fitted: float = 0.0  # the fitted score (both stages), which the confidence model reads; set by `order`


def rank(
    index: OpenIndex,
    model: QueryReader,
    understood: Understood,
    allowed: set[str] | None,
    query_vector,
    weights: ModeWeights,
) -> list[tuple[ScoredHit, Evidence]]:
    """Candidates from both retrievers, scored by the fitted weights, the best re-ordered by the second
    stage (second_stage.py) and the nearest headings' vote, best first."""
    found = list(evidence(index, model, understood, allowed, query_vector).items())
    entries = [entry for _, entry in found]
    ordered, scores = order(entries, [weights.score(entry.features) for entry in entries], weights.second_stage)
    return [(ScoredHit(index.library.records[found[i][0]], round(scores[i], 4)), found[i][1]) for i in ordered]


def order(found: list[Evidence], first, stage: SecondStage | None) -> tuple[list[int], list[float]]:
    """(the candidates' order, each one's ranking score) from their first-stage scores: the best of them
    re-ordered by the second stage, then the best NEIGHBOUR_CANDIDATES by their score plus the nearest
    headings' votes (by meaning and by words). Each candidate's fitted score (both stages) is kept in
    `Evidence.fitted` for the confidence model, which was fitted on it. The one ordering, for `rank` and for
    scripts/fit.py alike."""
    ordered, fitted = reorder(first, [entry.features for entry in found], stage)
    scores = [float(score) for score in fitted]
    for entry, score in zip(found, scores, strict=True):
        entry.fitted = score
    head = [int(i) for i in ordered[:NEIGHBOUR_CANDIDATES]]
    for i in head:
        scores[i] += NEIGHBOUR_WEIGHT * found[i].neighbours + WORD_NEIGHBOUR_WEIGHT * found[i].word_neighbours
    head.sort(key=lambda i: -scores[i])  # stable: a tie keeps the fitted order
    return head + [int(i) for i in ordered[NEIGHBOUR_CANDIDATES:]], scores


def evidence(index: OpenIndex, model: QueryReader, understood: Understood, allowed: set[str] | None,
             query_vector) -> dict[str, Evidence]:
    """Record id -> what is known of it as an answer, its features filled in: the one evidence function,
    read by `rank` and by scripts/fit.py alike."""
    found = candidates(index, understood, allowed, query_vector)
    asked = Asked.of(index, model, understood)
    for record_id, entry in found.items():
        record = index.library.records[record_id]
        entry.heading_f1s = heading_f1s(asked.stems, model.heading_stems(record))
        entry.features = features(index, model, record, entry, understood, asked)
    votes = word_votes({rid: entry.heading_f1s for rid, entry in found.items()}, WORD_NEIGHBOURS,
                       WORD_NEIGHBOUR_TEMPERATURE)
    for record_id, share in votes.items():
        found[record_id].word_neighbours = share
    return found


def prepare(index: OpenIndex, model: QueryReader, understood: Understood, allowed: set[str] | None) -> None:
    """Work out, before the question's vector exists, what `evidence` will then read: the lexical
    candidates' postings, stems and headings, and the record vectors' layout. Only the caches change."""
    from .dense import prepare_vectors

    evidence(index, model, understood, allowed, None)
    prepare_vectors(index)


def answering_ids(index: OpenIndex) -> frozenset[str]:
    """The records a question can be answered by: not a heading or a part's title page that holds no rule
    of its own (its title would outrank the sections that answer; a section number still opens it)."""
    if index.derived.answering_ids is None:
        index.derived.answering_ids = frozenset(
            rid for rid, record in index.library.records.items() if record.is_answer and not record.holds_no_rule)
    return index.derived.answering_ids


def candidates(index: OpenIndex, understood: Understood, allowed: set[str] | None, query_vector) -> dict[str, Evidence]:
    """Record id -> what each retriever said of it, for the union of both retrievers' best."""
    weighted = [(w, 1.0) for w in understood.content] + [(w, SYNONYM_WEIGHT) for w in understood.expansions] \
        + [(w, STORY_WEIGHT) for w in understood.context]
    allowed = answering_ids(index) if allowed is None else allowed & answering_ids(index)
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
    from .dense import neighbour_votes, prepare_vectors, record_cosines, row_cosines, semantic_order

    sims = row_cosines(index, query_vector)
    record_ids, wholes, headings = record_cosines(index, sims)
    best_first, ranks = semantic_order(index, headings, allowed)
    # The lexical candidates first (what the vectors say of them), then the semantic retriever's best.
    place = prepare_vectors(index).position
    places = [(record_id, place[record_id]) for record_id in found if record_id in place]
    places += [(record_ids[row], row) for row in best_first[:SEMANTIC_CANDIDATES].tolist()]
    for record_id, row in places:
        entry = found.get(record_id)
        if entry is None:
            entry = found[record_id] = Evidence()
        entry.semantic_whole, entry.semantic_heading = float(wholes[row]), float(headings[row])
        entry.semantic_rank = int(ranks[row])
    for record_id, share in neighbour_votes(index, sims, allowed, NEIGHBOURS, NEIGHBOUR_TEMPERATURE).items():
        if record_id in found:
            found[record_id].neighbours = share
    return found


@dataclass(frozen=True)
class Asked:
    """What every candidate's features read of the question, worked out once per question (a question has
    70 or so candidates): the factions it names, its stems, and its content words with their rarity."""

    named: frozenset[str]
    asks_fan: bool
    stems: set[str]
    content: tuple[str, ...]  # the content words of three letters or more, each once, in order
    content_stems: tuple[frozenset[str], ...]
    rarity: tuple[float, ...]  # log(1 + records / (1 + the word's count in the corpus)), per content word
    rarity_sum: float
    rarest: float  # the rarity of a word no record holds

    @classmethod
    def of(cls, index: OpenIndex, model: QueryReader, understood: Understood) -> Asked:
        named = frozenset(understood.factions)
        factions = index.library.query_model.factions
        groups = {factions[k].group for k in named if k in factions}
        content = tuple(w for w in dict.fromkeys(understood.content) if len(w) > 2)
        total = max(1, len(index.library.records))
        meant = [_meant_by(w, model) for w in content]
        rarity = tuple(min(math.log(1 + total / (1 + model.counts.get(m, 0))) for m in words) for words in meant)
        return cls(named, FAN_GROUP in groups or understood.names_fan_content, model.stems(understood.content),
                   content, tuple(frozenset().union(*map(word_stems, words)) for words in meant), rarity,
                   sum(rarity), math.log(1 + total))


def _meant_by(word: str, model: QueryReader) -> tuple[str, ...]:
    """A content word and the words of the rule terms it stands for (`corpus/vocabulary.yaml`: "troops" warriors,
    "spot" clearing): a record holding the rule's word holds what the player's word asks."""
    return (word, *(w for term in model.model.synonyms.get(word, ()) for w in term.split()))


def features(index: OpenIndex, model: QueryReader, record: Record, found: Evidence, understood: Understood,
             asked: Asked) -> tuple[float, ...]:
    """The evidence about one candidate, in FEATURES order."""
    named = asked.named
    traits = index.derived.record_traits.get(record.id) or _traits_of(index, record)
    values = {
        "lexical": found.lexical,
        "lexical_rank": 0.0 if found.lexical_rank is None else 1.0 / (1 + found.lexical_rank),
        "semantic_whole": found.semantic_whole,
        "semantic_heading": found.semantic_heading,
        "semantic_rank": 0.0 if found.semantic_rank is None else 1.0 / (1 + found.semantic_rank),
        "heading_match": max(found.heading_f1s, default=0.0),
        "part_intro": traits.part_intro,
        "sub_item": traits.sub_item,
        "faction_match": float(not named.isdisjoint(traits.lead_factions)),
        "faction_other": float(bool(named) and bool(traits.factions) and named.isdisjoint(traits.factions)),
        "faction_untagged": float(bool(named) and not traits.factions),
        "cites_ref": float(bool(understood.refs) and (record.section in understood.refs
                                                      or not traits.xrefs.isdisjoint(understood.refs))),
        "fan_unasked": float(traits.fan_rule and not asked.asks_fan),
        "bot_unasked": float(traits.bot and BOT_GROUP not in named),
        **coverage(index, record, asked),
    }
    return tuple(values[name] for name in FEATURES)


@dataclass(frozen=True)
class RecordTraits:
    """What `features` reads of a record alone, worked out once per record (it is read for every question
    the record is a candidate of)."""

    factions: frozenset[str]
    lead_factions: frozenset[str]  # the first two: what the record is about
    xrefs: frozenset[str]
    part_intro: float  # a rulebook part's introduction
    sub_item: float  # a bullet sub-item of a section
    fan_rule: bool
    bot: bool


def _traits_of(index: OpenIndex, record: Record) -> RecordTraits:
    traits = index.derived.record_traits[record.id] = RecordTraits(
        frozenset(record.factions), frozenset(record.factions[:2]), frozenset(record.xrefs),
        float(record.source == "outsiders" and not record.section),
        float(bool(record.section) and refs.base_ref(record.section) != record.section),
        record.grade == "fan-rule", BOT_GROUP in record.factions)
    return traits


def family_of(record: Record) -> str:
    """The display family: a section and its own sub-items are one, so a screen shows only the better
    scored (showing both would say the same thing twice). Not `answer_family`."""
    if record.source == "outsiders" and record.section and refs.base_ref(record.section) != record.section:
        return f"rule-{refs.base_ref(record.section)}"
    return record.id


def answer_family(record: Record) -> str:
    """The answer family, for labelling training questions: every record that answers what one record
    answers (a section with its sub-items, a Law paragraph with the Outsiders' quote of it, under one
    number), so a question written for one counts any of them right. Wider than `family_of`."""
    if record.source == "faq" or not record.section:
        return record.id
    return refs.base_ref(record.section)


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


def coverage(index: OpenIndex, record: Record, asked: Asked) -> dict[str, float]:
    """How much of the question the record's text and headings hold: the share of its content words,
    the same weighted by rarity (idf), and how rare the rarest word it lacks is."""
    if not asked.content:
        return {"coverage": 0.0, "rare_coverage": 0.0, "rare_missing": 0.0}
    stems = index.derived.record_stems
    if record.id not in stems:
        stems[record.id] = _record_stems(record)
    haystack = stems[record.id]
    held = held_rarity = missing = 0.0
    for word, rarity in zip(asked.content_stems, asked.rarity, strict=True):
        if word.isdisjoint(haystack):
            missing = max(missing, rarity)
        else:
            held += 1
            held_rarity += rarity
    return {
        "coverage": held / len(asked.content),
        "rare_coverage": held_rarity / asked.rarity_sum,
        "rare_missing": missing / asked.rarest,
    }


def _record_stems(record: Record) -> frozenset[str]:
    parts = [record.title, *record.alt_titles, *record.phrasings, *record.asked, record.section_title, record.text,
             *record.factions]
    return frozenset(analyze(" ".join(filter(None, parts))))
