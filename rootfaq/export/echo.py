"""What the cheat sheet echoes of the user's input (a format, a paper, a file name, a query) must not
reach a terminal as control sequences. `shown` is rootfaq.output.printable, the one sanitiser every
message uses, under the name the export modules call it by."""

from __future__ import annotations

from ..output import printable


def shown(text: object) -> str:
    r"""`text` with every control character spelled out: ESC as \x1b, a newline as \n, U+202E as \u202e."""
    return printable(str(text))
