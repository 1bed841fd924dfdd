"""`rootfaq ask --json`: one JSON object per question, for scripts and bots. No typer and no rich here.

    ask_json(["hand", "limit"], factions=[], sources=[], official=False, limit=5) -> exit code

Both command-line paths call it: the typer command and the fast path that serves `ask --json` without
loading typer (rootfaq/cli/fast.py).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

from ..api import Companion, Request
from ..corpus.records import check_sources
from ..errors import EXIT_FOUND, EXIT_NOTHING_FOUND, RootfaqError
from .shell import error_lines, open_index, question_words, resolve_factions, stdin_lines, write_json


def answer_lines(companion: Companion, questions: Iterable[str], request: Request,
                 debug: bool = False) -> Iterator[tuple[dict, bool]]:
    """(JSON object, confidently found) per question, in order; a question that fails still gets its object."""
    from ..views.contract import answer_json, failed_answer_json

    for number, question in enumerate(questions, 1):
        try:
            answer = companion.answer(question, request)
        except (RootfaqError, MemoryError):
            raise  # the index or shipped data failed (exit 3), or memory ran out: every other line would too
        except Exception as exc:  # one bad line must not cost the others their answers
            if debug:
                raise
            sys.stderr.write(error_lines(f"line {number}: {type(exc).__name__}: {exc}"))
            yield failed_answer_json(question, f"error: {type(exc).__name__}"), False
            continue
        yield answer_json(answer), answer.confident


def ask_json(words: list[str], factions: list[str], sources: list[str], official: bool, limit: int,
             debug: bool = False) -> int:
    """`rootfaq ask --json`: one object for the question, or one per stdin line with `-`. The exit code.

    Batch mode exits 0 once every line was answered (each object says what it found); a single
    question exits 1 when nothing answers it confidently (its guesses are still printed).
    """
    words = question_words(words)
    chosen_sources = check_sources(sources)
    index = open_index()
    keys = resolve_factions(index.library, factions) or ()
    request = Request(tuple(keys), tuple(chosen_sources or ()), official, limit)
    companion = Companion(index)
    if words == ["-"]:
        for obj, _found in answer_lines(companion, stdin_lines(), request, debug):
            write_json(obj)
        return EXIT_FOUND
    for obj, found in answer_lines(companion, [" ".join(words)], request, debug):
        write_json(obj)
        return EXIT_FOUND if found else EXIT_NOTHING_FOUND
    return EXIT_NOTHING_FOUND
