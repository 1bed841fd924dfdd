"""Answers for scripts: `rootfaq ask --json QUESTION` and `rootfaq ask --json -` (one question per line).

No typer and no rich here. `cli.ask` prints its JSON through these functions, and `run_fast` serves the
same command line without loading typer at all: typer 0.29 imports pydantic (about 100 ms) to coerce any
option value, which would more than double the cold start of the call scripts and bots make most.
`run_fast` takes only command lines it understands completely and leaves everything else (--help,
--debug, an unknown option, a --limit out of range) to the typer app. tests/test_cli.py checks that both
paths print the same thing and exit with the same code.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..corpus.records import SOURCES
from ..errors import EXIT_DATA, EXIT_FOUND, EXIT_NOTHING_FOUND, IndexError_, RootfaqError, UsageError

LIMIT_DEFAULT = 5
LIMIT_MAX = 50


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


def error_lines(message: str, hint: str = "") -> str:
    """How every error reads on stderr: one line each, whatever the user typed into them."""
    from ..output import printable

    return f"rootfaq: {printable(message)}\n" + (f"hint: {printable(hint)}\n" if hint else "")


def stdin_lines() -> Iterator[str]:
    """Standard input split on newlines only (not on \\r alone, U+2028 or form feeds), decoded leniently."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        for line in sys.stdin:
            yield line.rstrip("\n").rstrip("\r")
        return
    for raw in stream:
        yield raw.decode("utf-8", "replace").rstrip("\n").rstrip("\r")


def stdin_is_piped() -> bool:
    """Standard input is a pipe or a file, not a terminal (nor missing)."""
    try:
        return sys.stdin is not None and not sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def question_words(words: list[str]) -> list[str]:
    """The question's words; without any, the question piped on stdin (`echo "hand limit" | rootfaq ask`).
    UsageError when there is no question either way."""
    if not words and stdin_is_piped():
        piped = " ".join(line.strip() for line in stdin_lines()).strip()
        words = [piped] if piped else []
    if not words or not " ".join(words).strip():
        raise UsageError("no question given", 'rootfaq ask "can the cats build in a ruin?" (or - for stdin)')
    return words


