"""`rootfaq grades`: every grade badge with what it means."""

from __future__ import annotations

from dataclasses import dataclass

from ..corpus.records import GRADE_LABELS, OFFICIAL_GRADES
from .common import GRADE_MEANINGS


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
    return [GradeLine(g, GRADE_LABELS[g], GRADE_MEANINGS.get(g, ""), g in OFFICIAL_GRADES) for g in GRADE_LABELS]
