#!/usr/bin/env python3
"""Refresh the record vectors shipped in rootfaq/model_data/ after a corpus or curated-data change.

    python scripts/encode_corpus.py

Encodes only the texts whose fingerprint is not shipped yet (minutes for the whole corpus on two cores,
seconds for a few changed records), drops vectors no record uses any more, and writes
record-vectors.npy (float16, one row per text) and record-vectors.json (the model's sha256 and each
row's fingerprint). tests/test_dense.py fails when the shipped vectors do not cover the corpus.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rootfaq.corpus.build import build_corpus  # noqa: E402
from rootfaq.corpus.files import read_corpus_files  # noqa: E402
from rootfaq.search import dense  # noqa: E402
from rootfaq.search.encoder import MODEL_SHA256, load_encoder  # noqa: E402
from rootfaq.search.shipped import ShippedDataDamaged, write_checksums  # noqa: E402

OUT = ROOT / "rootfaq" / "model_data"


def main() -> int:
    records = build_corpus(read_corpus_files()).records
    try:
        known = dense.shipped_vectors()
    except ShippedDataDamaged as damage:  # encode everything anew
        print(f"{damage.message}: encoding every text", file=sys.stderr)
        known = {}
    missing = dense.missing_count(records, known)
    started = time.perf_counter()
    encoder = load_encoder(questions=None) if missing else None  # records: the float32 numpy pass

    def progress(done: int, total: int) -> None:
        print(f"\rencoded {done}/{total}", end="", file=sys.stderr, flush=True)

    vectors = dense.compute_record_vectors(records, known, encoder.encode if encoder else None, progress)
    if missing:
        print(file=sys.stderr)
    order = list(dict.fromkeys(vectors.fingerprints))
    first_row = {fp: i for i, fp in reversed(list(enumerate(vectors.fingerprints)))}
    matrix = vectors.matrix[[first_row[fp] for fp in order]].astype(np.float16)
    with open(OUT / dense.SHIPPED_VECTORS, "wb") as handle:
        np.save(handle, matrix, allow_pickle=False)
    keys = {"model": MODEL_SHA256, "fingerprints": order}
    (OUT / dense.SHIPPED_KEYS).write_text(json.dumps(keys, indent=0) + "\n", "utf-8")
    write_checksums(OUT)
    print(f"{len(order)} vectors ({missing} newly encoded in {time.perf_counter() - started:.1f} s), "
          f"{len(set(known) - set(order))} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
