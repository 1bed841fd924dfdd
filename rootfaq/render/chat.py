"""The chat's output on the terminal: its messages, its :help, and any view it shows."""

from __future__ import annotations

from rich.console import Group

from ..views.ask import AskView
from ..views.chat import Help, Message, More
from ..views.record import RecordView
from ..views.section import SectionView
from .ask import OPEN_BY_ID_IN_CHAT, OPEN_IN_CHAT, render_ask, render_more
from .browse import render_grades, render_section
from .console import DIM, ERROR, HEADING, ID_STYLE, WARN, Text
from .record import indented, render_record, styled_line


def render_message(text: str, kind: str = "info") -> Text:
    """A one-line message: info dim, warn yellow, error red."""
    style = {"error": ERROR, "warn": WARN, "info": DIM}.get(kind, "")
    return Text(text, style=style)


def render_help(commands: list[tuple[str, str]]) -> Group:
    """Chat's :help."""
    out: list = [Text("Type a rules question, or a section number. Commands:", style=HEADING)]
    for command, what in commands:
        out.append(indented(styled_line((f"{command:<22}", ID_STYLE), what)))
    return Group(*out)


def render_output(item):
    """The renderable for one item of the chat's output (a view or a message)."""

    if isinstance(item, Message):
        return render_message(item.text, item.kind)
    if isinstance(item, AskView):  # the candidates of one question open by number; a post's by id
        return render_ask(item, OPEN_BY_ID_IN_CHAT if item.parts else OPEN_IN_CHAT)
    if isinstance(item, SectionView):
        return render_section(item)
    if isinstance(item, RecordView):
        return render_record(item)
    if isinstance(item, More):
        return render_more(item.hits, item.remaining)
    if isinstance(item, Help):
        return render_help(item.commands)
    if isinstance(item, list):
        return render_grades(item)
    raise TypeError(f"nothing renders {type(item).__name__}")
