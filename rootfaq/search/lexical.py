"""Lexical retrieval: BM25F over the whoosh index's fields, for weighted query words.

The statistics come from the index (rootfaq/search/index.py, the only module that touches whoosh); the
scoring is here: field boosts, saturation and length normalisation.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from .index import OpenIndex, analyze

# Field boosts for BM25F: a match in a question or heading says more than one in a long answer.
FIELD_BOOSTS = {"question": 1.0, "title": 1.0, "phrasings": 0.65, "text": 1.0, "names": 1.4, "cited_by": 1.0}
FACTION_FIELD_BOOST = 0.6
BM25_K1 = 2.0
BM25_B = 0.75


@dataclass
class Hit:
    id: str
    score: float


def search(
    index: OpenIndex,
    words: list[tuple[str, float]],
    faction_boosts: list[str],
    allowed: set[str] | None = None,
    limit: int = 50,
) -> list[Hit]:
    """BM25F over the fields for weighted query words, best first, optionally within `allowed` ids.

    True BM25F: a word's length-normalised frequencies in every field are weighted by the field's boost
    and summed *before* saturation, so a record with a question and an answer does not score the same
    word twice. Frequencies, lengths and document counts come from whoosh's postings and statistics;
    walking a few posting lists is ten times faster than whoosh's matcher trees on an index this small.
    """
    ids = index.docnum_ids()
    total = index.document_count() or 1
    scores: dict[int, float] = {}
    per_token: dict[str, float] = {}
    for word, weight in words:
        for token in analyze(word):
            per_token[token] = max(per_token.get(token, 0.0), weight)
    for token, weight in per_token.items():
        idf, blended = _blended(index, token, total)
        weighted_idf = weight * idf  # the same product as weight * idf * tf, left to right
        for docnum, tf in blended:
            scores[docnum] = scores.get(docnum, 0.0) + weighted_idf * tf / (BM25_K1 + tf)
    for key in faction_boosts:
        if index.has_term("factions", key):
            for docnum in index.documents_with("factions", key):
                scores[docnum] = scores.get(docnum, 0.0) + FACTION_FIELD_BOOST
    # The best few, as `sorted` would order them (ties in the order found); all of them only when too few of
    # those are allowed.
    best = heapq.nlargest(2 * limit, scores.items(), key=_score)
    hits = _allowed_hits(best, ids, allowed, limit)
    if len(hits) < limit and len(best) < len(scores):
        hits = _allowed_hits(sorted(scores.items(), key=_score, reverse=True), ids, allowed, limit)
    return hits


def _allowed_hits(ranked: list[tuple[int, float]], ids: list[str], allowed: set[str] | None, limit: int) -> list[Hit]:
    hits = []
    for docnum, score in ranked:
        record_id = ids[docnum]
        if allowed is None or record_id in allowed:
            hits.append(Hit(record_id, score))
            if len(hits) == limit:
                break
    return hits


def _score(item: tuple[int, float]) -> float:
    return item[1]


def _blended(index: OpenIndex, token: str, total: int) -> tuple[float, list[tuple[int, float]]]:
    """A term's idf and its (docnum, field-weighted length-normalised frequency) over all fields, worked out
    once per process (a post's story asks for hundreds of terms, many of them in no field)."""
    cache = index.derived.bm25_terms
    if token not in cache:
        blended: dict[int, float] = {}
        for field_name, boost in FIELD_BOOSTS.items():
            for docnum, frequency, norm in _normalised_postings(index, field_name, token):
                blended[docnum] = blended.get(docnum, 0.0) + boost * frequency / norm
        idf = math.log(1 + (total - len(blended) + 0.5) / (len(blended) + 0.5))
        cache[token] = (idf, list(blended.items()))
    return cache[token]


def _normalised_postings(index: OpenIndex, field_name: str, token: str) -> list[tuple[int, int, float]]:
    """(docnum, frequency, BM25 length norm) for a term in one field; none for a term the field does not hold."""
    if not index.has_term(field_name, token):
        return []
    average = index.average_length(field_name)
    return [(docnum, frequency, 1 - BM25_B + BM25_B * length / average)
            for docnum, frequency, length in index.postings(field_name, token)]
