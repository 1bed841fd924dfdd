"""Lexical retrieval: BM25F over the whoosh index's fields, for weighted query words.

The statistics come from the index (rootfaq/search/index.py, the only module that touches whoosh); the
scoring is here: field boosts, saturation and length normalisation.
"""

from __future__ import annotations

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
    walking a few posting lists is ten times faster than whoosh's matcher trees on an index this small,
    and adding each list's scores as one numpy array takes half the time of adding them record by record.
    """
    import numpy as np

    ids = index.docnum_ids()
    total = index.document_count() or 1
    per_token: dict[str, float] = {}
    for word, weight in words:
        for token in analyze(word):
            per_token[token] = max(per_token.get(token, 0.0), weight)
    scores = np.zeros(len(ids))
    # Ties keep the order in which records were first found (each word's records as its fields list them, then
    # the factions'), as a stable sort of the records by score would.
    found_at = np.full(len(ids), len(ids))
    found = 0

    def add(docnums, values) -> None:
        nonlocal found
        new = docnums[found_at[docnums] == len(ids)]
        found_at[new] = np.arange(found, found + len(new))
        found += len(new)
        scores[docnums] += values

    for token, weight in per_token.items():
        postings = _blended(index, token, total)
        if len(postings.docnums):
            # the same floating-point steps as weight * idf * tf / (k1 + tf), left to right, per record
            add(postings.docnums, weight * postings.idf * postings.frequencies / postings.saturation)
    for key in faction_boosts:
        if index.has_term("factions", key):
            add(np.array(index.documents_with("factions", key), dtype=np.int64), FACTION_FIELD_BOOST)
    touched = np.flatnonzero(found_at < len(ids))
    best_first = touched[np.lexsort((found_at[touched], -scores[touched]))]
    hits = []
    for docnum in best_first.tolist():
        record_id = ids[docnum]
        if allowed is None or record_id in allowed:
            hits.append(Hit(record_id, float(scores[docnum])))
            if len(hits) == limit:
                break
    return hits


@dataclass(frozen=True)
class BlendedPostings:
    """A term's idf and, per record holding it (in the order its fields list them), its docnum, its
    field-weighted length-normalised frequency and that frequency plus BM25_K1 (numpy arrays)."""

    idf: float
    docnums: object
    frequencies: object
    saturation: object


def _blended(index: OpenIndex, token: str, total: int) -> BlendedPostings:
    """A term's blended postings, worked out once per process (a post's story asks for hundreds of terms,
    many of them in no field)."""
    cache = index.derived.bm25_terms
    if token not in cache:
        import numpy as np

        blended: dict[int, float] = {}
        for field_name, boost in FIELD_BOOSTS.items():
            for docnum, frequency, norm in _normalised_postings(index, field_name, token):
                blended[docnum] = blended.get(docnum, 0.0) + boost * frequency / norm
        idf = math.log(1 + (total - len(blended) + 0.5) / (len(blended) + 0.5))
        frequencies = np.fromiter(blended.values(), dtype=np.float64, count=len(blended))
        cache[token] = BlendedPostings(idf, np.fromiter(blended, dtype=np.int64, count=len(blended)),
                                       frequencies, BM25_K1 + frequencies)
    return cache[token]


def _normalised_postings(index: OpenIndex, field_name: str, token: str) -> list[tuple[int, int, float]]:
    """(docnum, frequency, BM25 length norm) for a term in one field; none for a term the field does not hold."""
    if not index.has_term(field_name, token):
        return []
    average = index.average_length(field_name)
    return [(docnum, frequency, 1 - BM25_B + BM25_B * length / average)
            for docnum, frequency, length in index.postings(field_name, token)]
