"""The search index: the only module that touches whoosh.

Where it lives (`index_base_dir()`: `index/` in a checkout, the user cache when installed):

    CURRENT            the name of the live index folder, replaced in one step by a rebuild
    ix-XXXXXXXX/       a finished index: whoosh's files, records.json, query-model.json, manifest.json
    .build-XXXXXXXX/   a build in progress, or what a killed one left (removed on a later start)

Whoosh keeps pickles in its files (the schema and segment list in the TOC, the compound directory,
stored fields), and unpickling runs code. So nothing is read from a location another user could have
written: the folder, its parents and every file must belong to this user (or root) and not be
writable by others, as ssh and git require. Then integrity: the manifest names the key the index was
built for (corpus hash, layout version, digest of the parsing and indexing code) and every file with
its size and sha256. Opening reads every file whole, checks it, and hands whoosh the checked bytes
(RamStorage) with the schema from this code, so an open index never reads the disk again and a
rebuild may remove the folder under a running reader. Any failure of the location ends in an index
built in memory for the run, with a notice naming the location and the reason.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import math
import os
import re
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..corpus.records import Record
from ..errors import IndexError_
from .dense import RecordVectors

SCHEMA_VERSION = 11  # the layout of an index folder (11: CURRENT, manifest with checksums and code digest)
MANIFEST = "manifest.json"
RECORDS = "records.json"
QUERY_MODEL = "query-model.json"
VECTORS = "vectors.npy"  # record vectors for the semantic retriever, one row each (rootfaq/dense.py)
VECTOR_ROWS = "vector-rows.json"  # per row: record id, kind, fingerprint
ENGLISH_WORDS = "english-words.txt"  # one word a line: typo fixing leaves these alone (rootfaq/wordlist.py)
WHOOSH_NAME = "MAIN"  # whoosh's index name: its files are _MAIN_<n>.toc and MAIN_<segment>.seg
CURRENT = "CURRENT"
BUILDING = ".build-"
FINISHED = "ix-"
POINTER_TEMP = ".CURRENT-"
MAP_AT_BYTES = 256 * 1024  # files this large are mapped, not read (_read_trusted)
OPEN_ATTEMPTS = 5  # reads of CURRENT when rebuilds keep swapping it
LOCK_WAIT_SECONDS = 120.0  # how long a process waits for another one's build before building in memory

_FINISHED_NAME = re.compile(r"^ix-[A-Za-z0-9_]+$")
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_OLD_LAYOUT = re.compile(r"^[0-9a-f]{16}-s\d+$")  # folders of rootfaq before CURRENT (schema 10 and older)


@dataclass
class IndexContent:
    """Everything a build writes, computed from the corpus by the caller of `open_or_build`."""

    records: list[Record]
    query_model: dict
    vectors: RecordVectors
    english_words: list[str]


# Field boosts for BM25F: a match in a question or heading says more than one in a long answer.
FIELD_BOOSTS = {"question": 1.0, "title": 1.0, "phrasings": 0.65, "text": 1.0, "names": 1.4, "cited_by": 1.0}
FACTION_FIELD_BOOST = 0.6
BM25_K1 = 2.0
BM25_B = 0.75


@dataclass
class Hit:
    id: str
    score: float


@dataclass
class OpenIndex:
    """An opened index: the whoosh index, the records and the query model stored beside it."""

    path: Path | None
    records: dict[str, Record]
    query_model: dict
    manifest: dict
    notices: list[str] = field(default_factory=list)
    _ix: object = None
    _searcher: object = None
    _ids: list[str] | None = None
    _averages: dict[str, float] = field(default_factory=dict)
    _postings: dict[tuple[str, str], list[tuple[int, int, float]]] = field(default_factory=dict)
    _derived: dict[str, object] = field(default_factory=dict)
    _files: dict[str, bytes] = field(default_factory=dict)  # every file of the index, checked (load_index)
    build_seconds: float | None = None  # set when this run built the index
    _rebuild: object = None  # () -> OpenIndex, for repairing()

    def derived(self, key: str, make):
        """A structure search derives from this index once per process (query model, vector layout)."""
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]

    def english_words(self) -> frozenset[str]:
        """The English word list stored with the index (decoded on first use; empty if unreadable)."""
        if "english words" not in self._derived:
            try:
                words = frozenset(_text(self._files[ENGLISH_WORDS]).split())
            except (KeyError, UnicodeDecodeError):
                words = frozenset()
            self._derived["english words"] = words
        return self._derived["english words"]

    @property
    def vectors(self) -> RecordVectors:
        """The record vectors stored with the index (decoded on first use: only `ask` needs them)."""
        if "vectors" not in self._derived:
            self._derived["vectors"] = _decode_vectors(self._files)
        return self._derived["vectors"]

    def repairing(self, call):
        """`call()`; when whoosh fails inside it, rebuild the index once and call again, then a clean error.

        Damage the checksums cannot see (bytes that were wrong before they were hashed) shows only
        while searching; the rebuilt index replaces this one in place, so callers keep their object.
        """
        try:
            return call()
        except Exception as exc:
            if self._rebuild is None or not _raised_in_whoosh(exc):
                raise
            failure = exc
        fresh = self._rebuild()
        for item in fields(self):
            setattr(self, item.name, getattr(fresh, item.name))
        self.notices.append(f"searching the index failed ({_error_name(failure)}); rebuilt it")
        try:
            return call()
        except Exception as exc:
            if not _raised_in_whoosh(exc):
                raise
            raise IndexError_(f"searching the index failed even after a rebuild ({_error_name(exc)}: {exc})",
                              "run `rootfaq index --rebuild`; if this comes back, report it with --debug output"
                              ) from None

    def searcher(self):
        if self._searcher is None:
            self._searcher = self._ix.searcher()
        return self._searcher

    def docnum_ids(self) -> list[str]:
        """Record id by whoosh document number."""
        if self._ids is None:
            reader = self.searcher().reader()
            self._ids = [""] * reader.doc_count_all()
            for docnum, stored in reader.iter_docs():
                self._ids[docnum] = stored["id"]
        return self._ids

    def postings(self, field_name: str, token: str) -> list[tuple[int, int, float]]:
        """(docnum, frequency, BM25 length norm) for a term, decoded once per process."""
        key = (field_name, token)
        cached = self._postings.get(key)
        if cached is None:
            reader = self.searcher().reader()
            average = self.average_length(field_name)
            cached = [
                (docnum, frequency, 1 - BM25_B + BM25_B * reader.doc_field_length(docnum, field_name, 1) / average)
                for docnum, frequency in self.searcher().postings(field_name, token).items_as("frequency")
            ]
            self._postings[key] = cached
        return cached

    def average_length(self, field_name: str) -> float:
        """Mean length of a field over the documents (for BM25 length normalisation)."""
        if field_name not in self._averages:
            reader = self.searcher().reader()
            self._averages[field_name] = (reader.field_length(field_name) / (reader.doc_count_all() or 1)) or 1.0
        return self._averages[field_name]

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None


def _raised_in_whoosh(exc: BaseException) -> bool:
    """Whether the traceback passes through whoosh (a damaged index), not only through rootfaq's code."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__", "").split(".")[0] == "whoosh":
            return True
        tb = tb.tb_next
    return False


