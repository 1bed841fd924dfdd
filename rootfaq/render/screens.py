"""Terminal rendering of views with rich: the only module (with chat's front end) that prints records.

Everything is built from `Text` objects, never from markup strings, so brackets in the corpus print as
they are. Colour follows the terminal: plain text when the output is not a terminal or NO_COLOR is set.
The width follows the terminal; `make_console(width=80)` fixes it (goldens), as does COLUMNS.
"""

from __future__ import annotations

import os
import re
import sys

from rich import text as rich_text
from rich.console import Console, Group
from rich.padding import Padding

from ..output import printable
from ..views import screens as v


class Text(rich_text.Text):
    """rich's Text, with every string it is given made printable (output.printable): a question, an id or
    a path typed by the user can never reach the terminal as an escape sequence."""

    def __init__(self, text: str = "", *args, **kwargs):
        super().__init__(printable(text, lines=True), *args, **kwargs)

    def append(self, text, style=None):
        return super().append(printable(text, lines=True) if isinstance(text, str) else text, style)

# One colour per grade: official sources cool, community warm, doubtful red, fan content magenta.
GRADE_STYLES = {
    "law": "bold white on blue",
    "rulebook": "bold blue",
    "designer": "bold green",
    "publisher": "bold green",
    "consensus": "cyan",
    "best-reading": "yellow",
    "community": "yellow",
    "disputed": "bold red",
    "ungraded": "dim",
    "fan-rule": "magenta",
}
HEADING = "bold"
SECTION_HEADING = "bold underline"
DIM = "dim"
ID_STYLE = "cyan"
WARN = "bold yellow"
ERROR = "bold red"

INDENT = 2
OTHERS_SHOWN = 8  # rulings listed under "also citing" before "+N more"


def make_console(file=None, width: int | None = None, color: bool | None = None, stderr: bool = False) -> Console:
    """A console for our output.

    color None: colour only on a terminal and without NO_COLOR. width None: the terminal's (80 when
    the output is not a terminal, unless COLUMNS says otherwise).
    """
    kwargs: dict = {"highlight": False, "emoji": False, "markup": False, "soft_wrap": False}
    if width is not None:
        kwargs["width"] = width
    if file is not None:
        kwargs["file"] = file
    elif stderr:
        kwargs["stderr"] = True
    if color is True:
        kwargs.update(force_terminal=True, color_system="standard", no_color=False)
    elif color is False:
        kwargs.update(force_terminal=False, color_system=None, no_color=True)
    elif os.environ.get("NO_COLOR"):
        kwargs.update(color_system=None, no_color=True)
    console = Console(**kwargs)
    if color is None and not console.is_terminal:
        console.no_color = True
    return console


# --- pieces -------------------------------------------------------------------------------------------------


def badge_text(badge: v.Badge, with_detail: bool = True) -> Text:
    """'[Rulebook] 6.2.3 Field Hospitals': the label in its grade's colour, then the detail."""
    text = Text()
    text.append(f"[{badge.label}]", style=GRADE_STYLES.get(badge.grade, ""))
    if with_detail and badge.detail:
        text.append(f" {badge.detail}")
    return text


def provenance_text(prov: v.Provenance) -> Text:
    """'[Rulebook] 6.2.3 Field Hospitals · FAQ 2026-10-28 · Marquise de Cat'."""
    text = badge_text(prov.badge)
    parts = [prov.source + (f" {prov.date}" if prov.date else "")]
    if prov.factions:
        parts.append(", ".join(prov.factions))
    for part in parts:
        text.append(" · ", style=DIM)
        text.append(part)
    return text


def _indent(renderable, level: int = 1) -> Padding:
    return Padding(renderable, (0, 0, 0, INDENT * level), expand=False)


def _line(*parts: tuple[str, str] | str) -> Text:
    text = Text()
    for part in parts:
        if isinstance(part, tuple):
            text.append(part[0], style=part[1])
        else:
            text.append(part)
    return text


def hit_text(hit: v.HitLine) -> Text:
    """One hit on one line, cut with an ellipsis at the console width."""
    text = _line((hit.id, ID_STYLE), "  ")
    text.append_text(badge_text(hit.badge, with_detail=False))
    text.append(" ")
    text.append(hit.title)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def ref_text(ref: v.RefLine) -> Text:
    """A section reference on one line, with its record id or where it is printed when the corpus lacks it."""
    text = Text(ref.label if ref.label != ref.ref else ref.ref)
    if ref.id:
        text.append(f"  {ref.id}", style=ID_STYLE)
    else:
        text.append(f": {ref.where or 'not in these sources'}", style=DIM)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def _hits_block(title: str, hits: list[v.HitLine], limit: int | None = OTHERS_SHOWN) -> list:
    if not hits:
        return []
    shown = hits if limit is None else hits[:limit]
    out: list = [Text(title, style=HEADING)]
    out += [_indent(hit_text(h)) for h in shown]
    if len(hits) > len(shown):
        out.append(_indent(Text(f"+{len(hits) - len(shown)} more: rootfaq show ID, or rootfaq section", style=DIM)))
    return out


