"""Safe output: what rootfaq echoes reaches a terminal as text, on any encoding, and a closed pipe is no error.

Everything a user typed (arguments, paths, questions) can come back in a message. `printable` is the
one sanitiser for it: control characters (ESC and the rest of C0 and C1), bidirectional overrides and
undecodable bytes become visible escapes (`\\x1b`, `\\u202e`, `\\udcff`), so no input can move the
cursor, retitle the window or reorder a line. JSON is never passed through it: json.dumps escapes
controls itself. A leaf module: no imports from the rest of rootfaq.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
import unicodedata

# Bidirectional embeddings, overrides and isolates, and the implicit marks ("Trojan Source").
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What a terminal would treat as a line break or a layout change besides \n and \t.
_BREAKS = frozenset("\u2028\u2029\x85")


def printable(text: str, lines: bool = False) -> str:
    """`text` with every character that could act on a terminal shown as an escape instead.

    lines=True keeps newlines and tabs (a record's paragraphs); otherwise the result is one line.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if lines and ch in "\n\t":
            out.append(ch)
        elif ch in _BIDI or ch in _BREAKS or unicodedata.category(ch) in ("Cc", "Cs"):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


_SHORT = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


# --- encodings ----------------------------------------------------------------------------------------------

# Typographic characters the renderings use, in plain ASCII.
_ASCII = {"·": "-", "›": ">", "‹": "<", "“": '"', "”": '"', "‘": "'", "’": "'", "…": "...", "–": "-",
          "—": "-", "→": "->", "§": "S", "×": "x", "\u00a0": " "}
ERRORS = "rootfaq-degrade"


def _degrade(error: UnicodeEncodeError):
    """Codec error handler: a character the output cannot encode becomes its ASCII look-alike or '?'."""
    replaced = []
    for ch in error.object[error.start : error.end]:
        plain = _ASCII.get(ch)
        if plain is None:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        replaced.append(plain)
    return "".join(replaced), error.end


codecs.register_error(ERRORS, _degrade)


class ClosedOutput(io.TextIOBase):
    """Standard output started closed (`rootfaq ask x >&-`): the first write fails as the system's own
    would (an OSError, which the command line reports as the system refusing, exit 4), so a command that
    prints nothing there runs as usual and one that does is never a traceback."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), "standard output, closed")

    def isatty(self) -> bool:
        return False


def prepare_streams() -> None:
    """Let stdout and stderr degrade on an encoding that cannot show everything (PYTHONIOENCODING=ascii);
    a closed stdout fails on its first write (ClosedOutput), a closed stderr takes messages nowhere."""
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  (the process's stderr from now on)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
        if encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=ERRORS)
            except (ValueError, OSError):  # a stream already in use or closed keeps its settings
                pass


def silence_stdout() -> None:
    """The reader went away (`rootfaq records --json | head -1`): send what is left to the null device.

    Without this, the interpreter's final flush of stdout fails again and prints a warning.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (tests): nothing to flush
        pass


def terminal_progress():
    """A progress callback for stderr on a terminal, or None when stderr is not one (scripts and logs
    keep a clean stderr: they get only the notices).

    `progress(message, last=False)`: each message replaces the one before on the same line (a step, or a
    count that goes up); the last one stays, with a newline.
    """
    stream = sys.stderr
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None

    def show(message: str, last: bool = False) -> None:
        stream.write("\r\x1b[K" + printable(message) + ("\n" if last else ""))
        stream.flush()

    return show
