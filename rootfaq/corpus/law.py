"""Parse the Law of Root excerpts and give each paragraph its Law number from evidence in the corpus.

The excerpts print no numbers. Three kinds of evidence, strongest first:
  quoted  - the Outsiders' Golden Reminders quote the paragraph verbatim under its number;
  cited   - FAQ rulebook citations name a number and title in the same chapter; the paragraph that
            best matches the title and the citing answers, in Law order, takes it;
  inferred from order - the paragraph sits between two numbered ones and takes the next free number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .records import Origin, Record

BASIS_QUOTED = "quoted in the Outsiders' Golden Reminders"
BASIS_CITED = "cited by FAQ rulebook answers"
BASIS_INFERRED = "inferred from the Law's order"

_WORD = re.compile(r"[a-z]+")
_STOP = frozenset(
    "a an the of to in on and or is are be as if it its by for with that this their they any not can "
    "you your may must do does all one other than from at only when would but also no yes".split()
)


@dataclass
class Citation:
    """A Law section the FAQ cites, with the answers that cite it."""

    number: str
    title: str | None
    answers: list[str] = field(default_factory=list)


def parse_law(text: str, file: str = "law-excerpts.txt") -> tuple[str, list[Record]]:
    """The title line and one record per paragraph (law-01 ...), unnumbered."""
    lines = text.split("\n")
    title = lines[0].strip()
    records: list[Record] = []
    for index, line in enumerate(lines[1:], start=2):
        line = line.strip()
        if not line:
            continue
        records.append(
            Record(
                id=f"law-{len(records) + 1:02d}",
                source="law",
                text=line,
                origin=Origin(file, index),
                grade="law",
                part=title,
            )
        )
    return title, records


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def _number_key(number: str) -> tuple[int, ...]:
    return tuple(int(p) for p in number.split(".") if p.isdigit())


def _similarity(paragraph: str, citation: Citation) -> float:
    words = _stems(paragraph)
    title_words = _stems(citation.title or "")
    answer_words = _stems(" ".join(citation.answers))
    title_hit = len(words & title_words) / len(title_words) if title_words else 0.0
    answer_hit = len(words & answer_words) / len(words | answer_words) if words else 0.0
    return title_hit + 2 * answer_hit


def _align(paragraphs: list[str], citations: list[Citation]) -> dict[int, Citation]:
    """Order-preserving assignment of citations to paragraphs that maximises total similarity."""
    n, m = len(paragraphs), len(citations)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            take = _similarity(paragraphs[i], citations[j]) + best[i + 1][j + 1]
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    chosen: dict[int, Citation] = {}
    i = j = 0
    while i < n and j < m:
        take = _similarity(paragraphs[i], citations[j]) + best[i + 1][j + 1]
        if best[i][j] == take and take > best[i + 1][j + 1] + 0.15:
            chosen[i] = citations[j]
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return chosen


def _next_number(previous: str) -> str:
    parts = previous.split(".")
    parts[-1] = str(int(parts[-1]) + 1)
    return ".".join(parts)


def number_law(
    records: list[Record],
    quoted: list[tuple[str, str, str | None]],
    citations: list[Citation],
) -> None:
    """Set section, section_title and section_basis on each Law record, in place.

    `quoted` holds (quoted text, number, title) from the Golden Reminders; a paragraph whose whole text
    appears inside a quote takes its number. `citations` are the FAQ's rulebook citations.
    """
    quotes = [(normalise(text), number, title) for text, number, title in quoted]
    for record in records:
        paragraph = normalise(record.text)
        hit = next(((n, t) for q, n, t in quotes if paragraph in q), None)
        if hit:
            record.section, record.section_title = hit
            record.section_basis = BASIS_QUOTED
    known = [r for r in records if r.section]
    chapters = {r.section.split(".")[0] for r in known}
    taken = {r.section for r in known}
    # Only citations in the chapters the quotes establish, between the quoted neighbours.
    in_chapter = sorted(
        (c for c in citations if c.number.split(".")[0] in chapters and c.number not in taken),
        key=lambda c: _number_key(c.number),
    )
    gaps: list[list[int]] = [[]]
    for index, record in enumerate(records):
        if record.section:
            gaps.append([])
        else:
            gaps[-1].append(index)
    for gap in gaps:
        if not gap:
            continue
        low = _neighbour_number(records, gap[0], -1)
        high = _neighbour_number(records, gap[-1], +1)
        candidates = [
            c for c in in_chapter
            if (low is None or _number_key(c.number) > _number_key(low))
            and (high is None or _number_key(c.number) < _number_key(high))
        ]
        for offset, citation in _align([records[i].text for i in gap], candidates).items():
            record = records[gap[offset]]
            record.section, record.section_title = citation.number, citation.title
            record.section_basis = BASIS_CITED
    for index, record in enumerate(records):
        if record.section:
            continue
        previous = _neighbour_number(records, index, -1)
        if previous:
            record.section = _next_number(previous)
            record.section_basis = BASIS_INFERRED


def _neighbour_number(records: list[Record], index: int, step: int) -> str | None:
    index += step
    while 0 <= index < len(records):
        if records[index].section:
            return records[index].section
        index += step
    return None


def normalise(text: str) -> str:
    """Compare quotes loosely: case, spacing and dash style differ between the sources."""
    return re.sub(r"[\s\u2014\u2013-]+", " ", text).strip().lower()