def _refs_block(title: str, lines: list[v.RefLine]) -> list:
    if not lines:
        return []
    return [Text(title, style=HEADING)] + [_indent(ref_text(r)) for r in lines]


# --- records ------------------------------------------------------------------------------------------------


def record_head(view: v.RecordView, label: str | None = None) -> list:
    """The id line and the question or heading."""
    top = Text()
    if label:
        top.append(f"{label}  ", style=WARN)
    top.append(view.id, style=ID_STYLE)
    if view.reconstructed:
        top.append("  · question reconstructed", style=DIM)
    out: list = [top]
    if view.path:
        out.append(Text(" › ".join(view.path), style=DIM))
    out.append(Text(view.heading, style=HEADING))
    out.append(Text())
    return out


def record_body(view: v.RecordView, sub_item_text: bool = True) -> list:
    """The text, its provenance, then the sub-items (a rule's bullets) when it has any. A heading without
    text of its own lists its sections in place of the text."""
    out: list = []
    subs = _sub_items(view, sub_item_text)
    if view.missing:
        out.append(_indent(Text("The FAQ lost this answer; it is kept as a record but is not an answer.", style=WARN)))
    elif view.text:
        out.append(_indent(Text(view.text)))
    elif subs:
        out.append(_indent(Text("A heading without text of its own. Its sections:", style=DIM)))
        out += subs
        subs = []
    out.append(Text())
    prov = [provenance_text(view.provenance)]
    if view.provenance.sentence:
        prov.append(Text(f"“{view.provenance.sentence}”", style=DIM))
    skip = ("reconstructed", "lost this answer")  # already said above
    prov += [Text(f"note: {note}", style=DIM) for note in view.provenance.notes if not any(w in note for w in skip)]
    out += [_indent(p) for p in prov]
    if subs:
        out.append(Text())
        out += subs
    return out


def _sub_items(view: v.RecordView, with_text: bool) -> list:
    out: list = []
    for item in view.sub_items:
        line = _line((item.label, "bold"), ("  " + item.id, ID_STYLE))
        out.append(_indent(line, 1 + item.depth))
        if with_text and item.text:
            out.append(_indent(Text(item.text), 2 + item.depth))
    return out


def related_block(rel: v.Related, full: bool) -> list:
    """Related rules: cited sections' text, their cross-references, other rulings citing them, backlinks."""
    if not rel:
        return []
    out: list = [Text(), Text("Related rules", style=SECTION_HEADING)]
    for rule in rel.rules:
        line = _line((rule.label, "bold"))
        if rule.id is None:  # the corpus lacks it: say once where it is printed
            line.append(f": {rule.where}", style=DIM)
            out.append(_indent(line))
            continue
        line.append(f"  {rule.id}", style=ID_STYLE)
        out.append(_indent(line))
        out.append(_indent(Text(rule.where, style=DIM), 2))
        if rule.text:
            out.append(_indent(Text(rule.text), 2))
        if rule.cut:
            out.append(_indent(Text(f"(cut: rootfaq section {rule.ref})", style=DIM), 2))
        if rule.sub_items:
            subs = ", ".join(s.label for s in rule.sub_items)
            out.append(_indent(Text(f"Sub-items: {subs}", style=DIM), 2))
        if rule.also_ids:
            out.append(_indent(Text("Also printed as: " + ", ".join(rule.also_ids), style=DIM), 2))
    if rel.same_number:
        out.append(_indent(Text("Same number also printed as: " + ", ".join(rel.same_number), style=DIM)))
    for title, lines in (("Refers to", rel.cross_refs), ("Referred to by", rel.backlinks)):
        if lines:
            out.append(_indent(Text(title, style="bold")))
            out += [_indent(ref_text(r), 2) for r in lines]
    if rel.citing:
        title = "Other rulings citing the same section" if rel.rules else "Rulings citing it"
        out.append(_indent(Text(title, style="bold")))
        shown = rel.citing if full else rel.citing[:OTHERS_SHOWN]
        out += [_indent(hit_text(h), 2) for h in shown]
        if len(rel.citing) > len(shown):
            out.append(_indent(Text(f"+{len(rel.citing) - len(shown)} more", style=DIM), 2))
    if rel.nearby:
        out.append(_indent(Text("On the same topic", style="bold")))
        out += [_indent(hit_text(h), 2) for h in rel.nearby]
    return out


