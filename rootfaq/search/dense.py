"""Record vectors for the semantic retriever: what each record is encoded as, and the vectors shipped with it;
and the question's side: its vector, and its cosines to every record.

A record is encoded twice over: once as a whole (its headings, phrasings and text in one passage) and once
per heading (an FAQ entry's question and phrasings, a rule's title and phrasings), so that a question
close to any one way of asking scores high. Encoding every record takes minutes on two cores, so the
vectors ship in the package (rootfaq/model_data/record-vectors.*), each keyed by a fingerprint of the
exact text it encodes and of the model: a build encodes only texts whose fingerprint is not shipped.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..corpus.records import Record
from ..errors import IndexFailure
from .encoder import DIMENSIONS, MODEL_SHA256, ModelUnavailable, blas_controller, one_blas_thread, sentence_encoder
from .shipped import ShippedDataDamaged, read_shipped

if TYPE_CHECKING:  # index.py reads vectors with this module: no import at run time
    from .index import OpenIndex

SHIPPED_VECTORS = "record-vectors.npy"
VECTORS = "vectors.npy"  # in an index folder: the record vectors, one row each
VECTOR_ROWS = "vector-rows.json"  # in an index folder: per row, record id, kind, fingerprint
SHIPPED_KEYS = "record-vectors.json"
WHOLE, HEADING = "whole", "heading"


def embedding_texts(record: Record) -> list[tuple[str, str]]:
    """(kind, text) to encode for a record: the whole passage, then each heading on its own, the questions
    players asked last. Those stay out of the whole passage: hundreds of players' words would crowd the
    record's own out of the encoder's window."""
    context = f"{record.part}: " if record.source == "outsiders" and record.part else ""
    headings = [h for h in [record.title if record.source == "faq" else record.section_title,
                            *record.alt_titles, *record.phrasings] if h]
    whole = context + " ".join(dict.fromkeys([*headings, record.text]))
    return [(WHOLE, whole)] + [(HEADING, context + h) for h in dict.fromkeys([*headings, *record.asked])]


def fingerprint(text: str) -> str:
    """What a vector was computed from: the model's weights and the exact text."""
    return hashlib.sha256(f"{MODEL_SHA256}\n{text}".encode()).hexdigest()[:24]


@dataclass
class RecordVectors:
    """Unit vectors (float32, one row each) and, per row, the record id and whether it is the whole or a heading."""

    matrix: object
    record_ids: list[str]
    kinds: list[str]
    fingerprints: list[str]


def shipped_vectors() -> dict[str, object]:
    """fingerprint -> vector, from the package, checked (checksums.json, finite values, shapes that agree);
    ShippedDataDamaged otherwise."""
    import io

    import numpy as np

    try:
        keys = json.loads(read_shipped(SHIPPED_KEYS).decode("utf-8"))
        matrix = np.load(io.BytesIO(read_shipped(SHIPPED_VECTORS)), allow_pickle=False)
    except ValueError as exc:
        raise ShippedDataDamaged(f"the shipped record vectors cannot be read ({exc})", "reinstall rootfaq") from None
    if keys.get("model") != MODEL_SHA256 or len(keys.get("fingerprints", [])) != len(matrix) or \
            matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise ShippedDataDamaged("the shipped record vectors do not fit the model or hold values that are not "
                                 "numbers", "reinstall rootfaq")
    return dict(zip(keys["fingerprints"], matrix.astype(np.float32), strict=True))


