"""The pieces every screen is made of: grade badges, provenance, one-line hits and section references.

A view holds display-ready strings (faction names, section labels, grade badges) so the renderer only lays
them out, and `to_json()` gives the same content to scripts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..corpus.grades import GRADE_LABELS
from ..corpus.library import Library
from ..corpus.query_model import NOT_A_FACTION
from ..corpus.records import (
    FLAG_DUPLICATE_NUMBER,
    FLAG_FAN_NOTE,
    FLAG_MISSING_ANSWER,
    FLAG_QUOTES_LAW,
    FLAG_RECONSTRUCTED_QUESTION,
    FLAG_TRUNCATED,
    FLAG_UNOFFICIAL_RULE,
    FLAG_UNTITLED,
    Record,
    number_basis,
    section_label,
)

SOURCE_LABELS = {"faq": "FAQ", "law": "Law of Root excerpts", "outsiders": "The Outsiders (fan expansion)"}

# Grades whose verbatim sentence says more than the badge does.
_SENTENCE_WORTH_SHOWING = {"consensus", "best-reading", "community", "disputed", "publisher"}

FLAG_NOTES = {
    FLAG_RECONSTRUCTED_QUESTION: "question reconstructed (the FAQ lost its questions)",
    FLAG_MISSING_ANSWER: "the FAQ lost this answer: never shown as an answer",
    FLAG_DUPLICATE_NUMBER: "this number is printed more than once in the rulebook",
    FLAG_TRUNCATED: "the printed text stops short here",
    FLAG_UNOFFICIAL_RULE: "marked (Unofficial Rule) in the rulebook",
    FLAG_UNTITLED: "printed without a title",
    FLAG_FAN_NOTE: "The Outsiders' own note on the Law section it quotes, kept apart from the Law's words",
}
FAN_NOTE_HEADING = "The Outsiders' note"
# Flags whose note the record's heading already says: the id line's "question reconstructed", the body's
# "The FAQ lost this answer".
NOTES_SAID_ABOVE = (FLAG_RECONSTRUCTED_QUESTION, FLAG_MISSING_ANSWER)


@dataclass
class Badge:
    """A grade as shown: its key (for colour), its label and the detail that goes with it."""

    grade: str
    label: str
    detail: str = ""

    def to_json(self) -> dict:
        return {"grade": self.grade, "label": self.label, "detail": self.detail}


@dataclass
class Provenance:
    """Who says so and when: the badge, the grade sentence when it adds nuance, source, date, factions."""

    badge: Badge
    source: str
    date: str | None = None
    sentence: str | None = None
    factions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Notes a screen has already said above the provenance ("question reconstructed", "answer lost").
    said_above: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "badge": self.badge.to_json(),
            "source": self.source,
            "date": self.date,
            "sentence": self.sentence,
            "factions": self.factions,
            "notes": self.notes,
        }


@dataclass
class HitLine:
    """One record on one line: id, badge and its question or heading."""

    id: str
    badge: Badge
    title: str
    score: float | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "grade": self.badge.grade, "title": self.title, "score": self.score}


@dataclass
class RefLine:
    """A section number with its title, and the record that holds it (None: the corpus does not, and
    `where` says which rulebook prints it)."""

    ref: str
    label: str
    id: str | None
    where: str | None = None

    def to_json(self) -> dict:
        return {"ref": self.ref, "label": self.label, "id": self.id, "where": self.where}


def faction_display(library: Library, keys: list[str]) -> list[str]:
    """Faction keys as their full names, in the same order."""
    return [library.query_model.faction_name(k) for k in keys if k and k != NOT_A_FACTION]


def badge(record: Record) -> Badge:
    """The grade badge: label plus the detail a player checks first (section, or BGG year)."""
    label = GRADE_LABELS.get(record.grade, record.grade)
    detail = ""
    if record.grade == "rulebook":
        detail = section_label(record)
    elif record.grade in ("designer", "publisher") and record.year:
        detail = str(record.year)
    elif record.source != "faq" and record.section:
        detail = section_label(record)
    return Badge(record.grade, label, detail)


def provenance(library: Library, record: Record) -> Provenance:
    """Where a record comes from, ready to show."""
    b = badge(record)
    if record.source == "faq":
        source = "FAQ"
        date = record.date or library.info.faq.date
    elif record.source == "law":
        source = library.info.law_title or "Law of Root"
        date = None
        basis = number_basis(record)
        if basis:
            b.detail = f"{b.detail} ({basis})" if b.detail else basis
    else:
        source = SOURCE_LABELS["outsiders"]
        if FLAG_QUOTES_LAW in record.flags:
            source = "quoted in The Outsiders' Golden Reminders"
        date = None
    sentence = record.grade_sentence if record.grade in _SENTENCE_WORTH_SHOWING else None
    notes = [FLAG_NOTES[f] for f in record.flags if f in FLAG_NOTES]
    said = [FLAG_NOTES[f] for f in record.flags if f in NOTES_SAID_ABOVE]
    return Provenance(b, source, date, sentence, faction_display(library, record.factions), notes, said)


def heading(record: Record) -> str:
    """The line a record is known by: its question, else its section and title, else its first words."""
    if record.source == "faq":
        if record.title:
            return record.title
        return _first_words(record.text) if record.text else "(answer missing)"
    label = section_label(record)
    if label and FLAG_FAN_NOTE in record.flags:
        return f"{label}: {FAN_NOTE_HEADING}"
    if label:
        return label
    return record.title or _first_words(record.text)


def hit_line(record: Record, score: float | None = None) -> HitLine:
    """A record as one line: id, badge, question or heading."""
    return HitLine(record.id, badge(record), heading(record), score)


def _first_words(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def filter_labels(library: Library, factions: list[str] | None, sources: list[str] | None, official: bool) -> list[str]:
    """The active filters in words, for the line above an answer."""
    labels = []
    if factions:
        labels.append("faction: " + ", ".join(faction_display(library, factions)))
    if sources:
        labels.append("source: " + ", ".join(SOURCE_LABELS.get(s, s) for s in sources))
    if official:
        labels.append("official rulings only")
    return labels


def missing_where(library: Library, ref: str) -> str:
    """Where a section the corpus lacks is printed, said once in place of its text."""
    printing = library.query_model.section_numbers().printing_of(ref)
    if printing == "the Law of Root":
        return "in the Law of Root, not in these sources"
    return f"in {printing}, but not in its text here"
