"""What a cheat sheet is made of, as plain data: entries in groups, the legend, the section index, papers.

Selection builds a `Sheet`; the html, markdown and pdf modules only lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..corpus.grades import GRADES
from ..errors import UsageError
from .echo import shown

# Paper: width and height in mm, and the CSS name.
PAPERS = {"a4": (210.0, 297.0, "A4"), "letter": (215.9, 279.4, "letter")}

# The layout's promise: one faction's official rulings, section index included, fit on this many pages,
# A4 or Letter, printed from the HTML by Chromium or drawn by fpdf2. Measured on the shipped corpus: at most
# 4 (Vagabond, 44 rulings, Chromium; fpdf2 3), Marquise 3 (37); one page of headroom for a growing FAQ.
# tests/test_cheatsheet_print.py holds us to it.
MAX_PAGES_ONE_FACTION_OFFICIAL = 5

# FAQ questions are our reconstruction, not the source's words: said once in the legend, and marked on each
# entry by this small sign (Latin-1, so the PDF core fonts draw it).
RECONSTRUCTED_SIGN = "*"
RECONSTRUCTED_NOTE = "reconstructed question: our wording, written for the FAQ's answer"
GENERAL = "General"


@dataclass
class SheetFilters:
    """What goes on a sheet: the options of `rootfaq cheatsheet`."""

    factions: list[str] = field(default_factory=list)  # as typed: keys, names, nicknames or a bot's name
    official: bool = False
    sources: list[str] | None = None  # None: the FAQ and the Law excerpts
    query: str | None = None
    rules: bool = False  # the selected Outsiders factions' rule sections
    bots: bool = False  # rulings about the Clockwork bots that play the selected factions


def paper_size(paper: str) -> tuple[float, float, str]:
    """Width and height in mm and the CSS name of 'a4' or 'letter'; UsageError for another paper."""
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise UsageError(f"unknown paper '{shown(paper)}'", f"use one of: {', '.join(PAPERS)}") from None


@dataclass
class Entry:
    """One ruling as printed: question, answer, grade badge and the section it concerns."""

    number: int
    id: str
    source: str
    question: str | None  # None for a rule or Law paragraph: its section label names it
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
        return f"[{GRADES[self.grade].code}]"

    @property
    def badge_text(self) -> str:
        """'Designer 2019', 'Rulebook'."""
        word = GRADES[self.grade].word
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

    @property
    def explanation(self) -> str:
        """The grade's label when it says more than the badge's word ("Designer ruling (BGG)"), else ''."""
        return "" if self.label.lower() == self.word.lower() else self.label


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
    name: str = "all"  # for a default file name: "marquise", "mechanical-marquise", "all"

    @property
    def entry_count(self) -> int:
        return sum(len(g.entries) for g in self.groups)

    @property
    def rule_count(self) -> int:
        return sum(len(g.rules) for g in self.groups)

    def entries(self) -> list[Entry]:
        return [e for g in self.groups for e in g.entries]

    @property
    def reconstructed(self) -> bool:
        """Whether any entry's question is reconstructed (the legend then explains the sign)."""
        return any(e.reconstructed for e in self.entries())