def read_limit(value: str | int) -> int:
    """--limit as a whole number from 1 to LIMIT_MAX; UsageError saying what it takes otherwise."""
    text = str(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= LIMIT_MAX:
        raise UsageError(f"--limit takes a whole number from 1 to {LIMIT_MAX}, not '{value}'", "for example: -n 3")
    return int(text)


def check_sources(sources: list[str] | None) -> list[str] | None:
    """The --source values, checked; UsageError for an unknown one."""
    for source in sources or []:
        if source not in SOURCES:
            raise UsageError(f"unknown source '{source}'", "sources are: " + ", ".join(SOURCES))
    return list(sources) if sources else None


def empty_answer(query: str, notice: str) -> dict:
    """The object a line gets when answering it failed: same keys, no hits."""
    return {"query": query, "confident": False, "probability": None, "hits": [], "notices": [notice],
            "corrections": {}, "factions": [], "playing": None, "reference": None, "parts": []}


def answer_lines(
    index,
    questions: Iterable[str],
    factions: list[str] | None,
    sources: list[str] | None,
    official: bool,
    limit: int,
    debug: bool = False,
) -> Iterator[tuple[dict, bool]]:
    """(JSON object, confidently found) per question, in order; a question that fails still gets its object."""
    from ..search import answers as search
    from ..views.contract import answer_json

    for number, question in enumerate(questions, 1):
        try:
            answer = search.ask_repairing(index, question, factions=factions, sources=sources, official=official,
                                          limit=limit)
        except IndexError_:
            raise  # the index failed even after a rebuild: every other line would fail the same way
        except Exception as exc:  # one bad line must not cost the others their answers
            if debug:
                raise
            sys.stderr.write(error_lines(f"line {number}: {type(exc).__name__}: {exc}"))
            yield empty_answer(question, f"error: {type(exc).__name__}"), False
            continue
        yield answer_json(answer), answer.confident


def open_index_quietly():
    """The index, with its notices (rebuilt, damaged, ...) on stderr."""
    from ..output import terminal_progress
    from ..search import store

    index = store.open_index(progress=terminal_progress())
    for notice in index.notices:
        sys.stderr.write(error_lines(f"note: {notice}"))
    return index


def resolve_factions(index, names: list[str] | None) -> list[str] | None:
    """Faction keys for --faction values, or None when there are none; a misspelling taken as a faction
    is said on stderr ("note: read faction 'marquse' as Marquise de Cat")."""
    if not names:
        return None
    from ..views.factions import read_factions

    readings = read_factions(index, names)
    for reading in readings:
        if reading.note:
            sys.stderr.write(error_lines(f"note: {reading.note}"))
    return [reading.key for reading in readings]


def ask_json(words: list[str], factions: list[str], sources: list[str], official: bool, limit: int,
             debug: bool = False) -> int:
    """`rootfaq ask --json`: one object for the question, or one per stdin line with `-`. The exit code.

    Batch mode exits 0 once every line was answered (each object says what it found); a single
    question exits 1 when nothing answers it confidently (its guesses are still printed).
    """
    words = question_words(words)
    chosen_sources = check_sources(sources)
    index = open_index_quietly()
    keys = resolve_factions(index, factions)
    if words == ["-"]:
        for obj, _found in answer_lines(index, stdin_lines(), keys, chosen_sources, official, limit, debug):
            write_json(obj)
        return EXIT_FOUND
    for obj, found in answer_lines(index, [" ".join(words)], keys, chosen_sources, official, limit, debug):
        write_json(obj)
        return EXIT_FOUND if found else EXIT_NOTHING_FOUND
    return EXIT_NOTHING_FOUND


# --- the command line without typer -------------------------------------------------------------------------


@dataclass
class FastAsk:
    words: list[str] = field(default_factory=list)
    factions: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    official: bool = False
    limit: int = LIMIT_DEFAULT
    json: bool = False


_VALUED = {"--faction": "factions", "-f": "factions", "--source": "sources", "-s": "sources",
           "--limit": "limit", "-n": "limit"}


def parse_fast(argv: list[str]) -> FastAsk | None:
    """`ask --json ...` as the typer command would read it, or None for anything else or anything unsure.
    --no-pager may stand anywhere (JSON is never paged); --debug, -V and --version go to typer."""
    while argv and argv[0] == "--no-pager":
        argv = argv[1:]
    if not argv or argv[0] != "ask":
        return None
    parsed = FastAsk()
    args = iter(argv[1:])
    only_words = False
    for arg in args:
        if only_words or arg == "-" or not arg.startswith("-"):
            parsed.words.append(arg)
        elif arg == "--":
            only_words = True
        elif arg == "--json":
            parsed.json = True
        elif arg == "--official":
            parsed.official = True
        elif arg == "--no-pager":
            continue
        else:
            name, eq, value = arg.partition("=")
            if name not in _VALUED or (eq and not name.startswith("--")):
                return None  # help, debug, bundled short options, typos: typer says what is wrong
            if not eq:
                value = next(args, None)
                if value is None:
                    return None
            target = _VALUED[name]
            if target == "limit":
                try:
                    parsed.limit = read_limit(value)
                except UsageError:
                    return None  # typer's path says what is wrong, in the same words
            else:
                getattr(parsed, target).append(value)
    return parsed if parsed.json else None


def run_fast(argv: list[str]) -> int | None:
    """Serve `rootfaq ask --json ...` without typer; None when the typer app must handle the line."""
    parsed = parse_fast(argv)
    if parsed is None:
        return None
    try:
        return ask_json(parsed.words, parsed.factions, parsed.sources, parsed.official, parsed.limit)
    except RootfaqError as exc:
        sys.stderr.write(error_lines(exc.message, exc.hint))
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        from ..output import silence_stdout

        silence_stdout()
        return EXIT_FOUND
    except Exception as exc:
        sys.stderr.write(error_lines(f"internal error: {type(exc).__name__}: {exc}",
                                     "run again with --debug to see the traceback"))
        return EXIT_DATA