def render_record(view: v.RecordView) -> Group:
    """`rootfaq show`: a record in full, with everything related to it."""
    return Group(*record_head(view), *record_body(view), *related_block(view.related, full=True))


# --- ask ----------------------------------------------------------------------------------------------------


def render_ask(view: v.AskView) -> Group:
    """`rootfaq ask`: the answer, its provenance, related rules, then other possible answers. When not sure,
    says so and shows the best candidates in full; a post asking several questions gets a block each."""
    out: list = []
    for wrong, right in view.corrections.items():
        out.append(Text(f"Read “{wrong}” as “{right}”.", style=DIM))
    for notice in view.notices:
        out.append(Text(f"note: {notice}", style=DIM))
    if view.filters:
        out.append(Text("Filter: " + "; ".join(view.filters), style=DIM))
    if view.parts:
        return Group(*out, *_parts_blocks(view.parts))
    if view.best is None:
        out.append(Text(f"Nothing found for “{view.query}”.", style=WARN))
        out.append(Text("Try fewer words, a faction nickname (cats, birds, WA), or a section number like 4.3.2.",
                        style=DIM))
        return Group(*out)
    label = None
    if not view.confident:
        out.append(Text(f"Not sure: nothing answers “{view.query}” clearly{_likely(view)}. "
                        "The closest candidates, best first:", style=WARN))
        label = "Guess 1" if view.guesses else "Guess"
    if out:
        out.append(Text())
    out += record_head(view.best, label)
    out += record_body(view.best, sub_item_text=False)
    for number, guess in enumerate(view.guesses, start=2):
        out.append(Text())
        out += record_head(guess, f"Guess {number}")
        out += record_body(guess, sub_item_text=False)
    if not view.guesses:
        out += related_block(view.best.related, full=False)
    if view.others:
        out.append(Text())
        title = "Other guesses" if not view.confident else "Other possible answers"
        out += _hits_block(title, view.others)
    return Group(*out)


def _likely(view: v.AskView) -> str:
    """' (the best match is 40% likely to be right)', from the calibrated probability."""
    if view.probability is None:
        return ""
    return f" (the best match is {round(100 * view.probability)}% likely to be right)"


def _parts_blocks(parts: list[v.AskView]) -> list:
    """A post that asks several questions: a block per question, each answered on its own."""
    out: list = [Text(f"Your post asks {len(parts)} questions; each is answered on its own.", style=DIM)]
    for number, part in enumerate(parts, start=1):
        out.append(Text())
        out.append(Text(f"Question {number}: {part.query}", style=SECTION_HEADING))
        out.append(_indent(render_ask(part)))
    return out


def render_more(hits: list[v.HitLine], remaining: int) -> Group:
    """Chat's :more: the next hits, one line each."""
    if not hits:
        return Group(Text("No more answers.", style=DIM))
    out = _hits_block("More answers", hits, limit=None)
    if remaining:
        out.append(Text(f"{remaining} more: type :more", style=DIM))
    out.append(Text(":show ID for one in full", style=DIM))
    return Group(*out)


# --- section ------------------------------------------------------------------------------------------------


def render_section(view: v.SectionView) -> Group:
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
        out += _hits_block(f"Rulings citing {view.ref}", view.citing, limit=None)
    if view.backlinks:
        out.append(Text())
        out += _refs_block(f"Sections that refer to {view.ref}", view.backlinks)
    return Group(*out)


# --- list, grades, sources ----------------------------------------------------------------------------------


def render_list(view: v.ListView) -> Group:
    """`rootfaq list`: factions and topics, or one faction's rulings and sections."""
    out: list = [Text(view.title, style=SECTION_HEADING)]
    if view.factions:
        out.append(Text("Factions (rootfaq list --faction NAME)", style=HEADING))
        group = None
        for f in view.factions:
            if f.group != group:
                group = f.group
                out.append(_indent(Text(f.group_name or f.group, style="bold")))
            counts = f"{f.rulings:>3} {_plural(f.rulings, 'ruling'):<8}{f.sections:>4} {_plural(f.sections, 'section')}"
            line = _line((f"{f.key:<20}", ID_STYLE), f"{f.name:<24}", (counts, DIM))
            line.no_wrap = True
            line.overflow = "ellipsis"
            out.append(_indent(line, 2))
    if view.topics:
        out.append(Text("Topics (rootfaq list --topic NAME)", style=HEADING))
        for key, name, count in view.topics:
            out.append(_indent(_line((f"{key:<20}", ID_STYLE), f"{name:<26}", (f"{count:>3} records", DIM))))
    out += _hits_block(f"Rulings ({len(view.rulings)})", view.rulings, limit=None)
    out += _hits_block(f"Sections ({len(view.sections)})", view.sections, limit=None)
    if not view.found:
        out.append(Text("Nothing to list.", style=WARN))
    return Group(*out)


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def render_grades(lines: list[v.GradeLine]) -> Group:
    """`rootfaq grades`: every badge with what it means."""
    out: list = [Text("Grades: where an answer comes from, strongest first", style=SECTION_HEADING)]
    for line in lines:
        head = _line()
        head.append(f"[{line.label}]", style=GRADE_STYLES.get(line.grade, ""))
        head.append(f"  {line.grade}", style=DIM)
        if line.official:
            head.append("  official", style="bold")
        out.append(head)
        out.append(_indent(Text(line.meaning)))
    out.append(Text("--official keeps Law text, rulebook, designer and publisher rulings.", style=DIM))
    return Group(*out)


