"""The data shipped in rootfaq/model_data/ beside the model: checked against checksums.json before use.

The model and its vocabulary carry their sha256 in encoder.py. The files the scripts write (the record
vectors by scripts/encode_corpus.py, the fitted weights by scripts/fit.py) are listed with their sha256 in
checksums.json, which those scripts rewrite; a file that does not match is never used, and the digest of
the list is part of the index key, so an index built from other shipped data is rebuilt.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

from ..corpus.files import package_folder
from ..errors import RootfaqError

CHECKSUMS = "checksums.json"
CHECKED = ("record-vectors.npy", "record-vectors.json", "ranking.json")
SHIPPED_LIMIT = 64 * 1024 * 1024  # the largest, the record vectors, is 4 MB
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class ShippedDataDamaged(RootfaqError):
    """A shipped data file is missing, unreadable or not the one its checksum names."""


@functools.cache
def model_data() -> Path:
    """The folder of the shipped data and model (FileNotFoundError, an OSError, if it is not installed)."""
    return package_folder("rootfaq.model_data")


@functools.cache
def _checksums() -> dict[str, str]:
    try:
        listed = json.loads((model_data() / CHECKSUMS).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ShippedDataDamaged(f"{CHECKSUMS} cannot be read ({exc})", "reinstall rootfaq") from None
    if not isinstance(listed, dict) or set(listed) != set(CHECKED) or \
            not all(isinstance(v, str) and _SHA256.match(v) for v in listed.values()):
        raise ShippedDataDamaged(f"{CHECKSUMS} does not list {', '.join(CHECKED)}", "reinstall rootfaq")
    return listed


def read_shipped(name: str) -> bytes:
    """A shipped data file's bytes, after checking them against checksums.json."""
    expected = _checksums()[name]
    try:
        with (model_data() / name).open("rb") as handle:
            data = handle.read(SHIPPED_LIMIT + 1)
    except OSError as exc:
        raise ShippedDataDamaged(f"{name} cannot be read ({exc.strerror or exc})", "reinstall rootfaq") from None
    digest = hashlib.sha256(data).hexdigest()
    if len(data) > SHIPPED_LIMIT or digest != expected:
        raise ShippedDataDamaged(f"{name} is damaged (sha256 {digest[:12]}..., not the shipped {expected[:12]}...)",
                                 "reinstall rootfaq")
    return data


def shipped_digest() -> str:
    """One digest for all the checked shipped data (part of the index key); 'unchecked' when the list
    itself cannot be read (searching then says why, once)."""
    try:
        listed = _checksums()
    except ShippedDataDamaged:
        return "unchecked"
    return hashlib.sha256(json.dumps(listed, sort_keys=True).encode()).hexdigest()[:24]


def checksums_of(folder: Path) -> dict[str, str]:
    """What checksums.json should say for the files in `folder` (for the scripts that write them)."""
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in CHECKED}


def write_checksums(folder: Path) -> None:
    """Rewrite checksums.json in `folder` for the files there now (scripts/fit.py, scripts/encode_corpus.py)."""
    (folder / CHECKSUMS).write_text(json.dumps(checksums_of(folder), indent=1, sort_keys=True) + "\n", "utf-8")
