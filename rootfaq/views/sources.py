"""`rootfaq sources`: per source, counts, grades and flags; then cited sections no record holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..corpus.library import Library
from ..corpus.records import FLAG_FAN_NOTE, FLAG_RECONSTRUCTED_QUESTION, SOURCES
from .common import SOURCE_LABELS
from .listing import is_section


@dataclass
class SourceSummary:
    source: str
    title: str
    records: int
    answers: int
    grades: dict[str, int]
    flags: dict[str, list[str]]
    detail: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"source": self.source, "title": self.title, "records": self.records, "answers": self.answers,
                "grades": self.grades, "flags": {k: {"count": len(v), "ids": v} for k, v in self.flags.items()},
                "detail": self.detail}


@dataclass
class SourcesView:
    sources: list[SourceSummary]
    unresolved_refs: dict[str, list[str]]
    question_problems: list[str]
    index_path: str | None
    index_notices: list[str]

    def to_json(self) -> dict:
        return {
            "sources": [s.to_json() for s in self.sources],
            "unresolved_refs": self.unresolved_refs,
            "question_problems": self.question_problems,
            "index": {"path": self.index_path, "notices": self.index_notices},
        }


def sources_view(library: Library, index_path: Path | None = None,
                 index_notices: list[str] | None = None) -> SourcesView:
    """Per source: counts, the grade histogram and the flags; then cited sections no record holds; then
    where the index is served from and what it said."""
    info = library.info
    titles = {
        "faq": " ".join(filter(None, [info.faq.title, "FAQ", f"({info.faq.date})" if info.faq.date else ""])),
        "law": info.law_title or SOURCE_LABELS["law"],
        "outsiders": info.outsiders_title or SOURCE_LABELS["outsiders"],
    }
    summaries = []
    for source in SOURCES:
        mine = [r for r in library.records.values() if r.source == source]
        grades: dict[str, int] = {}
        for r in mine:
            grades[r.grade] = grades.get(r.grade, 0) + 1
        grades = dict(sorted(grades.items(), key=lambda kv: (-kv[1], kv[0])))
        flags: dict[str, list[str]] = {}
        for r in mine:
            for f in r.flags:
                flags.setdefault(f, []).append(r.id)
        detail: dict[str, object] = {}
        answered = [r for r in mine if r.is_answer and (r.source == "faq" or r.section)]
        if source == "faq":
            asked = sum(FLAG_RECONSTRUCTED_QUESTION in r.flags for r in answered)
            detail["reconstructed questions"] = f"{asked} of {len(answered)} answers"
        else:
            phrased = sum(bool(r.phrasings) for r in answered)
            detail["curated phrasings"] = f"{phrased} of {len(answered)} numbered records"
        with_asked = [r for r in mine if r.asked]
        if with_asked:
            detail["questions players asked"] = (f"{sum(len(r.asked) for r in with_asked)} on "
                                                 f"{len(with_asked)} records")
        if source == "law":
            basis: dict[str, int] = {}
            for r in mine:
                basis[r.section_basis or "none"] = basis.get(r.section_basis or "none", 0) + 1
            detail["numbers"] = basis
        if source == "outsiders":
            printed = [r for r in mine if FLAG_FAN_NOTE not in r.flags]
            detail["parts"] = sum(1 for r in printed if not r.section)
            detail["sections"] = sum(1 for r in printed if is_section(r))
            detail["sub_items"] = sum(1 for r in printed if r.section and not is_section(r))
            detail["fan notes split from quoted Law text"] = sum(FLAG_FAN_NOTE in r.flags for r in mine)
        summaries.append(SourceSummary(source, titles[source], len(mine), sum(r.is_answer for r in mine),
                                       grades, flags, detail))
    path = str(index_path) if index_path else None
    notices = list(index_notices or [])
    return SourcesView(summaries, dict(info.unresolved_refs), list(info.question_problems), path, notices)