def compute_record_vectors(
    records: list[Record],
    known: dict[str, object],
    encode: Callable[[list[str]], object] | None,
    progress: Callable[[int, int], None] | None = None,
) -> RecordVectors:
    """Vectors for every answer record: taken from `known` by fingerprint, the rest encoded.

    `encode` is None when the model is unavailable: then records without a known vector get none
    (search still finds them by their words)."""
    import numpy as np

    rows: list[tuple[str, str, str, str]] = []
    for record in records:
        if record.is_answer:
            for kind, text in embedding_texts(record):
                rows.append((record.id, kind, text, fingerprint(text)))
    missing = list(dict.fromkeys(text for _, _, text, fp in rows if fp not in known))
    fresh: dict[str, object] = {}
    if missing and encode is not None:
        step = 32
        for start in range(0, len(missing), step):
            chunk = missing[start : start + step]
            for text, vector in zip(chunk, encode(chunk), strict=True):
                fresh[fingerprint(text)] = vector
            if progress:
                progress(min(start + step, len(missing)), len(missing))
    kept = [row for row in rows if row[3] in known or row[3] in fresh]
    matrix = np.array([known.get(fp, fresh.get(fp)) for *_, fp in kept], dtype=np.float32).reshape(-1, DIMENSIONS)
    return RecordVectors(matrix, [r[0] for r in kept], [r[1] for r in kept], [r[3] for r in kept])


def missing_count(records: list[Record], known: dict[str, object]) -> int:
    """How many texts a build would have to encode."""
    return len({fingerprint(text) for r in records if r.is_answer for _, text in embedding_texts(r)} - set(known))


def question_vector(text: str):
    """A question's unit vector as search compares it with the records (the question layers' encoding);
    ModelUnavailable when the model cannot be used."""
    return sentence_encoder().encode_questions([text])[0]


def semantic_scores(index: OpenIndex, query_vector) -> dict[str, tuple[float, float]]:
    """Record id -> (cosine to the whole record, best cosine to one of its headings)."""
    record_ids, whole, heading = semantic_cosines(index, query_vector)
    return {rid: (float(w), float(h)) for rid, w, h in zip(record_ids, whole, heading, strict=True)}


def semantic_cosines(index: OpenIndex, query_vector):
    """(record ids, each one's cosine to the whole record, its best cosine to one of its headings): float32
    arrays in the ids' order."""
    return record_cosines(index, row_cosines(index, query_vector))


def row_cosines(index: OpenIndex, query_vector):
    """Each vector row's cosine to the question: float32, in the rows' order."""
    import numpy as np

    prepare_vectors(index)
    with one_blas_thread():  # a two-thread product leaves OpenBLAS's second thread spinning on the other core
        return index.vectors.matrix @ np.asarray(query_vector, dtype=np.float32)


def record_cosines(index: OpenIndex, sims):
    """`semantic_cosines` from the rows' cosines."""
    import numpy as np

    layout = prepare_vectors(index)
    # The best row of each record (the whole passage counts as a heading too: never below it).
    heading = np.maximum.reduceat(sims[layout.by_record], layout.starts)
    whole = np.zeros(len(layout.record_ids), dtype=np.float32)
    whole[layout.row_record[layout.whole_rows]] = sims[layout.whole_rows]
    return layout.record_ids, whole, heading


def semantic_order(index: OpenIndex, headings, allowed: set[str] | frozenset[str]):
    """(the `allowed` records' places in the layout, best heading cosine first (a tie keeps the records'
    order), each record's rank in that order (by place; -1 when not allowed))."""
    import numpy as np

    best_first = (-headings).argsort(kind="stable")
    best_first = best_first[allowed_records(index, allowed)[best_first]]
    ranks = np.full(len(headings), -1, dtype=np.int64)
    ranks[best_first] = np.arange(len(best_first))
    return best_first, ranks


