"""Terminal output with rich: a console that follows the terminal, text that is always printable, the pager.

Everything is built from `Text` objects, never from markup strings, so brackets in the corpus print as
they are. Colour follows the terminal: plain text when the output is not a terminal or NO_COLOR is set.
The width follows the terminal; `make_console(width=80)` fixes it (goldens), as does COLUMNS.
"""

from __future__ import annotations

import os
import re
import shutil
import sys

from rich import text as rich_text
from rich.console import Console

from ..corpus.grades import GRADES
from ..output import printable


class Text(rich_text.Text):
    """rich's Text, with every string it is given made printable (output.printable): a question, an id or
    a path typed by the user can never reach the terminal as an escape sequence."""

    def __init__(self, text: str = "", *args, **kwargs):
        super().__init__(printable(text, lines=True), *args, **kwargs)

    def append(self, text, style=None):
        return super().append(printable(text, lines=True) if isinstance(text, str) else text, style)


def grade_style(grade: str) -> str:
    """A grade's colour (rootfaq/corpus/grades.py); none for a grade it does not know."""
    known = GRADES.get(grade)
    return known.style if known else ""


HEADING = "bold"
SECTION_HEADING = "bold underline"
DIM = "dim"
ID_STYLE = "cyan"
WARN = "bold yellow"
ERROR = "bold red"

INDENT = 2


def make_console(file=None, width: int | None = None, color: bool | None = None, stderr: bool = False) -> Console:
    """A console for our output.

    color None: colour only on a terminal and without NO_COLOR. width None: the terminal's (80 when
    the output is not a terminal, unless COLUMNS says otherwise).
    """
    kwargs: dict = {"highlight": False, "emoji": False, "markup": False, "soft_wrap": False}
    if width is None and os.environ.get("COLUMNS", "").strip().isdigit() and int(os.environ["COLUMNS"]) == 0:
        # rich would take COLUMNS=0 as a width of nothing and print nothing at all; the shell means "unknown"
        width = shutil.get_terminal_size((80, 24)).columns
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
