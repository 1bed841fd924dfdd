"""What the typer commands share: settings from the root options, errors mapped to exit codes, the index,
printing, and the options several commands take."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass

import typer

from ..corpus.grades import GRADE_LABELS, OFFICIAL_GRADES, OFFICIAL_IN_WORDS
from ..errors import RootfaqError
from ..search.index import OpenIndex
from .shell import exit_code_for, report, stdin_is_terminal, write_json

GRADES_HELP = "Grades, strongest first: " + "; ".join(GRADE_LABELS.values()) + (
    ". --official keeps " + ", ".join(g for g in GRADE_LABELS if g in OFFICIAL_GRADES) + ". Legend: rootfaq grades."
)


@dataclass
class Settings:
    debug: bool = False
    pager: bool = True


def settings(ctx: typer.Context) -> Settings:
    root = ctx.find_root()
    return root.obj if isinstance(root.obj, Settings) else Settings()


@contextmanager
def errors(ctx: typer.Context):
    """Turn rootfaq errors into a message, a hint and their exit code (shell.exit_code_for); with --debug
    they go on to the entry point, which prints the traceback. A reader that went away ends quietly with 0.
    """
    try:
        yield
    except (RootfaqError, BrokenPipeError) as exc:
        if settings(ctx).debug and isinstance(exc, RootfaqError):
            raise
        raise typer.Exit(exit_code_for(exc, debug=False)) from None


def repaired(index: OpenIndex, build):
    """A view whose related rules search the index: rebuilt once if whoosh fails (index.repairing)."""
    before = len(index.notices)
    view = index.repairing(build)
    for notice in index.notices[before:]:
        report(f"note: {notice}")
    return view


def console():
    from ..render.console import make_console

    return make_console()


def emitted_json(view, as_json: bool) -> bool:
    """With --json, the view as one JSON line, and True; else False, and the command draws it (importing its
    renderer then, so JSON output never loads rich)."""
    if as_json:
        write_json(view.to_json())
    return as_json


def print_screen(ctx: typer.Context, renderable) -> None:
    from ..render.console import print_out

    print_out(console(), renderable, pager=settings(ctx).pager)


def complete_faction(incomplete: str):
    """Shell completion for --faction: faction keys and one-word nicknames."""
    try:
        from ..search import store
        from ..views.factions import faction_completions

        return faction_completions(store.open_index().library, incomplete)
    except Exception:  # completion must never print a traceback into the shell
        return []


def is_terminal() -> bool:
    return stdin_is_terminal() and sys.stdout is not None and sys.stdout.isatty()


FACTION_OPTION = typer.Option(
    None, "--faction", "-f", metavar="NAME", autocompletion=complete_faction,
    help="Only records about this faction (name or nickname: cats, birds, WA, vaga). Repeatable.",
)
SOURCE_OPTION = typer.Option(
    None, "--source", "-s", metavar="SOURCE", help="Only this source: faq, law or outsiders. Repeatable."
)
OFFICIAL_OPTION = typer.Option(False, "--official", help=f"Only {OFFICIAL_IN_WORDS}.")
JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")