def neighbour_votes(index: OpenIndex, sims, allowed: set[str] | frozenset[str], count: int,
                    temperature: float) -> dict[str, float]:
    """Record id -> its share of a vote by the `count` headings nearest the question (FAQ questions, rule
    titles, phrasings, the questions players asked), each weighing exp((cosine - best) / temperature):
    a record many near ways of asking lead to. Only headings of `allowed` records vote."""
    import numpy as np

    layout = prepare_vectors(index)
    voting = allowed_records(index, allowed)[layout.row_record]
    voting[layout.whole_rows] = False
    headings = np.where(voting, sims, -np.inf)
    nearest = min(count, int(voting.sum()))
    if not nearest:
        return {}
    chosen = np.argpartition(-headings, nearest - 1)[:nearest]
    chosen = chosen[np.argsort(-headings[chosen], kind="stable")]
    weights = np.exp((headings[chosen] - headings[chosen[0]]) / temperature)
    votes: dict[str, float] = {}
    for row, weight in zip(chosen, (weights / weights.sum()).tolist(), strict=True):
        rid = layout.record_ids[layout.row_record[row]]
        votes[rid] = votes.get(rid, 0.0) + weight
    return votes


ALLOWED_MASKS_KEPT = 32  # distinct `allowed` sets remembered (one per faction filter; most questions have none)


def allowed_records(index: OpenIndex, allowed: set[str] | frozenset[str]):
    """Whether each record of the vectors' layout is in `allowed` (a bool array in its order), remembered
    per set: building it is a Python loop over every record, and most questions ask with the same set."""
    import numpy as np

    key = frozenset(allowed)  # a frozenset is its own key, its hash computed once
    masks = index.derived.allowed_masks
    mask = masks.get(key)  # read once: another thread may clear the table between a look-up and a read
    if mask is None:
        if len(masks) >= ALLOWED_MASKS_KEPT:
            masks.clear()
        record_ids = prepare_vectors(index).record_ids
        mask = masks[key] = np.fromiter((rid in key for rid in record_ids), dtype=bool, count=len(record_ids))
    return mask


def prepare_vectors(index: OpenIndex):
    """The record vectors' layout (`_layout`), worked out once per index, and BLAS's thread control found,
    so that comparing a question with the records does neither."""
    if index.derived.vector_layout is None:
        index.derived.vector_layout = _layout(index.vectors)
        blas_controller()
    return index.derived.vector_layout


class VectorLayout(NamedTuple):
    """Which rows of the record vectors belong to which record."""

    record_ids: list[str]  # each record once, in the rows' order
    position: dict[str, int]  # record id -> its place in record_ids
    row_record: Any  # each row's record, as its place in record_ids
    whole_rows: Any  # the rows that encode a whole record
    by_record: Any  # the rows in record order
    starts: Any  # where each record's rows start in that order


def _layout(vectors: RecordVectors) -> VectorLayout:
    import numpy as np

    record_ids = list(dict.fromkeys(vectors.record_ids))
    position = {rid: i for i, rid in enumerate(record_ids)}
    row_record = np.array([position[rid] for rid in vectors.record_ids], dtype=np.int64)
    whole_rows = np.array([i for i, kind in enumerate(vectors.kinds) if kind == WHOLE], dtype=np.int64)
    by_record = np.argsort(row_record, kind="stable")
    starts = np.searchsorted(row_record[by_record], np.arange(len(record_ids)))
    return VectorLayout(record_ids, position, row_record, whole_rows, by_record, starts)


ENCODE_AT_BUILD = 400  # texts a build encodes itself (about 15 s here); more means the shipped vectors are gone
SECONDS_A_TEXT = 0.03  # encoding one text here (28 ms measured on two cores): how long `index --vectors` takes


def minutes_to_encode(texts: int) -> int:
    """About how long encoding this many texts takes here, in whole minutes (at least one)."""
    return max(1, round(texts * SECONDS_A_TEXT / 60))


def known_vectors(folder: Path | None = None) -> tuple[dict[str, object], str | None]:
    """fingerprint -> vector: the shipped ones (none when damaged) and those encoded here (vector_cache.py),
    and what is wrong with the shipped ones, if anything."""
    from .vector_cache import cache_folder, cached_vectors

    try:
        known, problem = shipped_vectors(), None
    except ShippedDataDamaged as damage:
        known, problem = {}, damage.message
    for key, vector in cached_vectors(folder or cache_folder(), MODEL_SHA256).items():
        known.setdefault(key, vector)
    return known, problem


