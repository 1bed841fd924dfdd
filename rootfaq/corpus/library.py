"""The library: the records and the query model read from one index, and the lookups over them.

    library = Library(records, query_model, info)
    library.records["faq-108"], library.query_model.faction_name("marquise")
    library.tables.holders("6.2.3"), library.info.law_title

Plain corpus data: what search derives from it (whoosh, vectors, postings) is the search index's own
(rootfaq/search/index.py), which holds one Library.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from .query_model import QueryModel
from .records import Record
from .tables import RecordTables, record_tables


@dataclass(frozen=True)
class FaqInfo:
    """The FAQ's own header."""

    title: str
    description: str
    date: str | None


@dataclass
class CorpusInfo:
    """What the sources say of themselves, and what parsing them found; stored beside the records.

    One JSON form (`to_json` / `from_json`): a stored file that lacks a field fails to load, and the index
    is rebuilt."""

    faq: FaqInfo
    outsiders_title: str
    outsiders_parts: list[str]
    law_title: str
    unresolved_refs: dict[str, list[str]] = field(default_factory=dict)  # cited sections no record holds
    question_problems: list[str] = field(default_factory=list)  # curated questions that attached to nothing

    def to_json(self) -> dict:
        return {
            "faq": {"title": self.faq.title, "description": self.faq.description, "date": self.faq.date},
            "outsiders_title": self.outsiders_title,
            "outsiders_parts": self.outsiders_parts,
            "law_title": self.law_title,
            "unresolved_refs": self.unresolved_refs,
            "question_problems": self.question_problems,
        }

    @classmethod
    def from_json(cls, data: dict) -> CorpusInfo:
        """The info stored with an index; KeyError or TypeError when a field is missing or malformed."""
        return cls(
            faq=FaqInfo(**data["faq"]),
            outsiders_title=str(data["outsiders_title"]),
            outsiders_parts=list(data["outsiders_parts"]),
            law_title=str(data["law_title"]),
            unresolved_refs=dict(data["unresolved_refs"]),
            question_problems=list(data["question_problems"]),
        )


@dataclass(eq=False)
class Library:
    records: dict[str, Record]  # by id, in corpus order
    query_model: QueryModel
    info: CorpusInfo

    @functools.cached_property
    def tables(self) -> RecordTables:
        """Lookups over the records (who holds a section, who cites it), built on first use."""
        return record_tables(self.records.values())
