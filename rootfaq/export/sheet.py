"""What a cheat sheet is made of, as plain data: entries in groups, the legend, the section index, papers.

Selection builds a `Sheet`; the html, markdown and pdf modules only lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError

# Paper: width and height in mm, and the CSS name.
PAPERS = {"a4": (210.0, 297.0, "A4"), "letter": (215.9, 279.4, "letter")}

# The layout's promise: one faction's official rulings, section index included, fit on this many pages,
# A4 or Letter, printed from the HTML by Chromium or drawn by fpdf2. Measured on the shipped corpus: at most
# 4 (Vagabond, 46 rulings, Chromium; fpdf2 3), Marquise 3 (42); one page of headroom for a growing FAQ.
# tests/test_cheatsheet.py holds us to it.
MAX_PAGES_ONE_FACTION_OFFICIAL = 5

# A grade's badge: a letter code and a short word. Printed as "[D] Designer 2019", so it reads the same in
# grayscale or on a photocopy; official grades are also drawn solid, the others outlined and dashed.
GRADE_BADGES: dict[str, tuple[str, str]] = {
    "law": ("L", "Law"),
    "rulebook": ("R", "Rulebook"),
    "designer": ("D", "Designer"),
    "publisher": ("P", "Publisher"),
    "consensus": ("C", "Consensus"),
    "best-reading": ("B", "Best reading"),
    "community": ("1", "One answer"),
    "disputed": ("!", "Disputed"),
    "ungraded": ("?", "Ungraded"),
    "fan-rule": ("F", "Fan rule"),
}
RECONSTRUCTED = "(reconstructed)"
GENERAL = "General"


def paper_size(paper: str) -> tuple[float, float, str]:
    """Width and height in mm and the CSS name of 'a4' or 'letter'; UsageError for another paper."""
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise UsageError(f"unknown paper '{paper}'", f"use one of: {', '.join(PAPERS)}") from None


@dataclass
class Entry:
    """One ruling as printed: question, answer, grade badge and the section it concerns."""

    number: int
    id: str
    source: str
    question: str | None
    reconstructed: bool
    answer: str
    grade: str
    official: bool
    year: int | None = None
    section: str | None = None
    section_title: str | None = None
    number_basis: str | None = None  # for a Law paragraph, how its number was found
    xrefs: list[str] = field(default_factory=list)

    @property
    def badge_code(self) -> str:
        return f"[{GRADE_BADGES[self.grade][0]}]"

    @property
    def badge_text(self) -> str:
        """'Designer 2019', 'Rulebook'."""
        word = GRADE_BADGES[self.grade][1]
        return f"{word} {self.year}" if self.year else word

    @property
    def badge(self) -> str:
        return f"{self.badge_code} {self.badge_text}"

    @property
    def section_label(self) -> str:
        """'4.3.2 Step 2: Roll Dice', '1.3.2 (number inferred from the Law's order)', or ''."""
        if not self.section:
            return ""
        label = f"{self.section} {self.section_title}" if self.section_title else self.section
        return f"{label} ({self.number_basis})" if self.number_basis else label


@dataclass
class RuleLine:
    """One Outsiders rule section in compact form; depth 0 for BP.2, 1 for BP.2.1, 2 for BP.2.5.i."""

    section: str
    title: str | None
    text: str
    depth: int

    @property
    def head(self) -> str:
        """'BP.2.1 Crafting', or the bare number."""
        return self.section + (f" {self.title}" if self.title else "")


@dataclass
class Group:
    """A faction's or topic's entries, ordered by section, and for Outsiders factions their rules."""

    key: str
    title: str
    kind: str  # "faction", "topic" or "general"
    subtitle: str = ""
    entries: list[Entry] = field(default_factory=list)
    rules_title: str | None = None
    rules: list[RuleLine] = field(default_factory=list)


@dataclass
class SourceInfo:
    key: str
    title: str
    date: str | None

    @property
    def label(self) -> str:
        """'Root FAQ (updated 2026-10-28)', 'Law of Root excerpts (undated)'."""
        return f"{self.title} ({'updated ' + self.date if self.date else 'undated'})"


@dataclass
class LegendItem:
    grade: str
    code: str
    word: str
    label: str
    official: bool


@dataclass
class IndexLine:
    """A section number, its title, and the numbers of the entries that concern or cite it."""

    section: str
    title: str | None
    entries: list[int]


@dataclass
class Sheet:
    title: str
    filters: list[str]
    sources: list[SourceInfo]
    groups: list[Group]
    legend: list[LegendItem]
    section_index: list[IndexLine]

    @property
    def entry_count(self) -> int:
        return sum(len(g.entries) for g in self.groups)

    @property
    def rule_count(self) -> int:
        return sum(len(g.rules) for g in self.groups)

    def entries(self) -> list[Entry]:
        return [e for g in self.groups for e in g.entries]
