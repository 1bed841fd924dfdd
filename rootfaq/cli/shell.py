"""What every command line shares, typer or not: one way to report an error and choose the exit code,
JSON lines, standard input, the index with its notices on stderr.

Exit codes: 0 found, 1 nothing found, 2 usage, 3 corpus or index problem, 4 the system refused. Errors
print a message and a hint; a traceback only with --debug (or ROOTFAQ_DEBUG set). Both command-line paths
(the typer app and the fast `ask --json`, see rootfaq/cli/__init__.py) end in `exit_code_for`, so they
cannot drift apart.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

from ..api import LIMIT_MAX
from ..corpus.library import Library
from ..errors import EXIT_DATA, EXIT_FOUND, EXIT_SYSTEM, RootfaqError, UsageError
from ..search.index import OpenIndex
from ..search.posts import MAX_READ_CHARS

LIMIT_DEFAULT = 5
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


def debug_wanted(argv: list[str]) -> bool:
    """--debug anywhere before `--`, or ROOTFAQ_DEBUG set: tracebacks instead of one-line errors."""
    end = argv.index("--") if "--" in argv else len(argv)
    return "--debug" in argv[:end] or bool(os.environ.get("ROOTFAQ_DEBUG"))


def exit_code_for(exc: BaseException, debug: bool) -> int:
    """The one place that turns what went wrong into what the user sees and the exit code.

    A rootfaq error: its message and hint (with --debug, the traceback first). A reader that went away
    (`rootfaq records --json | head -1`): quiet, 0. Ctrl-C: 130. Anything else is a bug: one line and 3,
    or with --debug the exception itself.
    """
    if isinstance(exc, RootfaqError):
        if debug:
            import traceback

            traceback.print_exception(exc)
        report(exc.message, exc.hint)
        return exc.exit_code
    if isinstance(exc, BrokenPipeError):
        from ..output import silence_stdout

        silence_stdout()
        return EXIT_FOUND
    if isinstance(exc, KeyboardInterrupt):
        return INTERRUPTED
    if debug or not isinstance(exc, Exception):
        raise exc
    if isinstance(exc, MemoryError):
        report("out of memory", "close other programs, or raise the memory limit (ulimit -v)")
        return EXIT_SYSTEM
    if isinstance(exc, OSError) and exc.errno is not None:
        import os

        report(f"the system refused: {os.strerror(exc.errno).lower()}" + (f" ({exc.filename})" if exc.filename else ""),
               "free some room or check the output's destination, then run again")
        return EXIT_SYSTEM
    report(f"internal error: {type(exc).__name__}: {exc}", "run again with --debug to see the traceback")
    return EXIT_DATA


def report(message: str, hint: str = "") -> None:
    """A message (and its hint) on stderr, as every error and notice reads."""
    sys.stderr.write(error_lines(message, hint))
    sys.stderr.flush()


def error_lines(message: str, hint: str = "") -> str:
    """How every error reads on stderr: one line each, whatever the user typed into them."""
    from ..output import printable

    return f"rootfaq: {printable(message)}\n" + (f"hint: {printable(hint)}\n" if hint else "")


def json_line(obj) -> str:
    """One JSON object on one line, whatever the text holds.

    U+2028, U+2029 and NEL are escaped: line-splitting readers (Python's str.splitlines) treat them as
    line ends. Non-ASCII text stays readable unless stdout cannot encode it.
    """
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
    text = json.dumps(obj, ensure_ascii=encoding not in ("utf8", "utf8sig"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\u0085")


def write_json(obj) -> None:
    """Print one JSON line and flush it, so a reader sees each answer as soon as it is ready."""
    sys.stdout.write(json_line(obj) + "\n")
    sys.stdout.flush()


# An over-long line's rest is read past, not kept; a line running on past this is no question at all.
SKIPPED_CHARS_MAX = 64 * 1024 * 1024
SKIP_STEP = 64 * 1024
STDIN_HINT = "pipe a question or a forum post as plain text, or - and one question a line"


def stdin_lines() -> Iterator[str]:
    """Standard input's lines (`lines_of` its text, each read up to posts.MAX_READ_CHARS)."""
    if sys.stdin is None:  # closed (`rootfaq ask - <&-`): no lines
        return
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        yield from lines_of(sys.stdin, MAX_READ_CHARS)
        return
    text = decoded(stream)
    try:
        yield from lines_of(text, MAX_READ_CHARS)
    finally:
        if not stream.closed:  # the wrapper must not close stdin when it goes
            text.detach()


def decoded(stream):
    """A byte stream as text: UTF-16 after its byte-order mark (Windows' "Unicode" text files), else UTF-8
    (its mark dropped), undecodable bytes as U+FFFD; lines end at newlines only, never at \\r alone."""
    import codecs
    import io

    buffered = stream if hasattr(stream, "peek") else io.BufferedReader(stream)
    utf16 = buffered.peek(2)[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    return io.TextIOWrapper(buffered, encoding="utf-16" if utf16 else "utf-8-sig", errors="replace", newline="\n")


def lines_of(text, max_chars: int) -> Iterator[str]:
    """A text stream's lines without their ends (\\n or \\r\\n), in order. A line longer than `max_chars` comes
    as its first max_chars + 1 characters (search then says it was cut) and the rest is read past, never
    held: a stream without line breaks costs no memory. UsageError at a NUL byte, which no text holds (a
    binary file piped by mistake), or at a line running on past SKIPPED_CHARS_MAX."""
    for number, line in enumerate(iter(lambda: text.readline(max_chars + 1), ""), 1):
        _check_text(line, number)
        if len(line) > max_chars and not line.endswith("\n"):
            skipped = 0
            while (rest := text.readline(SKIP_STEP)) and not rest.endswith("\n"):
                _check_text(rest, number)
                skipped += len(rest)
                if skipped > SKIPPED_CHARS_MAX:
                    raise UsageError(f"line {number} of standard input runs on past {SKIPPED_CHARS_MAX:,} "
                                     "characters without a line break: no question is that long",
                                     STDIN_HINT)
            _check_text(rest, number)
        yield line.rstrip("\n").rstrip("\r")


def _check_text(text: str, number: int) -> None:
    if "\x00" in text:
        raise UsageError(f"standard input is not text: line {number} holds a NUL byte (a binary file?)",
                         STDIN_HINT)


def piped_question() -> str:
    """The question piped on stdin, its lines kept: a post's title, its lists and its questions one a line
    without "?" are found by where its lines break (posts.py), which folding them onto one line would lose.
    Read no further than search reads (posts.MAX_READ_CHARS): an endless pipe still gets its answer."""
    from contextlib import closing

    lines, size = [], 0
    with closing(stdin_lines()) as read:
        for line in read:
            lines.append(line.rstrip())
            size += len(line) + 1
            if size > MAX_READ_CHARS:
                break
    return "\n".join(lines).strip()


def stdin_is_piped() -> bool:
    """Standard input is a pipe or a file, not a terminal (nor missing)."""
    return sys.stdin is not None and _isatty(sys.stdin) is False


def stdin_is_terminal() -> bool:
    """Standard input is a terminal (not a pipe or a file, nor closed: `rootfaq chat <&-`)."""
    return sys.stdin is not None and _isatty(sys.stdin) is True


def _isatty(stream) -> bool | None:
    """Whether the stream is a terminal; None when it cannot say (closed, or not a real file)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return None


def question_words(words: list[str]) -> list[str]:
    """The question's words; without any, the question piped on stdin (`echo "hand limit" | rootfaq ask`).
    UsageError when there is no question either way."""
    if not words and stdin_is_piped():
        piped = piped_question()
        words = [piped] if piped else []
    if not words or not " ".join(words).strip():
        raise UsageError("no question given", 'rootfaq ask "can the cats build in a ruin?" (or - for stdin)')
    return words


def read_limit(value: str | int) -> int:
    """--limit as a whole number from 1 to LIMIT_MAX; UsageError saying what it takes otherwise."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= LIMIT_MAX:  # "²".isdigit() too
        raise UsageError(f"--limit takes a whole number from 1 to {LIMIT_MAX}, not '{value}'", "for example: -n 3")
    return int(text)


def encode_vectors_in_background(index: OpenIndex) -> None:
    """An index without record vectors (the shipped ones damaged), asked from a terminal: start
    `rootfaq index --vectors` in the background once, detached, so this question is answered by its words
    at once and later ones by meaning too; a command run meanwhile says how far it got. Scripts (no
    terminal) and an index kept only in memory get the notice's hint alone: nothing starts behind them."""
    import subprocess

    from ..search.dense import minutes_to_encode, missing_count
    from ..search.vector_cache import cache_folder, encoding_now

    try:
        if len(index.vectors.record_ids) or index.path is None or not sys.stderr.isatty():
            return
    except (AttributeError, ValueError, OSError, RootfaqError):  # no numpy: nothing to encode with
        return
    folder = cache_folder(index.path.parent)
    running = encoding_now(folder)
    if running is not None:
        done, total = running
        report(f"note: record vectors are being encoded in the background ({done:,} of {total:,} texts); "
               "answers use them once it finishes")
        return
    try:
        subprocess.Popen([sys.executable, "-m", "rootfaq", "index", "--vectors"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        report(f"note: could not start encoding the record vectors ({exc.strerror or exc})")
        return
    minutes = minutes_to_encode(missing_count(list(index.library.records.values()), {}))
    report(f"note: encoding the record vectors in the background (about {minutes} min; it resumes if "
           "stopped); answers use them once it finishes")


def open_index(rebuild: bool = False) -> OpenIndex:
    """The index, with its notices (rebuilt, damaged, ...) on stderr and progress on a terminal."""
    from ..output import terminal_progress
    from ..search import store

    index = store.open_index(rebuild=rebuild, progress=terminal_progress())
    for notice in index.notices:
        report(f"note: {notice}")
    return index


def resolve_factions(library: Library, names: list[str] | None) -> list[str] | None:
    """Faction keys for --faction values, or None when there are none; a misspelling taken as a faction
    is said on stderr ("note: read faction 'marquse' as Marquise de Cat")."""
    if not names:
        return None
    from ..views.factions import read_factions

    readings = read_factions(library, names)
    for reading in readings:
        if reading.note:
            report(f"note: {reading.note}")
    return [reading.key for reading in readings]