def _error_name(exc: BaseException) -> str:
    """'zlib.error', 'KeyError': a name that says where an error comes from."""
    kind = type(exc)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def _schema():
    from whoosh.analysis import StemmingAnalyzer
    from whoosh.fields import ID, KEYWORD, TEXT, Schema

    analyzer = StemmingAnalyzer(stoplist=None, minsize=1)
    return Schema(
        id=ID(stored=True, unique=True),
        source=ID(),
        grade=ID(),
        official=ID(),
        factions=KEYWORD(lowercase=True, commas=False),
        question=TEXT(analyzer=analyzer),
        title=TEXT(analyzer=analyzer),  # a rule's printed titles: named abilities are searched by name
        phrasings=TEXT(analyzer=analyzer),  # a rule's curated player phrasings
        names=TEXT(analyzer=analyzer),
        text=TEXT(analyzer=analyzer),
        # The questions of the FAQ rulings that cite a rule: players' words for what the rule covers.
        cited_by=TEXT(analyzer=analyzer),
    )


def analyze(text: str) -> list[str]:
    """The index's own analysis (lower case, Porter stems) of a piece of query text."""
    from whoosh.analysis import StemmingAnalyzer

    global _ANALYZER
    if _ANALYZER is None:
        _ANALYZER = StemmingAnalyzer(stoplist=None, minsize=1)
    return [t.text for t in _ANALYZER(text)]


