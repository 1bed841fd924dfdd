"""The whoosh index: the only module that touches whoosh.

What whoosh holds (one document per answer, its fields) and the statistics lexical scoring reads
(postings, field lengths, document counts): rootfaq/search/lexical.py turns them into BM25F scores.
`OpenIndex` is an opened index: the whoosh index over checked bytes (rootfaq/search/store.py reads and
checks them), the Library stored beside it (the records, the query model and the corpus info:
rootfaq/corpus/library.py, which views read), and what search derives from them once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..corpus.library import Library
from ..corpus.records import Record, record_headings
from ..errors import IndexFailure
from .dense import RecordVectors, vectors_from_files
from .encoder import ModelUnavailable

WHOOSH_NAME = "MAIN"  # whoosh's index name: its files are _MAIN_<n>.toc and MAIN_<segment>.seg
ENGLISH_WORDS = "english-words.txt"  # one word a line: typo fixing leaves these alone (rootfaq/corpus/wordlist.py)


@dataclass
class Derived:
    """What search derives from an index once per process, a field each; a repaired index starts anew."""

    english_words: frozenset[str] | None = None
    vectors: RecordVectors | None = None
    query_reader: Any = None  # query.QueryReader (query.py imports this module, not the other way round)
    vector_layout: Any = None  # dense.py's rows of each record
    section_titles: dict[str, tuple[str, bool]] | None = None  # answers.named_section's table
    bm25_terms: dict[str, tuple[float, list]] = field(default_factory=dict)  # lexical.py: idf and blended postings
    record_stems: dict[str, frozenset[str]] = field(default_factory=dict)  # ranking.coverage, per record id
    record_traits: dict[str, Any] = field(default_factory=dict)  # ranking.features: record id -> RecordTraits
    answering_ids: frozenset[str] | None = None  # ranking.answering_ids
    allowed_masks: dict[frozenset[str], Any] = field(default_factory=dict)  # dense.allowed_records


@dataclass
class OpenIndex:
    """An opened index: the whoosh index and the Library stored beside it."""

    path: Path | None
    library: Library
    manifest: dict
    notices: list[str] = field(default_factory=list)
    _ix: Any = None  # whoosh's FileIndex over the checked bytes
    _reader: Any = None  # whoosh's reader: postings and statistics (its searcher module is never imported)
    _ids: list[str] | None = None
    _averages: dict[str, float] = field(default_factory=dict)
    _postings: dict[tuple[str, str], list[tuple[int, int, int]]] = field(default_factory=dict)
    _documents: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    derived: Derived = field(default_factory=Derived)
    _files: dict[str, bytes] = field(default_factory=dict)  # every file of the index, checked (store.load_index)
    build_seconds: float | None = None  # set when this run built the index
    rebuild: Callable[[], OpenIndex] | None = None  # how to build it anew, for repairing() (store.py gives it)

    def english_words(self) -> frozenset[str]:
        """The English word list stored with the index (decoded on first use; empty if unreadable)."""

        if self.derived.english_words is None:
            try:
                self.derived.english_words = frozenset(bytes(self._files[ENGLISH_WORDS]).decode("utf-8").split())
            except (KeyError, UnicodeDecodeError):
                self.derived.english_words = frozenset()
        return self.derived.english_words


    @property
    def vectors(self) -> RecordVectors:
        """The record vectors stored with the index (decoded on first use: only `ask` needs them)."""
        if self.derived.vectors is None:
            try:
                self.derived.vectors = vectors_from_files(self._files)
            except ImportError:  # search runs on words alone then (answers.py)
                raise ModelUnavailable("numpy cannot be imported") from None
        return self.derived.vectors

    def repairing(self, call):
        """`call()`; when whoosh fails inside it, rebuild the index once and call again, then a clean error.

        Damage the checksums cannot see (bytes that were wrong before they were hashed) shows only
        while searching; the rebuilt index replaces this one in place, so callers keep their object.
        """
        try:
            return call()
        except Exception as exc:
            if self.rebuild is None or not _raised_in_whoosh(exc):
                raise
            failure = exc
        fresh = self.rebuild()
        for item in fields(self):
            setattr(self, item.name, getattr(fresh, item.name))
        self.notices.append(f"searching the index failed ({_error_name(failure)}); rebuilt it")
        try:
            return call()
        except Exception as exc:
            if not _raised_in_whoosh(exc):
                raise
            raise IndexFailure(f"searching the index failed even after a rebuild ({_error_name(exc)}: {exc})",
                              "run `rootfaq index --rebuild`; if this comes back, report it with --debug output"
                              ) from None

    def reader(self):
        """whoosh's reader of the index. Search walks its postings itself (lexical.py), so whoosh's searcher,
        whose modules cost a cold start 8-10 ms to import, is never opened."""
        if self._reader is None:
            self._reader = self._ix.reader()
        return self._reader

    def docnum_ids(self) -> list[str]:
        """Record id by whoosh document number: the answers in records.json's order, the order one commit
        wrote and numbered them (`documents`; store.load_index checks the count). Reading whoosh's stored
        fields instead would unpickle every document (12 ms on a cold start)."""
        if self._ids is None:
            self._ids = [r.id for r in documents(self.library.records.values())]
        return self._ids

    def postings(self, field_name: str, token: str) -> list[tuple[int, int, int]]:
        """(docnum, frequency, length of the field in that document) for a term, decoded once per process."""
        key = (field_name, token)
        cached = self._postings.get(key)
        if cached is None:
            reader = self.reader()
            cached = [
                (docnum, frequency, reader.doc_field_length(docnum, field_name, 1))
                for docnum, frequency in reader.postings(field_name, token).items_as("frequency")
            ]
            self._postings[key] = cached
        return cached

    def average_length(self, field_name: str) -> float:
        """Mean length of a field over the documents (for BM25 length normalisation)."""
        if field_name not in self._averages:
            reader = self.reader()
            self._averages[field_name] = (reader.field_length(field_name) / (reader.doc_count_all() or 1)) or 1.0
        return self._averages[field_name]

    def document_count(self) -> int:
        return self.reader().doc_count_all()

    def has_term(self, field_name: str, token: str) -> bool:
        """Whether any document holds the term in that field."""
        return bool(self.reader().doc_frequency(field_name, token))

    def documents_with(self, field_name: str, token: str) -> list[int]:
        """The docnums holding a term (a keyword field such as factions), decoded once per process."""
        key = (field_name, token)
        cached = self._documents.get(key)
        if cached is None:
            cached = self._documents[key] = list(self.reader().postings(field_name, token).all_ids())
        return cached

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None


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
        factions=KEYWORD(lowercase=True, commas=False),
        question=TEXT(analyzer=analyzer),
        title=TEXT(analyzer=analyzer),  # a rule's printed titles: named abilities are searched by name
        phrasings=TEXT(analyzer=analyzer),  # a rule's curated player phrasings and the questions players asked
        names=TEXT(analyzer=analyzer),
        text=TEXT(analyzer=analyzer),
        # The questions of the FAQ rulings that cite a rule: players' words for what the rule covers.
        cited_by=TEXT(analyzer=analyzer),
    )


def analyze(text: str) -> list[str]:
    """The index's own analysis (lower case, Porter stems) of a piece of query text: the steps of whoosh's
    StemmingAnalyzer(stoplist=None) without its Token objects, about five times faster on a record's text
    (tests/test_index.py checks both give the same stems on every record)."""
    pattern, stem = _analysis()
    return [stem(match.group().lower()) for match in pattern.finditer(text)]


@functools.cache
def _analysis():
    """whoosh's own token pattern and Porter stemmer, the stems remembered as its StemFilter does."""
    from whoosh.analysis.tokenizers import default_pattern
    from whoosh.lang.porter import stem

    return default_pattern, functools.lru_cache(maxsize=50000)(stem)