def build_vectors(records: list[Record], notices: list[str], progress: Callable[[str], None] | None = None,
                  folder: Path | None = None):
    """Record vectors from the shipped ones and those encoded here, encoding only a few texts missing
    from both (an edited record).

    When far more texts are missing (the shipped vectors are damaged), nothing is encoded: one notice
    says so and how to encode them (`rootfaq index --vectors`, minutes, resumable), and search runs on
    words meanwhile; no question waits for minutes."""
    known, problem = known_vectors(folder)
    encode = None
    missing = missing_count(records, known)
    if missing > ENCODE_AT_BUILD:
        notices.append(f"{problem or f'{missing} record texts have no vector'}: searching by words only "
                       f"(`rootfaq index --vectors` encodes them here in about {minutes_to_encode(missing)} "
                       "min, and resumes if stopped)")
        return compute_record_vectors(records, {}, None)
    if missing:
        try:
            encode = sentence_encoder().encode
        except ModelUnavailable as unavailable:
            notices.append(f"{unavailable.message}; {missing} texts are searched by their words only")

    def report(done: int, total: int) -> None:
        if progress:
            progress(f"encoding changed records for the semantic search: {done}/{total}")

    return compute_record_vectors(records, known, encode, report)


def encode_vectors(records: list[Record], progress: Callable[[int, int], None] | None = None,
                   folder: Path | None = None) -> tuple[int, int]:
    """Encode every text that has no vector, shipped or here, into the vector cache: (encoded, texts).
    Resumable: a run stopped midway keeps the chunks it wrote. ModelUnavailable without the model."""
    from .vector_cache import cache_folder, encode_missing

    known, _ = known_vectors(folder)
    texts = [text for r in records if r.is_answer for _, text in embedding_texts(r)]
    encoded = encode_missing(texts, known, lambda chunk: sentence_encoder().encode(chunk),  # loaded if needed
                             folder or cache_folder(), MODEL_SHA256, fingerprint, progress)
    return encoded, len(set(texts))


# --- in an index folder -------------------------------------------------------------------------------------


def vector_files(vectors: RecordVectors) -> dict[str, bytes]:
    """The files that hold record vectors in an index: a plain .npy matrix and its rows as JSON."""
    import io

    import numpy as np

    matrix = io.BytesIO()
    np.save(matrix, vectors.matrix.astype(np.float32), allow_pickle=False)
    rows = {"record_ids": vectors.record_ids, "kinds": vectors.kinds, "fingerprints": vectors.fingerprints}
    return {VECTORS: matrix.getvalue(), VECTOR_ROWS: json.dumps(rows).encode("utf-8")}


def vectors_from_files(files: dict[str, bytes]) -> RecordVectors:
    """The record vectors: plain arrays and JSON, never pickles; their shapes must agree."""
    try:
        rows = json.loads(bytes(files[VECTOR_ROWS]).decode("utf-8"))
        matrix = _npy_array(files[VECTORS])
        vectors = RecordVectors(matrix, rows["record_ids"], rows["kinds"], rows["fingerprints"])
        if matrix.ndim != 2 or not len(vectors.record_ids) == len(vectors.kinds) == len(matrix):
            raise ValueError("rows and vectors disagree")
    except (KeyError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise IndexFailure(f"its record vectors are damaged ({exc})") from None
    return vectors


def _npy_array(data):
    """A .npy file's array over its bytes without copying them (read-only); never an object array,
    which only a pickle could hold."""
    import io

    import numpy as np
    from numpy.lib import format as npy

    header = io.BytesIO(bytes(data[:65536 + 16]))
    version = npy.read_magic(header)
    read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
    shape, fortran_order, dtype = read_header(header)
    if dtype.hasobject:
        raise ValueError("an object array")
    count = math.prod(shape)
    array = np.frombuffer(data, dtype=dtype, count=count, offset=header.tell())
    return array.reshape(shape, order="F" if fortran_order else "C")