_ANALYZER = None


def index_base_dir() -> Path:
    """Where indexes live: $ROOTFAQ_INDEX_DIR, else `index/` in a checkout, else the user cache."""
    override = os.environ.get("ROOTFAQ_INDEX_DIR")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "index").is_dir():
        return checkout / "index"
    import platformdirs

    return Path(platformdirs.user_cache_dir("rootfaq", appauthor=False))


# --- what an index is built from ----------------------------------------------------------------------------

# The modules whose code decides what an index holds: the parsers, this module, the record vectors
# (dense.py, encoder.py) and search.py, where build_vectors lives (a test checks the list against a real
# build). Their source is hashed into the index key, so a parser fix makes every index built before it
# stale, with no version number to remember to bump.
BUILD_SOURCES = ("__init__.py", "corpus/build.py", "corpus/files.py", "corpus/curated.py", "search/dense.py",
                 "search/encoder.py", "errors.py", "corpus/faq.py", "search/index.py", "corpus/law.py",
                 "corpus/outsiders.py", "corpus/records.py", "corpus/refs.py", "search/answers.py", "corpus/terms.py",
                 "corpus/wordlist.py")

_CODE_DIGEST: str | None = None
PACKAGE = Path(__file__).resolve().parents[1]  # rootfaq/


def code_digest(folder: Path | None = None) -> str:
    """sha256 over the source of BUILD_SOURCES (under a millisecond: sixteen small files)."""
    global _CODE_DIGEST
    if folder is None and _CODE_DIGEST is not None:
        return _CODE_DIGEST
    digest = hashlib.sha256()
    for name in BUILD_SOURCES:
        digest.update(name.encode() + b"\0")
        try:
            digest.update(((folder or PACKAGE) / name).read_bytes())
        except OSError:  # no source beside the bytecode: the version alone must tell builds apart
            from .. import __version__

            digest.update(f"unreadable {__version__}".encode())
    if folder is not None:
        return digest.hexdigest()
    _CODE_DIGEST = digest.hexdigest()
    return _CODE_DIGEST


def index_key(corpus_hash: str) -> dict:
    """What an index must have been built from to be current: the corpus, the layout, the code."""
    return {"schema": SCHEMA_VERSION, "corpus_hash": corpus_hash, "code": code_digest()}


def build_files(content: IndexContent) -> dict[str, bytes]:
    """Every file of an index, by name, built in memory.

    The one place that decides what an index holds: a file added here is written, listed in the
    manifest with its checksum, verified and loaded like the others, on disk and in memory alike.
    """
    import io

    import numpy as np
    from whoosh.filedb.filestore import RamStorage

    storage = RamStorage()
    _write_documents(storage.create_index(_schema(), indexname=WHOOSH_NAME), content.records)
    files = {name: bytes(data) for name, data in storage.files.items()}
    files[RECORDS] = json.dumps([r.to_dict() for r in content.records], ensure_ascii=False).encode("utf-8")
    files[QUERY_MODEL] = json.dumps(content.query_model, ensure_ascii=False).encode("utf-8")
    vectors = content.vectors
    matrix = io.BytesIO()
    np.save(matrix, vectors.matrix.astype(np.float32), allow_pickle=False)
    files[VECTORS] = matrix.getvalue()
    rows = {"record_ids": vectors.record_ids, "kinds": vectors.kinds, "fingerprints": vectors.fingerprints}
    files[VECTOR_ROWS] = json.dumps(rows).encode("utf-8")
    files[ENGLISH_WORDS] = ("\n".join(content.english_words) + "\n").encode("utf-8")
    return files


