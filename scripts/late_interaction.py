#!/usr/bin/env python3
"""Measure late interaction (issue 17, item 2): MaxSim over the shipped MiniLM's word-piece vectors, added to
the first stage's score of its best candidates. Measured, not shipped (`docs/levers.md`).

    LATE_WEIGHT=3 python scripts/late_interaction.py ask --json --limit 5 -    # a drop-in for `rootfaq`
    python ../shared/eval/score.py "python scripts/late_interaction.py" SET.yaml   # through a wrapper

Each answering record's whole text (its vector's, dense.embedding_texts) is encoded once by the shipped layers
(the numpy float32 pass), its word pieces' last-layer vectors kept at unit length ([CLS], [SEP] and
punctuation dropped) in .fit-cache/late-interaction.npz (about 70,000 x 384 float16, read with
allow_pickle=False). A question's word pieces go through the same layers; its MaxSim to a record is the mean,
over its word pieces weighted by their rarity among the records, of each one's best cosine to the record's.
Its best LATE_CANDIDATES hits are then ordered by score + LATE_WEIGHT x MaxSim (LATE_WEIGHT=0: the product
as shipped; LATE_ALONE=1: by MaxSim alone); the confidence model is the shipped one.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rootfaq.search import answers, dense, encoder, ranking  # noqa: E402

CACHE = ROOT / ".fit-cache" / "late-interaction.npz"
WEIGHT = float(os.environ.get("LATE_WEIGHT", "3"))
CANDIDATES = int(os.environ.get("LATE_CANDIDATES", "20"))
ALONE = os.environ.get("LATE_ALONE") == "1"


def piece_vectors(model: encoder.Encoder, texts: list[str]) -> list[tuple[list[str], np.ndarray]]:
    """Per text, its word pieces (special and punctuation ones dropped) and their unit last-layer vectors."""
    names = {i: piece for piece, i in model.tokenizer.ids.items()}
    found = []
    with encoder.one_blas_thread():
        for text in texts:
            ids = model.tokenizer.encode(text)
            words = model._words_q[np.array([ids])].astype(np.float32) * model._words_scale[np.array([ids])][..., None]
            x = encoder._layer_norm(words + model._positions[: len(ids)] + model._type0, *model._norm0)
            x = encoder._numpy_layers(model._layers, x, np.zeros((1, 1, 1, len(ids)), dtype=np.float32))[0]
            keep = [j for j, i in enumerate(ids) if not names[i].startswith("[") and any(c.isalnum() for c in names[i])]
            vectors = x[keep] / np.maximum(np.linalg.norm(x[keep], axis=1, keepdims=True), 1e-12)
            found.append(([names[ids[j]] for j in keep], vectors))
    return found


def record_pieces(index) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Record id -> its word pieces' vectors, and each piece's rarity (log inverse record frequency)."""
    records = index.library.records
    ids = sorted(ranking.answering_ids(index))
    texts = [dense.embedding_texts(records[i])[0][1] for i in ids]
    key = hashlib.sha256(f"{encoder.MODEL_SHA256}\n".encode() + "\n".join(texts).encode()).hexdigest()
    if CACHE.exists():
        with np.load(CACHE, allow_pickle=False) as saved:
            if str(saved["key"]) == key:
                vectors, offsets = saved["vectors"].astype(np.float32), saved["offsets"]
                rarity = json.loads(str(saved["rarity"]))
                return {i: vectors[offsets[n]: offsets[n + 1]] for n, i in enumerate(ids)}, rarity
    encoded = piece_vectors(encoder.sentence_encoder(), texts)
    counts: dict[str, int] = {}
    for pieces, _ in encoded:
        for piece in set(pieces):
            counts[piece] = counts.get(piece, 0) + 1
    rarity = {piece: math.log((len(ids) + 1) / (n + 1)) for piece, n in counts.items()}
    offsets = np.cumsum([0] + [len(v) for _, v in encoded])
    CACHE.parent.mkdir(exist_ok=True)
    np.savez(CACHE, key=key, vectors=np.concatenate([v for _, v in encoded]).astype(np.float16), offsets=offsets,
             rarity=json.dumps(rarity))
    return {i: v.astype(np.float32) for i, (_, v) in zip(ids, encoded, strict=True)}, rarity


def max_sim(pieces: list[str], vectors: np.ndarray, record: np.ndarray, rarity: dict[str, float]) -> float:
    """The question's pieces' best cosines to the record's, averaged by rarity (an unseen piece: the rarest)."""
    if not len(vectors) or not len(record):
        return 0.0
    rarest = max(rarity.values())
    weights = np.array([max(rarity.get(p, rarest), 0.0) for p in pieces]) + 1e-6
    return float(((vectors @ record.T).max(axis=1) * weights).sum() / weights.sum())


def main() -> None:
    shipped_rank = answers.rank
    loaded: dict[str, object] = {}

    def rank(index, reader, understood, allowed, query_vector, weights):
        ranked = shipped_rank(index, reader, understood, allowed, query_vector, weights)
        if (WEIGHT == 0 and not ALONE) or query_vector is None or len(ranked) < 2:
            return ranked
        if not loaded:
            loaded["records"], loaded["rarity"] = record_pieces(index)
        (pieces, vectors), = piece_vectors(encoder.sentence_encoder(), [reader.encoder_text(understood)])
        head = ranked[:CANDIDATES]
        late = [max_sim(pieces, vectors, loaded["records"][hit.record.id], loaded["rarity"]) for hit, _ in head]
        scores = [m if ALONE else hit.score + WEIGHT * m for (hit, _), m in zip(head, late, strict=True)]
        return [head[i] for i in sorted(range(len(head)), key=lambda i: -scores[i])] + ranked[CANDIDATES:]

    answers.rank = rank
    from rootfaq.cli import run

    sys.argv[0] = "rootfaq"
    run()


if __name__ == "__main__":
    main()
