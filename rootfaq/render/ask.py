"""`rootfaq ask` on the terminal: the answer, its provenance and related rules, then the other answers."""

from __future__ import annotations

from rich.console import Group

from ..views.ask import AskView
from ..views.common import HitLine
from .console import DIM, SECTION_HEADING, WARN, Text
from .record import _hits_block, _indent, record_body, record_head, related_block


def render_ask(view: AskView) -> Group:
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


def _likely(view: AskView) -> str:
    """' (the best match is 40% likely to be right)', from the calibrated probability."""
    if view.probability is None:
        return ""
    return f" (the best match is {round(100 * view.probability)}% likely to be right)"


def _parts_blocks(parts: list[AskView]) -> list:
    """A post that asks several questions: a block per question, each answered on its own."""
    out: list = [Text(f"Your post asks {len(parts)} questions; each is answered on its own.", style=DIM)]
    for number, part in enumerate(parts, start=1):
        out.append(Text())
        out.append(Text(f"Question {number}: {part.query}", style=SECTION_HEADING))
        out.append(_indent(render_ask(part)))
    return out


def render_more(hits: list[HitLine], remaining: int) -> Group:
    """Chat's :more: the next hits, one line each."""
    if not hits:
        return Group(Text("No more answers.", style=DIM))
    out = _hits_block("More answers", hits, limit=None)
    if remaining:
        out.append(Text(f"{remaining} more: type :more", style=DIM))
    out.append(Text(":show ID for one in full", style=DIM))
    return Group(*out)
