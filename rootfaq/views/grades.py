"""`rootfaq grades`: every grade badge with what it means."""

from __future__ import annotations

from dataclasses import dataclass

from ..corpus.grades import GRADES


@dataclass
class GradeLine:
    grade: str
    label: str
    meaning: str
    official: bool

    def to_json(self) -> dict:
        return {"grade": self.grade, "label": self.label, "meaning": self.meaning, "official": self.official}


def grade_legend() -> list[GradeLine]:
    """Every grade with its badge label, what it means, and whether --official keeps it."""
    return [GradeLine(g.key, g.label, g.meaning, g.official) for g in GRADES.values()]
