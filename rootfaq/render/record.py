"""A record on the terminal: its head, body and related rules, and the one-line pieces other screens reuse."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding

from ..views.common import Badge, HitLine, Provenance, RefLine
from ..views.record import RecordView, Related
from .console import DIM, HEADING, ID_STYLE, INDENT, SECTION_HEADING, WARN, Text, grade_style

OTHERS_SHOWN = 8  # rulings listed under "also citing" before "+N more"


def badge_text(badge: Badge, with_detail: bool = True) -> Text:
    """'[Rulebook] 6.2.3 Field Hospitals': the label in its grade's colour, then the detail."""
    text = Text()
    text.append(f"[{badge.label}]", style=grade_style(badge.grade))
    if with_detail and badge.detail:
        text.append(f" {badge.detail}")
    return text


def provenance_text(prov: Provenance) -> Text:
    """'[Rulebook] 6.2.3 Field Hospitals · FAQ 2026-10-28 · Marquise de Cat'."""
    text = badge_text(prov.badge)
    parts = [prov.source + (f" {prov.date}" if prov.date else "")]
    if prov.factions:
        parts.append(", ".join(prov.factions))
    for part in parts:
        text.append(" · ", style=DIM)
        text.append(part)
    return text


def indented(renderable, level: int = 1) -> Padding:
    return Padding(renderable, (0, 0, 0, INDENT * level), expand=False)


def styled_line(*parts: tuple[str, str] | str) -> Text:
    text = Text()
    for part in parts:
        if isinstance(part, tuple):
            text.append(part[0], style=part[1])
        else:
            text.append(part)
    return text


# Below this width a hit's question cut to one line says too little ("[Rulebook] If the Keep and…"): the
# id and badge go on one line, the question wraps under them.
ONE_LINE_MIN_WIDTH = 60


def hit_text(hit: HitLine, number: str = "") -> Text:
    """One hit on one line, cut with an ellipsis at the console width."""
    text = styled_line((number, WARN), (hit.id, ID_STYLE), "  ")
    text.append_text(badge_text(hit.badge, with_detail=False))
    text.append(" ")
    text.append(hit.title)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class HitLines:
    """A hit as listed under an answer: one line (hit_text) where the console is wide enough, else its id
    and badge, then the question in full, wrapped and indented under them."""

    def __init__(self, hit: HitLine, number: str = "") -> None:
        self.hit, self.number = hit, number

    def __rich_console__(self, console, options):
        if console.width >= ONE_LINE_MIN_WIDTH:  # the terminal, not the room left inside an indent
            yield hit_text(self.hit, self.number)
            return
        head = styled_line((self.number, WARN), (self.hit.id, ID_STYLE), "  ")
        head.append_text(badge_text(self.hit.badge, with_detail=False))
        yield head
        yield indented(Text(self.hit.title))


def ref_text(ref: RefLine) -> Text:
    """A section reference on one line, with its record id or where it is printed when the corpus lacks it."""
    text = Text(ref.label if ref.label != ref.ref else ref.ref)
    if ref.id:
        text.append(f"  {ref.id}", style=ID_STYLE)
    else:
        text.append(f": {ref.where or 'not in these sources'}", style=DIM)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def hits_block(title: str, hits: list[HitLine], limit: int | None = OTHERS_SHOWN) -> list:
    if not hits:
        return []
    shown = hits if limit is None else hits[:limit]
    out: list = [Text(title, style=HEADING)]
    out += [indented(HitLines(h)) for h in shown]
    if len(hits) > len(shown):
        out.append(indented(Text(f"+{len(hits) - len(shown)} more: rootfaq show ID, or rootfaq section", style=DIM)))
    return out


def refs_block(title: str, lines: list[RefLine]) -> list:
    if not lines:
        return []
    return [Text(title, style=HEADING)] + [indented(ref_text(r)) for r in lines]


def record_head(view: RecordView, label: str | None = None) -> list:
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


