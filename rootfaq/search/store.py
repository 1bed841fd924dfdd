"""An index on disk: what a build writes, the manifest that checks it, opening and building.

A finished index folder holds whoosh's files (rootfaq/search/index.py), records.json, query-model.json,
the record vectors (rootfaq/search/dense.py), the English word list and manifest.json. The manifest names
the key the index was built for (corpus hash, layout version, digest of the code that builds) and every
file with its size and sha256. Opening reads every file whole, checks it, and hands whoosh and numpy the
checked bytes, so an open index never reads the disk again and a rebuild may remove the folder under a
running reader. Any failure of the location ends in an index built in memory for the run, with a notice
naming the location and the reason (rootfaq/search/location.py decides what a location may be trusted with).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..corpus.files import corpus_hash, read_corpus_files
from ..corpus.library import CorpusInfo, Library
from ..corpus.query_model import QueryModel
from ..corpus.records import Record
from .dense import RecordVectors, vector_files
from .index import ENGLISH_WORDS, OpenIndex, documents, open_whoosh, whoosh_files
from .location import (
    BUILDING,
    FINISHED,
    MANIFEST_LIMIT,
    Damaged,
    Stale,
    Unsafe,
    Unusable,
    builder_lock,
    check_location,
    check_owner,
    index_base_dir,
    read_current,
    read_trusted,
    read_trusted_text,
    reason_of,
    sync_dir,
    tidy,
    write_current,
    write_synced,
)
from .shipped import shipped_digest

if TYPE_CHECKING:  # parsing is needed only to build: the corpus builder is imported then
    from ..corpus.build import Corpus

SCHEMA_VERSION = 12  # the layout of an index folder (11: CURRENT, manifest with checksums; 12: corpus-info.json)
MANIFEST = "manifest.json"
RECORDS = "records.json"
QUERY_MODEL = "query-model.json"
CORPUS_INFO = "corpus-info.json"
OPEN_ATTEMPTS = 5  # reads of CURRENT when rebuilds keep swapping it
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@dataclass
class IndexContent:
    """Everything a build writes, computed from the corpus by the caller of `open_or_build`."""

    records: list[Record]
    query_model: QueryModel
    info: CorpusInfo
    vectors: RecordVectors
    english_words: list[str]


def index_content(corpus: Corpus, vectors: RecordVectors) -> IndexContent:
    """What an index is built from: a parsed corpus and its record vectors."""
    from ..corpus.build import corpus_info, query_model
    from ..corpus.wordlist import english_words

    return IndexContent(corpus.records, query_model(corpus), corpus_info(corpus), vectors, english_words())


# --- what an index is built from ----------------------------------------------------------------------------

# The modules whose code decides what an index holds: every module a build imports (the parsers, the
# curated data, the query model, the whoosh documents, the record vectors, this module and the location's).
# A test checks the list against a real build, both ways. Their source is hashed into the index key, so a
# parser fix makes every index built before it stale, with no version number to remember to bump; ranking
# and query understanding are not in it (they read an index, they do not build one).
BUILD_SOURCES = (
    "__init__.py", "errors.py",
    "corpus/__init__.py", "corpus/build.py", "corpus/curated.py", "corpus/faq.py", "corpus/files.py",
    "corpus/grades.py", "corpus/law.py", "corpus/library.py", "corpus/outsiders.py", "corpus/query_model.py",
    "corpus/records.py", "corpus/refs.py", "corpus/tables.py", "corpus/terms.py", "corpus/wordlist.py",
    "search/__init__.py", "search/dense.py", "search/encoder.py", "search/index.py", "search/location.py",
    "search/shipped.py", "search/store.py", "search/vector_cache.py",
)

PACKAGE = Path(__file__).resolve().parents[1]  # rootfaq/


@functools.cache
def code_digest() -> str:
    """sha256 over the source of BUILD_SOURCES of this package, once per process."""
    return source_digest(PACKAGE)


def source_digest(folder: Path) -> str:
    """sha256 over the source of BUILD_SOURCES in a package folder (under a millisecond: a score of small
    files)."""
    digest = hashlib.sha256()
    for name in BUILD_SOURCES:
        digest.update(name.encode() + b"\0")
        try:
            digest.update((folder / name).read_bytes())
        except OSError:  # no source beside the bytecode: the version alone must tell builds apart
            from .. import __version__

            digest.update(f"unreadable {__version__}".encode())
    return digest.hexdigest()


def index_key(corpus_hash: str) -> dict:
    """What an index must have been built from to be current: the corpus, the layout, the code."""
    return {"schema": SCHEMA_VERSION, "corpus_hash": corpus_hash, "code": code_digest(), "shipped": shipped_digest()}


def build_files(content: IndexContent) -> dict[str, bytes]:
    """Every file of an index, by name, built in memory.

    The one place that decides what an index holds: a file added here is written, listed in the
    manifest with its checksum, verified and loaded like the others, on disk and in memory alike.
    """
    files = whoosh_files(content.records)
    files[RECORDS] = json.dumps([r.to_dict() for r in content.records], ensure_ascii=False).encode("utf-8")
    files[QUERY_MODEL] = json.dumps(content.query_model.to_json(), ensure_ascii=False).encode("utf-8")
    files[CORPUS_INFO] = json.dumps(content.info.to_json(), ensure_ascii=False).encode("utf-8")
    files.update(vector_files(content.vectors))
    files[ENGLISH_WORDS] = ("\n".join(content.english_words) + "\n").encode("utf-8")
    return files


def make_manifest(key: dict, files: dict[str, bytes], records: int) -> dict:
    """The key the index was built for and every file's size and sha256."""
    from .. import __version__

    listed = [{"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
              for name, data in sorted(files.items())]
    return {**key, "rootfaq": __version__, "records": records, "files": listed}


def write_index(path: Path, files: dict[str, bytes], manifest: dict) -> None:
    """Write a finished index into an empty directory: every file, then the manifest, each synced to disk."""
    for name, data in files.items():
        write_synced(path / name, data)
    write_synced(path / MANIFEST, json.dumps(manifest, indent=1).encode("utf-8"))
    sync_dir(path)


def load_index(files: dict[str, bytes], manifest: dict, path: Path | None, notices: list[str]) -> OpenIndex:
    """An OpenIndex over checked bytes: whoosh reads them from memory, with the schema from this code."""
    try:
        records = {d["id"]: Record.from_dict(d) for d in json.loads(_text(files[RECORDS]))}
        query_model = QueryModel.from_json(json.loads(_text(files[QUERY_MODEL])))
        info = CorpusInfo.from_json(json.loads(_text(files[CORPUS_INFO])))
        ix = open_whoosh(files)
        if ix.doc_count() != len(documents(records.values())):
            raise Damaged("its document count does not match its records")
    except Damaged:
        raise
    except Exception as exc:  # whoosh and json raise many kinds on damaged bytes
        raise Damaged(f"{type(exc).__name__}: {exc}".strip()) from None
    return OpenIndex(path, Library(records, query_model, info), manifest, notices, _ix=ix, _files=files)


def _text(data) -> str:
    """UTF-8 text of file bytes, read or mapped."""
    return bytes(data).decode("utf-8")


# --- opening and building -----------------------------------------------------------------------------------


def open_or_build(
    corpus_hash: str,
    load_corpus,
    base: Path | None = None,
    rebuild: bool = False,
    progress=None,
) -> OpenIndex:
    """Open the index for this corpus, building it first when missing, stale, damaged or asked to.

    `load_corpus` is called only when a build is needed; it returns the IndexContent. `progress`, when
    given, hears the steps of a build (`progress(message, last=False)`; a terminal shows them on one line).
    Whatever goes wrong with the location ends in an index built in memory, with a notice naming the
    location and the reason. The returned index never reads the disk again.
    """
    base = base or index_base_dir()
    key = index_key(corpus_hash)
    why = None  # why an index that exists cannot be used: the notice after a rebuild
    try:
        check_location(base)
        if not rebuild:
            opened, why = _open_current(base, key)
            if opened is not None:
                tidy(base)
                return _repairable(opened, corpus_hash, load_corpus, base)
        with builder_lock(base) as locked:
            if not locked:
                raise Unusable("another rootfaq process has been building an index there for too long")
            if not rebuild:  # another process may have built it while this one waited for the lock
                opened, _ = _open_current(base, key)
                if opened is not None:
                    return _repairable(opened, corpus_hash, load_corpus, base)
            tidy(base, locked=True)
            label = "rebuilding" if rebuild else "replacing the old one" if why else "first run"
            opened = _build(key, load_corpus, progress, label, base)
            if why and opened.path is not None:
                opened.notices.insert(0, f"{why}; rebuilt it")
    except Unusable as problem:
        opened = _build(key, load_corpus, progress, "in memory", None)
        opened.notices.append(f"cannot use the index at {base} ({problem.reason}); "
                              "using one built in memory for this run")
    return _repairable(opened, corpus_hash, load_corpus, base)


def _repairable(opened: OpenIndex, corpus_hash: str, load_corpus, base: Path) -> OpenIndex:
    return replace(opened, rebuild=lambda: open_or_build(corpus_hash, load_corpus, base, rebuild=True))


def _build(key: dict, load_corpus, progress, reason: str, base: Path | None) -> OpenIndex:
    """Build the files in memory, then install them under `base` (None: keep them in memory only)."""
    started = time.perf_counter()
    title = f"building the search index ({reason})..."
    _step(progress, f"{title} reading the sources")
    notices: list[str] = []
    finished = False
    try:
        content = load_corpus()
        _step(progress, f"{title} indexing {len(content.records)} records")
        files = build_files(content)
        manifest = make_manifest(key, files, len(content.records))
        path = None
        if base is not None:
            _step(progress, f"{title} writing it")
            try:
                path = _install(base, files, manifest)
            except OSError as exc:
                notices.append(f"cannot write the index at {base} ({reason_of(exc)}); "
                               "using one built in memory for this run")
        opened = load_index(files, manifest, path, notices)
        opened.build_seconds = time.perf_counter() - started
        finished = True
    finally:
        outcome = f"done in {time.perf_counter() - started:.1f} s" if finished else "failed"
        _step(progress, f"{title} {outcome}", last=True)
    return opened


def _install(base: Path, files: dict[str, bytes], manifest: dict) -> Path:
    """Write a new index beside the live one, swap CURRENT to it in one step, then drop the old one.

    Readers that opened the old index keep answering from their copy in memory; a reader caught between
    reading CURRENT and reading the files finds them gone and reads CURRENT again.
    """
    previous = read_current(base)
    temp = Path(tempfile.mkdtemp(prefix=BUILDING, dir=base))
    final = base / (FINISHED + temp.name[len(BUILDING):])
    try:
        write_index(temp, files, manifest)
        os.rename(temp, final)
        write_current(base, final.name)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        shutil.rmtree(final, ignore_errors=True)
        raise
    if previous and previous != final.name:
        shutil.rmtree(base / previous, ignore_errors=True)
    return final


def _open_current(base: Path, key: dict) -> tuple[OpenIndex | None, str | None]:
    """(the live index, checked, None) or (None, why it must be built: None when there is none yet)."""
    name = None
    for _attempt in range(OPEN_ATTEMPTS):
        name = read_current(base)
        if name is None:
            return None, None
        try:
            files, manifest = _read_index(base / name, key)
            return load_index(files, manifest, base / name, []), None
        except FileNotFoundError:
            if read_current(base) != name:
                continue  # swapped by a rebuild while this process read it: read the new one
            return None, f"the index was damaged (files of {name} are missing)"
        except Stale as stale:
            return None, f"{stale.reason} since the index was built"
        except Damaged as damage:
            return None, f"the index was damaged ({damage.reason})"
        except Unsafe as unsafe:
            return None, f"the index was not safe to read ({unsafe.reason})"
        except OSError as exc:
            raise Unusable(reason_of(exc)) from None
    return None, f"the index kept changing while it was read ({name})"


def _read_index(path: Path, key: dict) -> tuple[dict[str, bytes], dict]:
    """Every file of an index directory, read whole and checked against the manifest."""
    folder = os.lstat(path)
    if not stat.S_ISDIR(folder.st_mode):
        raise Damaged(f"{path.name} is not a folder")
    check_owner(folder, path.name, Unsafe)
    try:
        manifest = json.loads(read_trusted_text(path / MANIFEST, MANIFEST_LIMIT))
        listed = {entry["name"]: entry for entry in manifest["files"]}
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise Damaged(f"{MANIFEST} is a symbolic link") from None
    except (ValueError, KeyError, TypeError):
        raise Damaged(f"{MANIFEST} is unreadable") from None
    if manifest.get("corpus_hash") != key["corpus_hash"]:
        raise Stale("the corpus changed")
    if manifest.get("schema") != key["schema"] or manifest.get("code") != key["code"]:
        raise Stale("rootfaq's parsing or indexing code changed")
    if manifest.get("shipped") != key["shipped"]:
        raise Stale("rootfaq's shipped vectors or weights changed")
    named_well = all(_FILE_NAME.match(n) and n != MANIFEST for n in listed)
    if not {RECORDS, QUERY_MODEL, CORPUS_INFO} <= set(listed) or not named_well:
        raise Damaged(f"{MANIFEST} does not list the index's files")
    files = {}
    for name, entry in listed.items():
        try:
            data = read_trusted(path / name)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise Damaged(f"{name} is a symbolic link") from None
        if len(data) != entry.get("size") or hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise Damaged(f"{name} does not match its checksum")
        files[name] = data
    return files, manifest


def _step(progress, text: str, last: bool = False) -> None:
    if progress is not None:
        progress(text, last)


def open_index(rebuild: bool = False, progress: Callable[..., None] | None = None) -> OpenIndex:
    """The index for the shipped corpus, built or rebuilt as needed. `progress` hears about slow steps."""
    texts = read_corpus_files()
    build_notices: list[str] = []

    def load() -> IndexContent:
        from ..corpus.build import build_corpus  # parsing is needed only to build
        from .dense import build_vectors

        corpus = build_corpus(texts)
        return index_content(corpus, build_vectors(corpus.records, build_notices, progress))

    index = open_or_build(corpus_hash(texts), load, rebuild=rebuild, progress=progress)
    index.notices.extend(build_notices)
    return index


def encode_vectors(progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Encode the record texts of the shipped corpus that have no vector (dense.encode_vectors): (texts
    encoded, texts in all). Stopped midway, the next run resumes; `open_index(rebuild=True)` then uses them."""
    from ..corpus.build import build_corpus
    from .dense import encode_vectors as encode

    return encode(build_corpus(read_corpus_files()).records, progress)