def render_sources(view: v.SourcesView) -> Group:
    """`rootfaq sources`: counts, grades and flags per source, then unresolved citations."""
    out: list = []
    for s in view.sources:
        out.append(Text(f"{s.source}: {s.title}", style=SECTION_HEADING))
        out.append(_indent(Text(f"{s.records} records, {s.answers} answers")))
        for key, value in s.detail.items():
            if isinstance(value, dict):
                value = ", ".join(f"{k} {n}" for k, n in value.items())
            out.append(_indent(Text(f"{key.replace('_', ' ')}: {value}")))
        grades = Text("grades: ")
        for i, (grade, count) in enumerate(s.grades.items()):
            if i:
                grades.append(", ")
            grades.append(grade, style=GRADE_STYLES.get(grade, ""))
            grades.append(f" {count}")
        out.append(_indent(grades))
        for flag, ids in sorted(s.flags.items()):
            sample = ", ".join(ids[:6]) + (", …" if len(ids) > 6 else "")
            out.append(_indent(_line(f"{flag} {len(ids)}", (f"  {sample}", DIM))))
        out.append(Text())
    out.append(Text(f"Cited sections no record holds: {len(view.unresolved_refs)}", style=HEADING))
    for ref, ids in sorted(view.unresolved_refs.items(), key=lambda kv: v.ref_sort_key(kv[0])):
        out.append(_indent(_line(f"{ref:<12}", (", ".join(ids[:6]) + (", …" if len(ids) > 6 else ""), DIM))))
    if view.question_problems:
        out.append(Text(f"Curated questions or phrasings not attached: {len(view.question_problems)}", style=WARN))
        out += [_indent(Text(p)) for p in view.question_problems]
    if view.index_path:
        out.append(Text())
        out.append(Text(f"index: {view.index_path}", style=DIM))
    return Group(*out)


# --- chat bits ----------------------------------------------------------------------------------------------


def render_message(text: str, kind: str = "info") -> Text:
    """A one-line message: info dim, warn yellow, error red."""
    style = {"error": ERROR, "warn": WARN, "info": DIM}.get(kind, "")
    return Text(text, style=style)


def render_help(commands: list[tuple[str, str]]) -> Group:
    """Chat's :help."""
    out: list = [Text("Type a rules question, or a section number. Commands:", style=HEADING)]
    for command, what in commands:
        out.append(_indent(_line((f"{command:<22}", ID_STYLE), what)))
    return Group(*out)


# --- output -------------------------------------------------------------------------------------------------


_TRAILING = re.compile(r"(?:[ \t]|\x1b\[[0-9;]*m)*[ \t](?:[ \t]|\x1b\[[0-9;]*m)*$", re.MULTILINE)
_STYLE = re.compile(r"\x1b\[[0-9;]*m")


def rendered(console: Console, renderable) -> str:
    """The text the console would print, without trailing blanks on any line (styles kept, even where
    blanks and style codes alternate at a line's end: a wrapped " · " separator)."""
    with console.capture() as capture:
        console.print(renderable)
    return _TRAILING.sub(lambda m: "".join(_STYLE.findall(m[0])), capture.get())


def print_out(console: Console, renderable, pager: bool = True) -> None:
    """Print, through a pager when the output is a terminal and longer than its height."""
    text = rendered(console, renderable)
    if pager and console.is_terminal and sys.stdin.isatty() and text.count("\n") > console.height - 2:
        import pydoc

        os.environ.setdefault("LESS", "-FRX")  # keep colours, quit when it fits, leave the text on screen
        pydoc.pager(text)
        return
    console.file.write(text)
    console.file.flush()


def to_text(renderable, width: int = 80, color: bool = False) -> str:
    """Render to a string at a fixed width (tests and goldens)."""
    import io

    return rendered(make_console(file=io.StringIO(), width=width, color=color), renderable)
