"""Parse The Outsiders rulebook ("Law of Slug") into section, sub-item and part records.

Layout: a title, a table of contents (skipped; it names the parts), then parts. A numbered line
("BP.2.5 Bone Tokens. text", optionally bulleted) opens a section; "• IV. Name. text" opens a sub-item of
the current section, "  • a. Name." one of the current sub-item; other lines continue the item above
(indented lines the sub-item, others the section). Oddities are flagged, never repaired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import refs
from .records import (
    FLAG_DUPLICATE_NUMBER,
    FLAG_FAN_NOTE,
    FLAG_QUOTES_LAW,
    FLAG_TRUNCATED,
    FLAG_UNOFFICIAL_RULE,
    FLAG_UNTITLED,
    Origin,
    Record,
)

GOLDEN_REMINDERS = "Golden Reminders"

_BULLET = re.compile(r"^(?P<indent>\s*)(?:•\s*)?")
_SUBITEM = re.compile(r"^(?P<label>[IVX]+|[a-z])\.\s+(?P<rest>\S.*)$")
# "Name. text": a short capitalised name before the first full stop.
_TITLE = re.compile(r"^(?P<title>[A-Z0-9'\"][^.!]{0,60}?)(?P<end>[.!])(?:\s+(?P<text>.*))?$")
_MAX_TITLE_WORDS = 7
# The Golden Reminders quote Law sections verbatim, then add the author's own note after a "*" that opens
# a word ("... as follows. *When playing on the Deep Woods Map, you CANNOT Revolt ..."); "all* hits" is no note.
_FAN_NOTE = re.compile(r"(?:^|\s)\*(?=[A-Z])")


@dataclass
class OutsidersDoc:
    title: str
    parts: list[str]
    records: list[Record] = field(default_factory=list)


def split_title(rest: str) -> tuple[str | None, str]:
    """'Bone Tokens. The Patrol has ...' -> ('Bone Tokens', 'The Patrol has ...'); a bare heading is all title."""
    rest = rest.strip()
    m = _TITLE.match(rest)
    if m and len(m["title"].split()) <= _MAX_TITLE_WORDS and m["text"]:
        title = m["title"].strip() + ("!" if m["end"] == "!" else "")
        return title, m["text"].strip()
    if not rest.endswith((".", ":")) and len(rest.split()) <= 10:
        return rest, ""  # a heading such as "BP.1 Overview"
    return None, rest


def _parse_toc(lines: list[str], start: int, numbered: re.Pattern[str]) -> tuple[list[str], int]:
    """The parts the table of contents names (its indented numbered lines are sections: not needed), and
    the index of the first line after it."""
    parts: list[str] = []
    i = start
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if not line or line == "Table of Contents":
            i += 1
            continue
        if not line.startswith("•"):
            break
        entry = line.lstrip("• ").strip()
        if not (raw.startswith(" ") and numbered.match(entry)):
            parts.append(entry)
        i += 1
    return parts, i


def parse_outsiders(text: str, numbers: refs.SectionNumbers, file: str = "outsiders-rulebook.txt") -> OutsidersDoc:
    """Every part, section and sub-item as a record, in source order (`numbers` knows the prefixes).

    Longer than the rest on purpose: one pass over the lines, whose state is the part, section and sub-items
    open at each line; in pieces, that state would be handed back and forth on every line.
    """
    lines = text.split("\n")
    title = lines[0].strip()
    parts, i = _parse_toc(lines, 1, numbers.heading_line)
    doc = OutsidersDoc(title, parts)
    ids: set[str] = set()
    by_section: dict[str, Record] = {}

    part: Record | None = None
    section: Record | None = None
    sub: Record | None = None
    subsub: Record | None = None
    bulleted_section = False

    def new_id(base: str) -> str:
        candidate, n = base, 2
        while candidate in ids:
            candidate = f"{base}-{n}"
            n += 1
        ids.add(candidate)
        return candidate

    def make(number: str | None, rest: str, line_no: int, parent: Record | None) -> Record:
        heading, body = split_title(rest)
        record = Record(
            id=new_id(f"rule-{number}" if number else f"rule-part-{_slug(rest)}"),
            source="outsiders",
            text=body,
            title=heading,
            origin=Origin(file, line_no),
            grade="fan-rule",
            section=number,
            section_title=heading,
            section_basis="printed" if number else None,
            part=part.title if part else None,
            parent=parent.id if parent else None,
        )
        if number and heading is None:
            record.flags.append(FLAG_UNTITLED)
        if "(Unofficial Rule)" in body:
            record.flags.append(FLAG_UNOFFICIAL_RULE)
        if parent:
            parent.children.append(record.id)
        doc.records.append(record)
        return record

    def append(record: Record, line: str) -> None:
        record.text = f"{record.text}\n{line}".strip() if record.text else line

    for index in range(i, len(lines)):
        raw = lines[index].rstrip()
        line = raw.strip()
        line_no = index + 1
        if not line:
            continue
        indent = len(_BULLET.match(raw)["indent"])
        bulleted = line.startswith("•")
        content = line.lstrip("•").strip()
        if line in parts and not bulleted:
            part = make(None, line, line_no, None)
            part.title = part.section_title = part.part = line
            part.text = ""
            section = sub = subsub = None
            continue
        numbered = numbers.heading_line.match(content)
        if numbered and not (indent and not bulleted):
            number = refs.canonical(None, numbered["num"].upper())
            parent = by_section.get(refs.parent_ref(number) or "") or part
            section = make(number, numbered["rest"], line_no, parent)
            if part and part.title == GOLDEN_REMINDERS:
                section.flags.append(FLAG_QUOTES_LAW)
            by_section.setdefault(number, section)
            sub = subsub = None
            bulleted_section = bulleted
            continue
        item = _SUBITEM.match(content)
        if item and section and (bulleted or item["label"].islower()):
            label = item["label"]
            if label.islower() and sub is not None and (indent or not bulleted):
                owner = sub
            else:
                owner = section
            number = f"{owner.section}.{label.lower()}"
            record = make(number, item["rest"], line_no, owner)
            if owner is section:
                sub, subsub = record, None
            else:
                subsub = record
            continue
        # Continuation text: the innermost open item, by indentation.
        if section is None:
            if part is not None:
                append(part, line)
            continue
        if indent:
            append(subsub or sub or section, line)
        elif bulleted_section and sub is None and section.parent:
            parent_record = next(r for r in doc.records if r.id == section.parent)
            append(parent_record, line)
        else:
            append(section, line)
            sub = subsub = None

    _flag_oddities(doc)
    return doc


def _split_fan_notes(doc: OutsidersDoc) -> None:
    """Every word under the badge of its source: a quoted Law section keeps only the Law's words, and what
    The Outsiders adds after its "*" becomes a fan-rule record of its own, printed under the same number
    and line, its parent the section it annotates (it is no sub-item of the Law)."""
    for position in range(len(doc.records) - 1, -1, -1):
        record = doc.records[position]
        found = _FAN_NOTE.search(record.text) if record.grade == "law" else None
        if not found:
            continue
        note_text = record.text[found.end():].strip()
        record.text = record.text[: found.start()].rstrip()
        note = Record(id=f"{record.id}-note", source="outsiders", text=note_text, origin=record.origin,
                      title=record.title, grade="fan-rule", section=record.section,
                      section_title=record.section_title, section_basis=record.section_basis, part=record.part,
                      parent=record.id, flags=[FLAG_FAN_NOTE])
        doc.records.insert(position + 1, note)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _flag_oddities(doc: OutsidersDoc) -> None:
    numbered: dict[str, list[Record]] = {}
    for record in doc.records:
        if record.section:
            numbered.setdefault(record.section, []).append(record)
    for copies in numbered.values():
        if len(copies) > 1:
            for record in copies:
                record.flags.append(FLAG_DUPLICATE_NUMBER)
    by_id = {r.id: r for r in doc.records}
    for record in doc.records:
        parent = by_id.get(record.parent or "")
        if parent and FLAG_QUOTES_LAW in parent.flags and FLAG_QUOTES_LAW not in record.flags:
            record.flags.append(FLAG_QUOTES_LAW)  # sub-items of a quoted Law section are quoted too
        if FLAG_QUOTES_LAW in record.flags and FLAG_UNOFFICIAL_RULE not in record.flags:
            record.grade = "law"
    _split_fan_notes(doc)
    for record in doc.records:
        # A passage that ends announcing a list that never comes was cut off.
        if record.section and not record.children and record.text.rstrip().endswith(":"):
            record.flags.append(FLAG_TRUNCATED)
