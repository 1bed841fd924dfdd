"""What the cheat sheet echoes of the user's input (a format, a paper, a file name, a query) must not
reach a terminal as control sequences: `shown` spells control characters out visibly instead."""

from __future__ import annotations

import unicodedata

# Bidirectional overrides and isolates reorder what follows them on screen ("Trojan source").
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def shown(text: object) -> str:
    r"""`text` with every control character spelled out: ESC as \x1b, a newline as \x0a, U+202E as \u202e."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)
