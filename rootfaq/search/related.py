"""Records on the same topic as a record: the "On the same topic" lines under every answer.

One function, `related_records`, so the retriever behind it can change in one place. Today it is the
index's BM25F, asked "more like this": the query is the record's ten most telling words, each weighted by
how often the record uses it (its question or headings count double) and how rare it is in the corpus,
so the mechanic ("ambush") leads and "card" or "clearing" barely count. The record's own score for that
query is the yardstick a neighbour must come near. Neighbours share a topic tag and a faction (or name
none), are no Clockwork bot ruling unless the record is one, no fan rule unless the record names the fan
expansion (base game first, as in search), and the other source comes first: rules for a ruling, rulings
for a rule.
"""

from __future__ import annotations

import math
from collections import Counter

from ..corpus import refs
from ..corpus.query_model import FAN_GROUP
from ..corpus.records import Record, record_headings
from ..corpus.terms import words
from . import lexical
from .index import OpenIndex
from .query import reader_of

CANDIDATES = 60
QUERY_WORDS = 10
HEADING_COUNT = 2  # a word in the record's question or headings counts as two in its text
MIN_SHARE = 0.3  # of the record's own score: below it a neighbour shares too little to be worth a line
MIN_SHARE_OTHER_SOURCE = 0.2  # rules and rulings are worded differently, so the other source scores lower
OTHER_SOURCE_FIRST = 2  # at most this many of the other source lead the list


def related_records(index: OpenIndex, record: Record, limit: int = 3, exclude: set[str] | frozenset[str] = frozenset()
                    ) -> list[Record]:
    """Up to `limit` records on the same topic as `record`, the other source's nearest first.

    `exclude` holds ids already shown beside the record (the sections it cites, rulings citing them).
    """
    if limit <= 0:
        return []
    query = _query(reader_of(index), record, len(index.library.records))
    if not query:
        return []
    hits = lexical.search(index, query, record.factions[:2], limit=CANDIDATES)
    if not hits:
        return []
    yardstick = next((h.score for h in hits if h.id == record.id), hits[0].score) or 1.0
    bot_tags = index.library.query_model.bot_groups()
    fan_ok = _names_fan_content(index, record)
    other: list[Record] = []
    same: list[Record] = []
    for hit in hits:
        candidate = index.library.records[hit.id]
        if hit.id in exclude or not _neighbour(record, candidate, bot_tags):
            continue
        if candidate.grade == "fan-rule" and not fan_ok:
            continue  # base game first, as in search: fan rules only under what names the fan expansion
        if any(_same_family(candidate, kept) for kept in other + same):
            continue  # one line for a section and its sub-items
        if _source_kind(candidate) != _source_kind(record):
            if hit.score >= MIN_SHARE_OTHER_SOURCE * yardstick and len(other) < OTHER_SOURCE_FIRST:
                other.append(candidate)
        elif hit.score >= MIN_SHARE * yardstick:
            same.append(candidate)
    return (other + same)[:limit]


def _names_fan_content(index: OpenIndex, record: Record) -> bool:
    """The record is a fan rule, is about a fan faction, or names the fan expansion or one of its maps."""
    if record.grade == "fan-rule":
        return True
    factions = index.library.query_model.factions
    if any(factions[k].group == FAN_GROUP for k in record.factions if k in factions):
        return True
    return bool(reader_of(index).fan_terms.spans(words(f"{record.title or ''} {record.text}")))


def _query(model, record: Record, total: int) -> list[tuple[str, float]]:
    """The record's most telling words, weighted: how often it uses them times how rare they are."""
    counts: Counter[str] = Counter()
    for line in record_headings(record, asked=False):  # the topic as the sources and curation put it
        for word in words(line):
            counts[word] += HEADING_COUNT
    counts.update(words(record.text))
    telling = {
        word: count * math.log(total / (1 + model.counts.get(word, 0)))
        for word, count in counts.items()
        if word not in model.filler and len(word) > 1
    }
    best = sorted(telling.items(), key=lambda item: -item[1])[:QUERY_WORDS]
    top = best[0][1] if best else 0.0
    return [(word, weight / top) for word, weight in best if weight > 0] if top > 0 else []


def _neighbour(record: Record, other: Record, bot_tags: set[str]) -> bool:
    """Could `other` stand beside `record` as related: a different answer on a shared topic and faction."""
    if other.id == record.id or not other.is_answer or other.holds_no_rule:
        return False
    if other.source == "outsiders" and not other.section:
        return False  # a part heading is about everything in its part
    if _same_family(record, other):
        return False
    if record.topics and other.topics and not set(record.topics) & set(other.topics):
        return False
    if record.factions and other.factions and not set(record.factions) & set(other.factions):
        return False
    return bool(bot_tags & set(record.factions)) or not bot_tags & set(other.factions)


def _same_family(a: Record, b: Record) -> bool:
    """A rule and its own sections or sub-items (already shown with it)."""
    if a.source == "faq" or b.source == "faq" or not a.section or not b.section:
        return False
    x, y = refs.base_ref(a.section), refs.base_ref(b.section)
    return x == y or x.startswith(y + ".") or y.startswith(x + ".")


def _source_kind(record: Record) -> str:
    return "ruling" if record.source == "faq" else "rule"
