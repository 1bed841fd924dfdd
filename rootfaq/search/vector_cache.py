"""Record vectors encoded on this machine, for the texts the shipped vectors lack (damaged, or left behind
by a corpus edit too large to encode during a build).

`rootfaq index --vectors` encodes them a chunk at a time into `vectors/` beside the indexes. A chunk is
two files: `<name>.npy` (float32, one row a text) and `<name>.json` (the model's sha256, each row's
fingerprint, the matrix's size and sha256), each written whole under a temporary name and renamed, the
JSON last, so a killed run loses at most the chunk it was encoding and the next run resumes after the
chunks already written. A build reads the chunks beside the shipped vectors: each file checked as index
files are (a regular file of bounded size, ours, opened without following links or blocking), then its
sha256, shape and values; a chunk that fails is skipped (and encoded again by the next run).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from ..errors import IndexFailure
from .encoder import DIMENSIONS
from .location import (
    Problem,
    Unusable,
    builder_lock,
    check_location,
    index_base_dir,
    read_trusted,
    sync_dir,
    write_synced,
)

FOLDER = "vectors"
PROGRESS = "progress.json"  # {"done": n, "total": m, "pid": p} while a run encodes, for the commands that ask
CHUNK_TEXTS = 64  # texts a chunk holds: about 3 s of encoding here, all a killed run can lose
CHUNK_LIMIT = 1024 * 1024  # bytes: a chunk's matrix is 64 x 384 float32 (98 KB)
_CHUNK_NAME = re.compile(r"^chunk-[0-9a-f]{16}\.json$")


def cache_folder(base: Path | None = None) -> Path:
    return (base if base is not None else index_base_dir()) / FOLDER


def cached_vectors(folder: Path, model_sha256: str) -> dict[str, object]:
    """fingerprint -> vector, from every intact chunk in `folder` made with this model; {} when there is
    no such folder or it cannot be used."""
    import io

    import numpy as np

    try:
        names = sorted(n for n in os.listdir(folder) if _CHUNK_NAME.match(n))
    except OSError:
        return {}
    found: dict[str, object] = {}
    for name in names:
        try:
            keys = json.loads(bytes(read_trusted(folder / name, CHUNK_LIMIT)).decode("utf-8"))
            data = bytes(read_trusted(folder / name.replace(".json", ".npy"), CHUNK_LIMIT))
            if keys["model"] != model_sha256 or hashlib.sha256(data).hexdigest() != keys["sha256"]:
                continue
            matrix = np.load(io.BytesIO(data), allow_pickle=False)
            fingerprints = keys["fingerprints"]
            if matrix.shape != (len(fingerprints), DIMENSIONS) or not np.isfinite(matrix).all():
                continue
        except (OSError, Problem, ValueError, KeyError, TypeError):
            continue
        found.update(zip(fingerprints, matrix.astype(np.float32), strict=True))
    return found


def write_chunk(folder: Path, model_sha256: str, fingerprints: list[str], matrix) -> None:
    """One chunk, durable: the matrix, then the JSON that makes it count, each renamed into place whole."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, np.asarray(matrix, dtype=np.float32), allow_pickle=False)
    data = buffer.getvalue()
    name = "chunk-" + hashlib.sha256("\n".join(fingerprints).encode()).hexdigest()[:16]
    keys = {"model": model_sha256, "fingerprints": fingerprints, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}
    _replace_whole(folder / f"{name}.npy", data)
    _replace_whole(folder / f"{name}.json", json.dumps(keys).encode("utf-8"))
    sync_dir(folder)


def _replace_whole(path: Path, data: bytes) -> None:
    """`path` holds `data` whole or keeps what it held: written under a temporary name, then renamed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    write_synced(temporary, data)
    os.replace(temporary, path)


def encode_missing(texts: list[str], known: dict[str, object], encode: Callable[[list[str]], object],
                   folder: Path, model_sha256: str, fingerprint: Callable[[str], str],
                   progress: Callable[[int, int], None] | None = None) -> int:
    """Encode the texts whose fingerprint is not in `known` into chunks in `folder`; how many were encoded.

    IndexFailure when the folder cannot be made private, or another rootfaq is encoding into it; OSError
    when a chunk cannot be written (a full disk): the chunks before it are kept."""
    missing = [t for t in dict.fromkeys(texts) if fingerprint(t) not in known]
    if not missing:
        return 0
    try:
        check_location(folder)
    except Unusable as problem:
        raise IndexFailure(f"cannot keep record vectors at {folder} ({problem})",
                           "set ROOTFAQ_INDEX_DIR to a folder of yours") from None
    with builder_lock(folder, wait=0) as locked:
        if not locked:
            raise IndexFailure(f"another rootfaq is encoding record vectors at {folder}",
                               "wait for it to finish, then run `rootfaq index` again")
        _write_progress(folder, 0, len(missing))
        for start in range(0, len(missing), CHUNK_TEXTS):
            chunk = missing[start : start + CHUNK_TEXTS]
            write_chunk(folder, model_sha256, [fingerprint(t) for t in chunk], encode(chunk))
            done = min(start + CHUNK_TEXTS, len(missing))
            _write_progress(folder, done, len(missing))
            if progress is not None:
                progress(done, len(missing))
    return len(missing)


def _write_progress(folder: Path, done: int, total: int) -> None:
    _replace_whole(folder / PROGRESS, json.dumps({"done": done, "total": total, "pid": os.getpid()}).encode("utf-8"))


def encoding_now(folder: Path) -> tuple[int, int] | None:
    """(texts done, texts in all) when another process is encoding into `folder` now; None when none is."""
    if not folder.is_dir():
        return None
    try:
        with builder_lock(folder, wait=0) as free:
            if free:
                return None
    except Unusable:
        return None
    try:
        data = json.loads(bytes(read_trusted(folder / PROGRESS, 4096)).decode("utf-8"))
        return int(data["done"]), int(data["total"])
    except (OSError, Problem, ValueError, KeyError, TypeError):
        return 0, 0
