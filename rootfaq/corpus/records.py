"""The record model: plain data, no I/O. Every layer above reads these."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from ..errors import UsageError
from .grades import OFFICIAL_GRADES
from .terms import words

SOURCES = ("faq", "law", "outsiders")
_VERSION_WORD = re.compile(r"v?\d+(?:\.\d+)*")  # a version label, "v2.1"
_VERSION_ROOM = 16  # characters a title page adds to its name: "! v2.1"

# Flags a record may carry; `rootfaq sources` reports them.
FLAG_MISSING_ANSWER = "missing-answer"
FLAG_UNGRADED = "ungraded"
FLAG_DUPLICATE_NUMBER = "duplicate-number"
FLAG_TRUNCATED = "truncated"
FLAG_QUOTES_LAW = "quotes-law"
FLAG_UNTITLED = "untitled"
FLAG_RECONSTRUCTED_QUESTION = "reconstructed-question"
FLAG_UNOFFICIAL_RULE = "unofficial-rule"
FLAG_FAN_NOTE = "fan-note"  # The Outsiders' own note after a Law section it quotes: split from the Law text


@dataclass
class Origin:
    """Where a record was read: the corpus file and its 1-based line."""

    file: str
    line: int


@dataclass
class Record:
    """One answer or rule, with its provenance."""

    id: str
    source: str
    text: str
    origin: Origin
    title: str | None = None
    alt_titles: list[str] = field(default_factory=list)  # other titles a source gives the same section
    phrasings: list[str] = field(default_factory=list)  # curated player phrasings: search aids, never shown
    asked: list[str] = field(default_factory=list)  # questions players asked that it answers: search aids too
    grade: str = "ungraded"
    grade_sentence: str | None = None
    year: int | None = None
    date: str | None = None
    section: str | None = None
    section_title: str | None = None
    section_basis: str | None = None
    part: str | None = None
    factions: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    xrefs: list[str] = field(default_factory=list)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)

    @property
    def is_answer(self) -> bool:
        """False for records that must never be presented as an answer."""
        return FLAG_MISSING_ANSWER not in self.flags

    @property
    def holds_no_rule(self) -> bool:
        """A heading or a part's title page with no text beyond its name and a version ("Bone Patrol! v2.1"):
        it answers nothing itself (its sections do), though a section number still opens it."""
        if len(self.text) > len(self.title or "") + _VERSION_ROOM:  # longer than a name and a version: a rule, unread
            return False
        named = set(words(self.title or ""))
        return all(word in named or _VERSION_WORD.fullmatch(word) for word in words(self.text))

    @property
    def official(self) -> bool:
        return self.grade in OFFICIAL_GRADES

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Record:
        data = dict(data)
        data["origin"] = Origin(**data["origin"])
        return cls(**data)


def section_label(record: Record) -> str:
    """'4.3.2 Step 2: Roll Dice', or just the number, or ''."""
    if not record.section:
        return ""
    return f"{record.section} {record.section_title}" if record.section_title else record.section


def number_basis(record: Record) -> str | None:
    """How a Law paragraph's number was found ("number inferred from the Law's order"): the excerpts print
    no numbers, so the basis goes wherever the number is shown."""
    if record.source == "law" and record.section_basis:
        return f"number {record.section_basis}"
    return None


def record_headings(record: Record, asked: bool = True) -> list[str]:
    """What a record answers, as short lines: an FAQ entry's questions, a rule's title; then (unless `asked`
    is False) the questions players asked that it answers."""
    players = record.asked if asked else []
    if record.source == "faq":
        return [h for h in [record.title, *record.phrasings, *players] if h]
    return [h for h in [record.section_title, *record.alt_titles, *record.phrasings, *players] if h]


@dataclass(frozen=True)
class RecordFilter:
    """What --source, --faction and --official let through; an empty filter lets everything through."""

    sources: list[str] | None = None
    factions: list[str] | None = None
    official: bool = False

    def __bool__(self) -> bool:
        return bool(self.sources or self.factions or self.official)

    def admits(self, record: Record) -> bool:
        if self.sources and record.source not in self.sources:
            return False
        if self.factions and not set(self.factions) & set(record.factions):
            return False
        return not self.official or record.official


def check_sources(sources: list[str] | None) -> list[str] | None:
    """The --source values, checked; UsageError for an unknown one."""
    for source in sources or []:
        if source not in SOURCES:
            raise UsageError(f"unknown source '{source}'", "sources are: " + ", ".join(SOURCES))
    return list(sources) if sources else None