def record_body(view: RecordView, sub_item_text: bool = True) -> list:
    """The text, its provenance, then the sub-items (a rule's bullets) when it has any. A heading without
    text of its own lists its sections in place of the text."""
    out: list = []
    subs = _sub_items(view, sub_item_text)
    if view.missing:
        out.append(indented(Text("The FAQ lost this answer; it is kept as a record but is not an answer.", style=WARN)))
    elif view.text:
        out.append(indented(Text(view.text)))
    elif subs:
        out.append(indented(Text("A heading without text of its own. Its sections:", style=DIM)))
        out += subs
        subs = []
    out.append(Text())
    prov = [provenance_text(view.provenance)]
    if view.provenance.sentence:
        prov.append(Text(f"“{view.provenance.sentence}”", style=DIM))
    prov += [Text(f"note: {note}", style=DIM) for note in view.provenance.notes
             if note not in view.provenance.said_above]
    out += [indented(p) for p in prov]
    if subs:
        out.append(Text())
        out += subs
    return out


def _sub_items(view: RecordView, with_text: bool) -> list:
    out: list = []
    for item in view.sub_items:
        line = styled_line((item.label, "bold"), ("  " + item.id, ID_STYLE))
        out.append(indented(line, 1 + item.depth))
        if with_text and item.text:
            out.append(indented(Text(item.text), 2 + item.depth))
    return out


def related_block(rel: Related, full: bool) -> list:
    """Related rules: cited sections' text, their cross-references, other rulings citing them, backlinks."""
    if not rel:
        return []
    out: list = [Text(), Text("Related rules", style=SECTION_HEADING)]
    for rule in rel.rules:
        line = styled_line((rule.label, "bold"))
        if rule.id is None:  # the corpus lacks it: say once where it is printed
            line.append(f": {rule.where}", style=DIM)
            out.append(indented(line))
            continue
        line.append(f"  {rule.id}", style=ID_STYLE)
        out.append(indented(line))
        out.append(indented(Text(rule.where, style=DIM), 2))
        if rule.text:
            out.append(indented(Text(rule.text), 2))
        if rule.cut:
            out.append(indented(Text(f"(cut: rootfaq section {rule.ref})", style=DIM), 2))
        if rule.sub_items:
            subs = ", ".join(s.label for s in rule.sub_items)
            out.append(indented(Text(f"Sub-items: {subs}", style=DIM), 2))
        if rule.also_ids:
            out.append(indented(Text("Also printed as: " + ", ".join(rule.also_ids), style=DIM), 2))
    if rel.same_number:
        out.append(indented(Text("Same number also printed as: " + ", ".join(rel.same_number), style=DIM)))
    if rel.fan_notes:
        out.append(indented(Text("The Outsiders adds", style="bold")))
        out += [indented(HitLines(h), 2) for h in rel.fan_notes]
    for title, lines in (("Refers to", rel.cross_refs), ("Referred to by", rel.backlinks)):
        if lines:
            out.append(indented(Text(title, style="bold")))
            out += [indented(ref_text(r), 2) for r in lines]
    if rel.citing:
        title = "Other rulings citing the same section" if rel.rules else "Rulings citing it"
        out.append(indented(Text(title, style="bold")))
        shown = rel.citing if full else rel.citing[:OTHERS_SHOWN]
        out += [indented(HitLines(h), 2) for h in shown]
        if len(rel.citing) > len(shown):
            out.append(indented(Text(f"+{len(rel.citing) - len(shown)} more", style=DIM), 2))
    if rel.nearby:
        out.append(indented(Text("On the same topic", style="bold")))
        out += [indented(HitLines(h), 2) for h in rel.nearby]
    return out


def render_record(view: RecordView) -> Group:
    """`rootfaq show`: a record in full, with everything related to it."""
    return Group(*record_head(view), *record_body(view), *related_block(view.related, full=True))
