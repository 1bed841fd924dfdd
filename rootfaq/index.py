"""The search index on disk: the only module that touches whoosh.

An index lives in a directory named after the corpus hash and schema version, so a stale index is
simply one whose name no longer matches. Builds go to a temporary directory that is renamed into
place in one step: a crash or a second process never sees half an index, and when two processes
build at once the first rename wins and the other uses it.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .dense import RecordVectors
from .errors import IndexError_
from .records import Record

SCHEMA_VERSION = 10
MANIFEST = "manifest.json"
RECORDS = "records.json"
QUERY_MODEL = "query-model.json"
VECTORS = "vectors.npy"  # record vectors for the semantic retriever, one row each (rootfaq/dense.py)
VECTOR_ROWS = "vector-rows.json"  # per row: record id, kind, fingerprint
ENGLISH_WORDS = "english-words.txt"  # one word a line: typo fixing leaves these alone (rootfaq/wordlist.py)


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
    _vectors: RecordVectors | None = None
    _english: frozenset[str] | None = None
    _derived: dict[str, object] = field(default_factory=dict)

    def derived(self, key: str, make):
        """A structure search derives from this index once per process (query model, vector layout)."""
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]

    def english_words(self) -> frozenset[str]:
        """The English word list stored with the index (read on first use; empty if unreadable)."""
        if self._english is None:
            try:
                self._english = frozenset((self.path / ENGLISH_WORDS).read_text("utf-8").split()) if self.path else \
                    frozenset()
            except (OSError, UnicodeDecodeError):
                self._english = frozenset()
        return self._english

    @property
    def vectors(self) -> RecordVectors:
        """The record vectors stored with the index (read on first use: only `ask` needs them)."""
        if self._vectors is None:
            self._vectors = _read_vectors(self.path)
        return self._vectors

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
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "index").is_dir():
        return checkout / "index"
    import platformdirs

    return Path(platformdirs.user_cache_dir("rootfaq", appauthor=False))


def index_dir_name(corpus_hash: str) -> str:
    return f"{corpus_hash[:16]}-s{SCHEMA_VERSION}"


_INDEX_DIR_NAME = re.compile(r"^[0-9a-f]{16}-s\d+$")


def _built_indexes(base: Path) -> list[Path]:
    """Finished index directories (never another process's `.build-*` in progress)."""
    return [p for p in base.iterdir() if _INDEX_DIR_NAME.match(p.name) and p.is_dir()]


def _writable(base: Path) -> bool:
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=base, prefix=".probe-", delete=True)
        probe.close()
        return True
    except OSError:
        return False


def build_into(path: Path, content: IndexContent, manifest: dict) -> None:
    """Write a complete index into an empty directory."""
    import numpy as np
    from whoosh import index as whoosh_index

    _write_documents(whoosh_index.create_in(str(path), _schema()), content.records)
    (path / RECORDS).write_text(json.dumps([r.to_dict() for r in content.records], ensure_ascii=False), "utf-8")
    (path / QUERY_MODEL).write_text(json.dumps(content.query_model, ensure_ascii=False), "utf-8")
    vectors = content.vectors
    with open(path / VECTORS, "wb") as handle:
        np.save(handle, vectors.matrix.astype(np.float32), allow_pickle=False)
    rows = {"record_ids": vectors.record_ids, "kinds": vectors.kinds, "fingerprints": vectors.fingerprints}
    (path / VECTOR_ROWS).write_text(json.dumps(rows), "utf-8")
    (path / ENGLISH_WORDS).write_text("\n".join(content.english_words) + "\n", "utf-8")
    # The manifest goes last: a directory without one is incomplete.
    (path / MANIFEST).write_text(json.dumps(manifest, indent=1), "utf-8")


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


