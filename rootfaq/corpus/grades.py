"""The grades: where an answer comes from, strongest provenance first. One place for each grade's label,
meaning, official standing, cheat-sheet badge and terminal colour; every screen and the sheet read them here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grade:
    key: str
    label: str  # the badge in the terminal: "Designer ruling (BGG)"
    meaning: str  # what `rootfaq grades` says of it
    official: bool  # from the game's owners: the Law, its rulebook, its designer and publisher
    code: str  # the cheat sheet's badge letter, so grades read apart in grayscale: "D"
    word: str  # the cheat sheet's short word: "Designer"
    style: str  # terminal colour (a rich style): official sources cool, community warm, doubt red, fan magenta


GRADES: dict[str, Grade] = {g.key: g for g in (
    Grade("law", "Law of Root text",
          "The Law of Root itself, quoted word for word (with its section number and how it was found).",
          True, "L", "Law", "bold white on blue"),
    Grade("rulebook", "Rulebook", "The FAQ answers from a numbered section of the rules (number and title shown).",
          True, "R", "Rulebook", "bold blue"),
    Grade("designer", "Designer ruling (BGG)", "The game's designer ruled on it on BoardGameGeek (year shown).",
          True, "D", "Designer", "bold green"),
    Grade("publisher", "Publisher ruling (BGG)", "The publisher answered on BoardGameGeek (year shown).",
          True, "P", "Publisher", "bold green"),
    Grade("consensus", "Community consensus", "Several experienced players agree; there is no official ruling.",
          False, "C", "Consensus", "cyan"),
    Grade("best-reading", "Best reading", "The best reading of the rules and forum discussion; no official ruling.",
          False, "B", "Best reading", "yellow"),
    Grade("community", "Single community answer", "A single community answer; no official ruling.",
          False, "1", "One answer", "yellow"),
    Grade("disputed", "Disputed", "Players read it this way, but the reading is disputed; no official ruling.",
          False, "!", "Disputed", "bold red"),
    Grade("ungraded", "Ungraded", "The FAQ gives no source for this answer.", False, "?", "Ungraded", "dim"),
    Grade("fan-rule", "Fan expansion rule", "A rule of The Outsiders, a fan expansion: not an official Root rule.",
          False, "F", "Fan rule", "magenta"),
)}

GRADE_LABELS: dict[str, str] = {key: grade.label for key, grade in GRADES.items()}
OFFICIAL_GRADES = frozenset(key for key, grade in GRADES.items() if grade.official)
# The official grades in words, as --official's help, `rootfaq grades` and the cheat sheet's legend say them
# (tests/test_corpus.py checks that they name exactly the official grades).
OFFICIAL_IN_WORDS = "Law text, rulebook, designer and publisher rulings"
OFFICIAL_LIST = "Law, rulebook, designer, publisher"
