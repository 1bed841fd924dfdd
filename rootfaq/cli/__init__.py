"""The command line: the only layer that touches typer, reads the process's arguments and exits.

`main` is the one entry point (`rootfaq` and `python -m rootfaq` run it through `run`): `ask --json` is
served by the fast parser (fast.py, no typer), every other command line by the typer app (app.py). Both
report errors and choose the exit code in one place, shell.exit_code_for.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def main(argv: list[str] | None = None) -> int:
    """Run one command line; return its exit code (0 found, 1 nothing found, 2 usage, 3 corpus or index)."""
    args = sys.argv[1:] if argv is None else argv
    if "ask" in args[:2]:  # it will encode a question: begin loading the model while the rest is imported
        from ..search.encoder import start_loading

        start_loading()
    from ..output import prepare_streams
    from .fast import parse_fast
    from .shell import debug_wanted, exit_code_for

    prepare_streams()  # an output encoding that cannot show everything degrades instead of failing
    debug = debug_wanted(args)
    try:
        fast = parse_fast(args)
        if fast is not None:
            from .asking import ask_json

            return ask_json(fast.words, fast.factions, fast.sources, fast.official, fast.limit, debug=debug)
        from .app import run_app

        return run_app(args)
    except BaseException as exc:  # noqa: B036  (SystemExit included: run_app returns the codes it expects)
        if isinstance(exc, SystemExit):
            raise
        return exit_code_for(exc, debug)


def run() -> NoReturn:
    """The `rootfaq` script and `python -m rootfaq`: run the command line, then end the process."""
    finish(main())


def finish(code: int) -> NoReturn:
    """End the process with `code`, its output flushed. Freeing the interpreter's modules one by one
    (onnxruntime's and numpy's libraries, the index's objects) took 30 to 40 ms of the 300 a cold `ask` took
    (measured, `docs/levers.md`), and the operating system frees them at once; so that teardown is
    skipped when nothing can still need it: no other thread running, no exit handler registered, the
    streams flushed. Otherwise the usual exit, with all of it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: the usual exit reports it as it always has
        sys.exit(code)
    callbacks = getattr(atexit, "_ncallbacks", None)  # CPython's count of exit handlers
    if callbacks is not None and callbacks() == 0 and threading.active_count() == 1:
        os._exit(code)
    sys.exit(code)