def open_or_build(
    corpus_hash: str,
    load_corpus,
    base: Path | None = None,
    rebuild: bool = False,
) -> OpenIndex:
    """Open the index for this corpus, building it first when missing, stale, damaged or asked to.

    `load_corpus` is called only when a build is needed; it returns the IndexContent.
    """
    base = base or index_base_dir()
    notices: list[str] = []
    if not _writable(base):
        fallback = _fallback_base()
        if fallback != base and _writable(fallback):
            base = fallback
        else:
            notices.append(f"cannot write an index under {base}; using one built in memory for this run")
            return _build_in_memory(corpus_hash, load_corpus, notices)
    path = base / index_dir_name(corpus_hash)
    if rebuild and path.exists():
        shutil.rmtree(path, ignore_errors=True)
    if path.exists():
        try:
            return _open(path, corpus_hash, notices)
        except IndexError_ as problem:
            notices.append(f"the index was damaged ({problem.message}); rebuilt it")
            shutil.rmtree(path, ignore_errors=True)
    elif _built_indexes(base):
        notices.append("the corpus changed since the index was built; rebuilt it")
    _build_atomically(base, path, corpus_hash, load_corpus)
    _remove_stale(base, keep=path.name)
    return _open(path, corpus_hash, notices)


def _fallback_base() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("rootfaq", appauthor=False))


def _manifest(corpus_hash: str, records: list[Record]) -> dict:
    from . import __version__

    return {"schema": SCHEMA_VERSION, "corpus_hash": corpus_hash, "rootfaq": __version__, "records": len(records)}


def _build_atomically(base: Path, path: Path, corpus_hash: str, load_corpus) -> None:
    content = load_corpus()
    temp = Path(tempfile.mkdtemp(prefix=".build-", dir=base))
    try:
        build_into(temp, content, _manifest(corpus_hash, content.records))
        try:
            os.rename(temp, path)
        except OSError:
            if not (path / MANIFEST).exists():
                raise  # not a lost race: a real failure
    except OSError as exc:
        raise IndexError_(f"could not build the index in {base}: {exc.strerror or exc}",
                          "check the disk, or set ROOTFAQ_INDEX_DIR to a writable directory") from None
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _remove_stale(base: Path, keep: str) -> None:
    for old in _built_indexes(base):
        if old.name != keep:
            shutil.rmtree(old, ignore_errors=True)


def _open(path: Path, corpus_hash: str, notices: list[str]) -> OpenIndex:
    from whoosh import index as whoosh_index

    try:
        manifest = json.loads((path / MANIFEST).read_text("utf-8"))
        if manifest.get("corpus_hash") != corpus_hash or manifest.get("schema") != SCHEMA_VERSION:
            raise IndexError_("its manifest does not match the corpus")
        records = {d["id"]: Record.from_dict(d) for d in json.loads((path / RECORDS).read_text("utf-8"))}
        query_model = json.loads((path / QUERY_MODEL).read_text("utf-8"))
        ix = whoosh_index.open_dir(str(path))
        if ix.doc_count() != sum(1 for r in records.values() if r.is_answer):
            raise IndexError_("its document count does not match its records")
    except IndexError_:
        raise
    except Exception as exc:  # whoosh and json raise many kinds on a damaged directory
        raise IndexError_(f"{type(exc).__name__}: {exc}".strip()) from None
    return OpenIndex(path, records, query_model, manifest, notices, _ix=ix)


def _build_in_memory(corpus_hash: str, load_corpus, notices: list[str]) -> OpenIndex:
    from whoosh.filedb.filestore import RamStorage

    content = load_corpus()
    ix = RamStorage().create_index(_schema())
    _write_documents(ix, content.records)
    return OpenIndex(None, {r.id: r for r in content.records}, content.query_model,
                     _manifest(corpus_hash, content.records), notices, _ix=ix, _vectors=content.vectors,
                     _english=frozenset(content.english_words))


def _read_vectors(path: Path | None) -> RecordVectors:
    """The vectors of an index on disk: plain arrays and JSON, never pickles; their shapes must agree."""
    import numpy as np

    try:
        rows = json.loads((path / VECTOR_ROWS).read_text("utf-8"))
        with open(path / VECTORS, "rb") as handle:
            matrix = np.load(handle, allow_pickle=False)
        vectors = RecordVectors(matrix, rows["record_ids"], rows["kinds"], rows["fingerprints"])
        if matrix.ndim != 2 or not len(vectors.record_ids) == len(vectors.kinds) == len(matrix):
            raise ValueError("rows and vectors disagree")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IndexError_(f"its record vectors are damaged ({exc})") from None
    return vectors


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