@functools.lru_cache(maxsize=16384)
def word_stems(word: str) -> frozenset[str]:
    """The stems of one word, remembered: ranking asks for the same question words for every candidate."""
    return frozenset(analyze(word))


def documents(records: Iterable[Record]) -> list[Record]:
    """The records whoosh holds, in the order they are written: one document per answer; flagged records
    stay in records.json but are never found as answers."""
    return [record for record in records if record.is_answer]


def _write_documents(ix, records: list[Record]) -> None:
    cited_by: dict[str, list[str]] = {}
    for record in records:
        if record.source == "faq" and record.is_answer:
            for ref in record.xrefs:
                cited_by.setdefault(ref, []).extend(record_headings(record))
    writer = ix.writer()
    for record in documents(records):
        borrowed = cited_by.get(record.section or "", []) if record.source != "faq" else []
        writer.add_document(**_document(record), cited_by=" \n".join(borrowed))
    writer.commit()


def _document(record: Record) -> dict:
    return {
        "id": record.id,
        "factions": " ".join(record.factions),
        "question": " \n".join(record_headings(record)) if record.source == "faq" else "",
        "title": " \n".join(filter(None, [record.section_title, *record.alt_titles])) if record.source != "faq" else "",
        "phrasings": " \n".join([*record.phrasings, *record.asked]) if record.source != "faq" else "",
        "names": " ".join(filter(None, [record.section, record.part, " ".join(record.factions)])),
        "text": record.text,
    }


def _is_whoosh_file(name: str) -> bool:
    return name.startswith((f"_{WHOOSH_NAME}_", f"{WHOOSH_NAME}_"))


def whoosh_files(records: list[Record]) -> dict[str, bytes]:
    """whoosh's files for these records, built in memory: one document per answer."""
    from whoosh.filedb.filestore import RamStorage

    storage = RamStorage()
    _write_documents(storage.create_index(_schema(), indexname=WHOOSH_NAME), records)
    return {name: bytes(data) for name, data in storage.files.items()}


def open_whoosh(files: dict[str, bytes]):
    """whoosh's index over checked bytes, read from memory with the schema from this code.

    whoosh's files still hold pickles (the segment list, the compound directory, stored fields); they are
    unpickled only from bytes this user's own build wrote, checked against the manifest (store.load_index).
    """
    from whoosh.filedb.filestore import RamStorage
    from whoosh.index import FileIndex

    storage = RamStorage()
    storage.files = {name: data for name, data in files.items() if _is_whoosh_file(name)}
    return FileIndex(storage, schema=_schema(), indexname=WHOOSH_NAME)
