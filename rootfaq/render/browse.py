"""The browsing screens on the terminal: `section`, `list`, `grades` and `sources`."""

from __future__ import annotations

from rich.console import Group

from ..corpus.grades import OFFICIAL_IN_WORDS
from ..corpus.refs import section_sort_key
from ..views.grades import GradeLine
from ..views.listing import ListView
from ..views.section import SectionView
from ..views.sources import SourcesView
from .console import DIM, HEADING, ID_STYLE, SECTION_HEADING, WARN, Text, grade_style
from .record import hits_block, indented, record_body, record_head, refs_block, related_block, styled_line


def render_section(view: SectionView) -> Group:
    """`rootfaq section`: each record under the number with its sub-items and path, then who cites it."""
    out: list = []
    if not view.holders:
        title = f" ({view.cited_title}, as the FAQ cites it)" if view.cited_title else ""
        out.append(Text(f"The corpus does not hold the text of section {view.ref}{title}.", style=WARN))
        if view.nearest:
            out.append(Text("Nearest sections: " + ", ".join(view.nearest), style=DIM))
        elif not view.citing:
            out.append(Text("No section near it in these sources.", style=DIM))
    for i, holder in enumerate(view.holders):
        if i:
            out.append(Text())
        out += record_head(holder)
        out += record_body(holder)
        out += related_block(holder.related, full=True)
    if view.citing:
        out.append(Text())
        out += hits_block(f"Rulings citing {view.ref}", view.citing, limit=None)
    if view.backlinks:
        out.append(Text())
        out += refs_block(f"Sections that refer to {view.ref}", view.backlinks)
    return Group(*out)


def render_list(view: ListView) -> Group:
    """`rootfaq list`: factions and topics, or one faction's rulings and sections."""
    out: list = [Text(view.title, style=SECTION_HEADING)]
    if view.factions:
        out.append(Text("Factions (rootfaq list --faction NAME)", style=HEADING))
        group = None
        for f in view.factions:
            if f.group != group:
                group = f.group
                out.append(indented(Text(f.group_name or f.group, style="bold")))
            counts = f"{f.rulings:>3} {_plural(f.rulings, 'ruling'):<8}{f.sections:>4} {_plural(f.sections, 'section')}"
            line = styled_line((f"{f.key:<20}", ID_STYLE), f"{f.name:<24}", (counts, DIM))
            line.no_wrap = True
            line.overflow = "ellipsis"
            out.append(indented(line, 2))
    if view.topics:
        out.append(Text("Topics (rootfaq list --topic NAME)", style=HEADING))
        for key, name, count in view.topics:
            out.append(indented(styled_line((f"{key:<20}", ID_STYLE), f"{name:<26}", (f"{count:>3} records", DIM))))
    out += hits_block(f"Rulings ({len(view.rulings)})", view.rulings, limit=None)
    out += hits_block(f"Sections ({len(view.sections)})", view.sections, limit=None)
    if not view.found:
        out.append(Text("Nothing to list.", style=WARN))
    return Group(*out)


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def render_grades(lines: list[GradeLine]) -> Group:
    """`rootfaq grades`: every badge with what it means."""
    out: list = [Text("Grades: where an answer comes from, strongest first", style=SECTION_HEADING)]
    for line in lines:
        head = styled_line()
        head.append(f"[{line.label}]", style=grade_style(line.grade))
        head.append(f"  {line.grade}", style=DIM)
        if line.official:
            head.append("  official", style="bold")
        out.append(head)
        out.append(indented(Text(line.meaning)))
    out.append(Text(f"--official keeps {OFFICIAL_IN_WORDS}.", style=DIM))
    return Group(*out)


def render_sources(view: SourcesView) -> Group:
    """`rootfaq sources`: counts, grades and flags per source, then unresolved citations."""
    out: list = []
    for s in view.sources:
        out.append(Text(f"{s.source}: {s.title}", style=SECTION_HEADING))
        out.append(indented(Text(f"{s.records} records, {s.answers} answers")))
        for key, value in s.detail.items():
            if isinstance(value, dict):
                value = ", ".join(f"{k} {n}" for k, n in value.items())
            out.append(indented(Text(f"{key.replace('_', ' ')}: {value}")))
        grades = Text("grades: ")
        for i, (grade, count) in enumerate(s.grades.items()):
            if i:
                grades.append(", ")
            grades.append(grade, style=grade_style(grade))
            grades.append(f" {count}")
        out.append(indented(grades))
        for flag, ids in sorted(s.flags.items()):
            sample = ", ".join(ids[:6]) + (", …" if len(ids) > 6 else "")
            out.append(indented(styled_line(f"{flag} {len(ids)}", (f"  {sample}", DIM))))
        out.append(Text())
    out.append(Text(f"Cited sections no record holds: {len(view.unresolved_refs)}", style=HEADING))
    for ref, ids in sorted(view.unresolved_refs.items(), key=lambda kv: section_sort_key(kv[0])):
        out.append(indented(styled_line(f"{ref:<12}", (", ".join(ids[:6]) + (", …" if len(ids) > 6 else ""), DIM))))
    if view.question_problems:
        out.append(Text(f"Curated questions or phrasings not attached: {len(view.question_problems)}", style=WARN))
        out += [indented(Text(p)) for p in view.question_problems]
    if view.index_path:
        out.append(Text())
        out.append(Text(f"index: {view.index_path}", style=DIM))
    return Group(*out)
