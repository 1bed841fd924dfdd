"""`rootfaq ask` on the terminal: the answer, its provenance and related rules, then the other answers."""

from __future__ import annotations

from rich.console import Group

from ..views.ask import AskView
from ..views.common import HitLine
from .console import DIM, SECTION_HEADING, WARN, Text
from .record import HitLines, hits_block, indented, record_body, record_head, related_block

OPEN_FROM_SHELL = "rootfaq show ID opens one."
OPEN_IN_CHAT = "Type 1, 2 or 3 to open one (:show ID for any)."
OPEN_BY_ID_IN_CHAT = ":show ID opens one."  # a post's questions each have candidates: numbers would repeat


def render_ask(view: AskView, opener: str = OPEN_FROM_SHELL) -> Group:
    """`rootfaq ask`: the answer, its provenance, related rules, then other possible answers. When not sure,
    asks back with the candidates (`opener` says how to open one); a post asking several questions gets a
    block each."""
    out: list = []
    for wrong, right in view.corrections.items():
        out.append(Text(f"Read “{wrong}” as “{right}”.", style=DIM))
    for notice in view.notices:
        out.append(Text(f"note: {notice}", style=DIM))
    if view.filters:
        out.append(Text("Filter: " + "; ".join(view.filters), style=DIM))
    if view.parts:
        return Group(*out, *_parts_blocks(view.parts, opener))
    if view.unanswered:
        out.append(Text(f"Nothing in the sources answers “{view.asked}” clearly{view.likely_note}.", style=WARN))
        out.append(Text("Try a section number (rootfaq section 4.3.2), browse a faction (rootfaq list --faction "
                        f"{view.browse_faction or 'cats'}), or ask with other words.", style=DIM))
        return Group(*out)
    if view.candidates:
        return Group(*out, *_ask_back(view, opener))
    if view.best is None:
        out.append(Text(f"Nothing found for “{view.asked}”." if view.asked else "Nothing found.", style=WARN))
        out.append(Text("Try fewer words, a faction nickname (cats, birds, WA), or a section number like 4.3.2.",
                        style=DIM))
        return Group(*out)
    if out:
        out.append(Text())
    out += record_head(view.best)
    out += record_body(view.best, sub_item_text=False)
    out += related_block(view.best.related, full=False)
    if view.others:
        out.append(Text())
        out += hits_block("Other possible answers", view.others)
    return Group(*out)


def _ask_back(view: AskView, opener: str) -> list:
    """Not sure: "Did you mean", the candidates one line each and numbered; the likeliest in full below
    them when it is likely enough."""
    out: list = [Text(f"Not sure what answers “{view.asked}”{view.likely_note}. Did you mean:", style=WARN)]
    for number, line in enumerate(view.candidates, start=1):
        out.append(indented(HitLines(line, f"{number}  ")))
    out.append(Text(opener, style=DIM))
    if view.best is not None:
        out.append(Text())
        out.append(Text("The likeliest, 1:", style=SECTION_HEADING))
        out += record_head(view.best)
        out += record_body(view.best, sub_item_text=False)
    return out



def _parts_blocks(parts: list[AskView], opener: str) -> list:
    """A post that asks several questions: a block per question, each answered on its own."""
    out: list = [Text(f"Your post asks {len(parts)} questions; each is answered on its own.", style=DIM)]
    for number, part in enumerate(parts, start=1):
        out.append(Text())
        out.append(Text(part.part_heading(number), style=SECTION_HEADING))
        out.append(indented(render_ask(part, opener)))
    return out


def render_more(hits: list[HitLine], remaining: int) -> Group:
    """Chat's :more: the next hits, one line each."""
    if not hits:
        return Group(Text("No more answers.", style=DIM))
    out = hits_block("More answers", hits, limit=None)
    if remaining:
        out.append(Text(f"{remaining} more: type :more", style=DIM))
    out.append(Text(":show ID for one in full", style=DIM))
    return Group(*out)