def _write_documents(ix, records: list[Record]) -> None:
    """One document per answer; flagged records stay in records.json but are never found as answers."""
    cited_by: dict[str, list[str]] = {}
    for record in records:
        if record.source == "faq" and record.is_answer:
            for ref in record.xrefs:
                cited_by.setdefault(ref, []).extend(record_headings(record))
    writer = ix.writer()
    for record in records:
        if record.is_answer:
            borrowed = cited_by.get(record.section or "", []) if record.source != "faq" else []
            writer.add_document(**_document(record), cited_by=" \n".join(borrowed))
    writer.commit()


def _document(record: Record) -> dict:
    return {
        "id": record.id,
        "source": record.source,
        "grade": record.grade,
        "official": "yes" if record.official else "no",
        "factions": " ".join(record.factions),
        "question": " \n".join(record_headings(record)) if record.source == "faq" else "",
        "title": " \n".join(filter(None, [record.section_title, *record.alt_titles])) if record.source != "faq" else "",
        "phrasings": " \n".join(record.phrasings) if record.source != "faq" else "",
        "names": " ".join(filter(None, [record.section, record.part, " ".join(record.factions)])),
        "text": record.text,
    }


def record_headings(record: Record) -> list[str]:
    """What a record answers, as short lines: an FAQ entry's questions, a rule's title."""
    if record.source == "faq":
        return [h for h in [record.title, *record.phrasings] if h]
    return [h for h in [record.section_title, *record.alt_titles, *record.phrasings] if h]


