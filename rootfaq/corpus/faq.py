"""Parse the FAQ: a repeated title block, then per entry an optional grade line and one answer line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .records import FLAG_MISSING_ANSWER, FLAG_UNGRADED, Origin, Record

# Grade lines, in the order they are tried. A line that matches none is an answer.
GRADE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("designer", re.compile(r"^The designer ruled on this directly on BGG in (?P<year>\d{4})\.$")),
    ("publisher", re.compile(r"^The publisher answered this directly on BGG in (?P<year>\d{4})\.$")),
    ("rulebook", re.compile(r'^The rulebook answers this in "(?P<cited>[^"]+)"\.$')),
    ("consensus", re.compile(r"^Several experienced players agree; there is no official ruling\.$")),
    ("best-reading", re.compile(r"^Best reading of the rules and forum discussion; no official ruling\.$")),
    ("community", re.compile(r"^One community answer\b[^.]*; no official ruling\.$")),
    # The two one-off lines that say the reading is contested.
    ("disputed", re.compile(r"^[^.]*\b(?:disputes? it\b[^.]*no official ruling|is disputed)\.$")),
)

_DATE = re.compile(r"^Updated (?P<date>\d{4}-\d{2}-\d{2})\.$")
_CITED = re.compile(r"^(?P<num>(?:[A-Z]\.)?\d+(?:\.\d+)*|[A-Z])\.?\s+(?P<title>.+)$")


@dataclass
class FaqHeader:
    title: str
    description: str
    date: str | None


def match_grade(line: str) -> tuple[str, re.Match[str]] | None:
    """The grade a line states, or None when the line is an answer."""
    for grade, pattern in GRADE_PATTERNS:
        m = pattern.match(line)
        if m:
            return grade, m
    return None


def split_cited(cited: str) -> tuple[str, str | None]:
    """'4.3.2 Step 2: Roll Dice' -> ('4.3.2', 'Step 2: Roll Dice'); 'C. Variant Maps' -> ('C', ...)."""
    m = _CITED.match(cited)
    if not m:
        return cited, None
    return m["num"], m["title"]


def parse_header(lines: list[str]) -> tuple[FaqHeader, int]:
    """Read the title block (printed twice in the source); return it and the first entry line index."""
    title, description = lines[0].strip(), lines[1].strip()
    seen = {title, description}
    date = None
    i = 1
    while i < len(lines):
        line = lines[i].strip()
        m = _DATE.match(line)
        if m:
            date = m["date"]
        elif i > 1 and line not in seen:
            break
        i += 1
    return FaqHeader(title, description, date), i


def parse_faq(text: str, file: str = "faq.txt") -> tuple[FaqHeader, list[Record]]:
    """FAQ records in source order, ids faq-001 ...; an entry whose answer is lost is kept and flagged."""
    lines = text.split("\n")
    header, start = parse_header(lines)
    records: list[Record] = []
    pending: tuple[str, re.Match[str], int] | None = None

    def add(answer: str | None, line_no: int) -> None:
        number = len(records) + 1
        record = Record(
            id=f"faq-{number:03d}",
            source="faq",
            text=answer or "",
            origin=Origin(file, pending[2] if pending else line_no),
            date=header.date,
        )
        if pending:
            grade, m, _ = pending
            record.grade = grade
            record.grade_sentence = m.string
            if "year" in m.re.groupindex:
                record.year = int(m["year"])
            if grade == "rulebook":
                record.section, record.section_title = split_cited(m["cited"])
                record.section_basis = "cited"
        else:
            record.flags.append(FLAG_UNGRADED)
        if answer is None:
            record.flags.append(FLAG_MISSING_ANSWER)
        records.append(record)

    for index in range(start, len(lines)):
        line = lines[index].strip()
        if not line:
            continue
        graded = match_grade(line)
        if graded:
            if pending:  # two grade lines in a row: the first entry lost its answer
                add(None, index)
            pending = (graded[0], graded[1], index + 1)
        else:
            add(line, index + 1)
            pending = None
    if pending:
        add(None, len(lines))
    return header, records