def make_manifest(key: dict, files: dict[str, bytes], records: int) -> dict:
    """The key the index was built for and every file's size and sha256."""
    from .. import __version__

    listed = [{"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
              for name, data in sorted(files.items())]
    return {**key, "rootfaq": __version__, "records": records, "files": listed}


def write_index(path: Path, files: dict[str, bytes], manifest: dict) -> None:
    """Write a finished index into an empty directory: every file, then the manifest, each synced to disk."""
    for name, data in files.items():
        _write_synced(path / name, data)
    _write_synced(path / MANIFEST, json.dumps(manifest, indent=1).encode("utf-8"))
    _sync_dir(path)


def _is_whoosh_file(name: str) -> bool:
    return name.startswith((f"_{WHOOSH_NAME}_", f"{WHOOSH_NAME}_"))


def load_index(files: dict[str, bytes], manifest: dict, path: Path | None, notices: list[str]) -> OpenIndex:
    """An OpenIndex over checked bytes: whoosh reads them from memory, with the schema from this code.

    Whoosh's files still hold pickles (the segment list, the compound directory, stored fields); they are
    unpickled only from bytes this user's own build wrote, checked against the manifest.
    """
    from whoosh.filedb.filestore import RamStorage
    from whoosh.index import FileIndex

    try:
        records = {d["id"]: Record.from_dict(d) for d in json.loads(_text(files[RECORDS]))}
        query_model = json.loads(_text(files[QUERY_MODEL]))
        storage = RamStorage()
        storage.files = {name: data for name, data in files.items() if _is_whoosh_file(name)}
        ix = FileIndex(storage, schema=_schema(), indexname=WHOOSH_NAME)
        if ix.doc_count() != sum(1 for r in records.values() if r.is_answer):
            raise _Damaged("its document count does not match its records")
    except _Damaged:
        raise
    except Exception as exc:  # whoosh and json raise many kinds on damaged bytes
        raise _Damaged(f"{type(exc).__name__}: {exc}".strip()) from None
    return OpenIndex(path, records, query_model, manifest, notices, _ix=ix, _files=files)


def _text(data) -> str:
    """UTF-8 text of file bytes, read or mapped."""
    return bytes(data).decode("utf-8")


def _decode_vectors(files: dict[str, bytes]) -> RecordVectors:
    """The record vectors: plain arrays and JSON, never pickles; their shapes must agree."""
    try:
        rows = json.loads(_text(files[VECTOR_ROWS]))
        matrix = _npy_array(files[VECTORS])
        vectors = RecordVectors(matrix, rows["record_ids"], rows["kinds"], rows["fingerprints"])
        if matrix.ndim != 2 or not len(vectors.record_ids) == len(vectors.kinds) == len(matrix):
            raise ValueError("rows and vectors disagree")
    except (KeyError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise IndexError_(f"its record vectors are damaged ({exc})") from None
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
        _check_location(base)
        if not rebuild:
            opened, why = _open_current(base, key)
            if opened is not None:
                _tidy(base)
                return _repairable(opened, corpus_hash, load_corpus, base)
        with _builder_lock(base) as locked:
            if not locked:
                raise _Unusable("another rootfaq process has been building an index there for too long")
            if not rebuild:  # another process may have built it while this one waited for the lock
                opened, _ = _open_current(base, key)
                if opened is not None:
                    return _repairable(opened, corpus_hash, load_corpus, base)
            _tidy(base, locked=True)
            label = "rebuilding" if rebuild else "replacing the old one" if why else "first run"
            opened = _build(key, load_corpus, progress, label, base)
            if why and opened.path is not None:
                opened.notices.insert(0, f"{why}; rebuilt it")
    except _Unusable as problem:
        opened = _build(key, load_corpus, progress, "in memory", None)
        opened.notices.append(f"cannot use the index at {base} ({problem.reason}); "
                              "using one built in memory for this run")
    return _repairable(opened, corpus_hash, load_corpus, base)


def _repairable(opened: OpenIndex, corpus_hash: str, load_corpus, base: Path) -> OpenIndex:
    opened._rebuild = lambda: open_or_build(corpus_hash, load_corpus, base, rebuild=True)
    return opened


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
                notices.append(f"cannot write the index at {base} ({_reason(exc)}); "
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
    previous = _read_current(base)
    temp = Path(tempfile.mkdtemp(prefix=BUILDING, dir=base))
    final = base / (FINISHED + temp.name[len(BUILDING):])
    try:
        write_index(temp, files, manifest)
        os.rename(temp, final)
        _write_current(base, final.name)
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
        name = _read_current(base)
        if name is None:
            return None, None
        try:
            files, manifest = _read_index(base / name, key)
            return load_index(files, manifest, base / name, []), None
        except FileNotFoundError:
            if _read_current(base) != name:
                continue  # swapped by a rebuild while this process read it: read the new one
            return None, f"the index was damaged (files of {name} are missing)"
        except _Stale as stale:
            return None, f"{stale.reason} since the index was built"
        except _Damaged as damage:
            return None, f"the index was damaged ({damage.reason})"
        except _Unsafe as unsafe:
            return None, f"the index was not safe to read ({unsafe.reason})"
        except OSError as exc:
            raise _Unusable(_reason(exc)) from None
    return None, f"the index kept changing while it was read ({name})"


def _read_index(path: Path, key: dict) -> tuple[dict[str, bytes], dict]:
    """Every file of an index directory, read whole and checked against the manifest."""
    folder = os.lstat(path)
    if not stat.S_ISDIR(folder.st_mode):
        raise _Damaged(f"{path.name} is not a folder")
    _check_owner(folder, path.name, _Unsafe)
    try:
        manifest = json.loads(_read_trusted(path / MANIFEST).decode("utf-8"))
        listed = {entry["name"]: entry for entry in manifest["files"]}
    except (ValueError, KeyError, TypeError):
        raise _Damaged(f"{MANIFEST} is unreadable") from None
    if manifest.get("corpus_hash") != key["corpus_hash"]:
        raise _Stale("the corpus changed")
    if manifest.get("schema") != key["schema"] or manifest.get("code") != key["code"]:
        raise _Stale("rootfaq's parsing or indexing code changed")
    if not {RECORDS, QUERY_MODEL} <= set(listed) or not all(_FILE_NAME.match(n) and n != MANIFEST for n in listed):
        raise _Damaged(f"{MANIFEST} does not list the index's files")
    files = {}
    for name, entry in listed.items():
        try:
            data = _read_trusted(path / name)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise _Damaged(f"{name} is a symbolic link") from None
        if len(data) != entry.get("size") or hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise _Damaged(f"{name} does not match its checksum")
        files[name] = data
    return files, manifest


# --- the location: trust, the CURRENT pointer, leftovers, the builders' lock --------------------------------


class _Problem(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _Unusable(_Problem):
    """The location cannot hold an index for this user (not a folder, not trusted, not readable)."""


class _Stale(_Problem):
    """The index was built from another corpus or by other code."""


class _Damaged(_Problem):
    """The index's files are missing, changed or unreadable."""


class _Unsafe(_Problem):
    """Files inside a trusted location that another user could have written."""


def _check_location(base: Path) -> None:
    """The index folder exists (created private when missing) and no other user can write it or its parents.

    As ssh does for ~/.ssh: the folder must belong to this user (or root) and not be writable by group
    or others; each parent must belong to this user or root, and be writable by others only when sticky
    (/tmp). A group of this user's own (Debian's user private groups, umask 002) counts as private.
    """
    try:
        if os.path.lexists(base) and not os.path.exists(base):
            raise _Unusable("it is a broken symbolic link")
        try:
            base.mkdir(parents=True, mode=0o700)
        except FileExistsError:
            pass
        if not stat.S_ISDIR(os.stat(base).st_mode):
            raise _Unusable("it is not a folder")
        if not hasattr(os, "geteuid"):
            return  # no POSIX owners (Windows): the user's profile folder is private already
        real = Path(os.path.realpath(base))
        _check_owner(os.stat(real), "it", _Unusable)
        for parent in real.parents:
            info = os.stat(parent)
            if info.st_uid not in (os.geteuid(), 0):
                raise _Unusable(f"{parent} belongs to another user (uid {info.st_uid})")
            if _writable_by_others(info) and not info.st_mode & stat.S_ISVTX:
                raise _Unusable(f"{parent} is writable by other users")
    except OSError as exc:
        raise _Unusable(_reason(exc)) from None


def _check_owner(info: os.stat_result, what: str, problem: type[_Problem]) -> None:
    if not hasattr(os, "geteuid"):
        return
    if info.st_uid not in (os.geteuid(), 0):
        raise problem(f"{what} belongs to another user (uid {info.st_uid})")
    if _writable_by_others(info):
        raise problem(f"{what} is writable by other users (mode {stat.S_IMODE(info.st_mode):o})")


def _writable_by_others(info: os.stat_result) -> bool:
    return bool(info.st_mode & stat.S_IWOTH) or bool(info.st_mode & stat.S_IWGRP and not _own_group(info.st_gid))


@functools.lru_cache(maxsize=8)
def _own_group(gid: int) -> bool:
    """A user private group: this user's primary group, named after the user, with nobody else in it."""
    try:
        import grp
        import pwd

        user = pwd.getpwuid(os.geteuid())
        group = grp.getgrgid(gid)
    except (ImportError, KeyError):
        return False
    return gid == user.pw_gid and group.gr_name == user.pw_name and set(group.gr_mem) <= {user.pw_name}


def _read_trusted(path: Path):
    """A regular file's bytes, after checking (on the open file) that no other user could have written it.

    A large file is mapped rather than read: copying six megabytes into fresh memory costs a cold start
    about 5 ms, mapping them 0.2 ms. The mapping stays valid when a rebuild removes the file.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Damaged(f"{path.name} is not a regular file")
        _check_owner(info, path.name, _Unsafe)
        if info.st_size >= MAP_AT_BYTES:
            import mmap

            return mmap.mmap(fd, info.st_size, access=mmap.ACCESS_READ)
        return handle.read()


def _read_current(base: Path) -> str | None:
    """The live index directory's name, from CURRENT; None when there is none."""
    try:
        name = _read_trusted(base / CURRENT).decode("utf-8", "replace").strip()
    except FileNotFoundError:
        return None
    except _Problem:
        return None  # a CURRENT this process cannot trust is as good as none: a build replaces it
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None
        raise _Unusable(_reason(exc)) from None
    return name if _FINISHED_NAME.match(name) else None


def _write_current(base: Path, name: str) -> None:
    temp = base / f"{POINTER_TEMP}{os.getpid()}"
    try:
        _write_synced(temp, (name + "\n").encode(), replace=True)
        os.replace(temp, base / CURRENT)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_dir(base)


def _tidy(base: Path, locked: bool = False) -> None:
    """Remove what killed or superseded builds left: never while another process is building."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    live = _read_current_quietly(base)
    leftovers = [n for n in names if (n.startswith((BUILDING, POINTER_TEMP)) or _OLD_LAYOUT.match(n)
                                      or (_FINISHED_NAME.match(n) and n != live))]
    if not leftovers:
        return
    with contextlib.ExitStack() as stack:
        if not locked and not stack.enter_context(_builder_lock(base, wait=0)):
            return  # a build is running: its folder is not a leftover
        live = _read_current_quietly(base)  # read again under the lock
        for name in leftovers:
            if name == live:
                continue
            path = base / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()


def _read_current_quietly(base: Path) -> str | None:
    try:
        return _read_current(base)
    except _Unusable:
        return None


@contextlib.contextmanager
def _builder_lock(base: Path, wait: float = LOCK_WAIT_SECONDS):
    """One builder per location at a time: flock on the folder, released by the system if a builder dies.

    Yields False when another process held it for longer than `wait` seconds.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): builds still never overwrite each other's folders
        yield True
        return
    try:
        fd = os.open(base, os.O_RDONLY)
    except OSError as exc:
        raise _Unusable(_reason(exc)) from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.02)
            except OSError:  # a file system without locks: build without one
                break
        yield True
    finally:
        os.close(fd)


# --- small file helpers -------------------------------------------------------------------------------------


def _write_synced(path: Path, data: bytes, replace: bool = False) -> None:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if replace else os.O_EXCL) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(fd)


def _sync_dir(path: Path) -> None:
    """Make a rename or a new file in `path` durable (where the system allows syncing a directory)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    """'no space left on device', 'permission denied', 'read-only file system', ..."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[0].lower() + text[1:]


def _step(progress, text: str, last: bool = False) -> None:
    if progress is not None:
        progress(text, last)


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
    searcher = index.searcher()
    reader = searcher.reader()
    ids = index.docnum_ids()
    total = reader.doc_count_all() or 1
    scores: dict[int, float] = {}
    per_token: dict[str, float] = {}
    for word, weight in words:
        for token in analyze(word):
            per_token[token] = max(per_token.get(token, 0.0), weight)
    for token, weight in per_token.items():
        blended: dict[int, float] = {}
        for field_name, boost in FIELD_BOOSTS.items():
            if not reader.doc_frequency(field_name, token):
                continue
            for docnum, frequency, norm in index.postings(field_name, token):
                blended[docnum] = blended.get(docnum, 0.0) + boost * frequency / norm
        idf = math.log(1 + (total - len(blended) + 0.5) / (len(blended) + 0.5))
        for docnum, tf in blended.items():
            scores[docnum] = scores.get(docnum, 0.0) + weight * idf * tf / (BM25_K1 + tf)
    for key in faction_boosts:
        if reader.doc_frequency("factions", key):
            for docnum in searcher.postings("factions", key).all_ids():
                scores[docnum] = scores.get(docnum, 0.0) + FACTION_FIELD_BOOST
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    hits = []
    for docnum, score in ranked:
        record_id = ids[docnum]
        if allowed is None or record_id in allowed:
            hits.append(Hit(record_id, score))
            if len(hits) == limit:
                break
    return hits


def allowed_ids(
    index: OpenIndex, sources: list[str] | None, factions: list[str] | None, official: bool
) -> set[str]:
    """The ids a filter admits (for hits that do not come from BM25, such as section look-ups)."""
    keep = set()
    for record in index.records.values():
        if sources and record.source not in sources:
            continue
        if factions and not set(factions) & set(record.factions):
            continue
        if official and not record.official:
            continue
        keep.add(record.id)
    return keep
