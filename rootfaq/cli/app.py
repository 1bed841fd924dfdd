"""The typer app: the root options and every command, registered in the order `rootfaq --help` lists them.

Heavy modules (search, rich, whoosh) load inside the commands, so `rootfaq --help` starts fast. The entry
point (rootfaq/cli/__init__.py) sends every command line here except `ask --json`.
"""

from __future__ import annotations

import os
import sys

import typer

from .. import __version__
from ..errors import EXIT_FOUND, EXIT_USAGE
from . import commands
from .common import GRADES_HELP, Settings, is_terminal
from .conventions import RootfaqCommand, RootfaqGroup
from .shell import piped_question, stdin_is_piped


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rootfaq {__version__}")
        raise typer.Exit()

app = typer.Typer(
    cls=RootfaqGroup,
    help="Root rules companion: ask in plain words, get the ruling and where it comes from.\n\n"
    "Run without arguments in a terminal to chat; a question without a command is asked.\n\n"
    "\b\nExamples:\n"
    '  rootfaq ask "can the cats build in a ruin?"\n'
    '  rootfaq "can cats build in ruins"\n'
    "  rootfaq section bp 2.5 iv\n"
    "  rootfaq show faq-108\n"
    "  rootfaq list --faction birds\n"
    "\b\nExit codes: 0 found, 1 nothing found, 2 usage, 3 corpus or index problem, 4 the system refused (a full disk).",
    add_completion=True,
    rich_markup_mode=None,  # plain help: no rich import for --help
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks of errors."),
    no_pager: bool = typer.Option(False, "--no-pager", help="Never page long output."),
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Print the version."),
) -> None:
    """Root rules companion."""
    ctx.obj = Settings(debug=debug or bool(os.environ.get("ROOTFAQ_DEBUG")), pager=not no_pager)
    if ctx.invoked_subcommand is not None:
        return
    if is_terminal():
        ctx.invoke(commands.chat, ctx=ctx, faction=None)
        return
    piped = piped_question() if stdin_is_piped() else ""
    if piped:  # `echo "hand limit" | rootfaq`: asked, as with `rootfaq ask`
        ctx.invoke(commands.ask, ctx=ctx, question=[piped], as_json=False, faction=[], source=[], official=False,
                   limit="5")
        return
    typer.echo(ctx.get_help())
    raise typer.Exit(EXIT_USAGE)


# (summary in the command list, name when it differs from the function's, command)
COMMANDS = (
    ("Answer a rules question: the ruling, its source, related rules", None, commands.ask),
    ("Show a rule by number, with its sub-items and rulings", None, commands.section),
    ("Show one record in full", None, commands.show),
    ("Browse a faction's or a topic's rulings and sections", "list", commands.list_),
    ("Explain the grade badges, strongest first", None, commands.grades),
    ("Count records, grades and flags per source", None, commands.sources),
    ("List every record, one line or one JSON object each", None, commands.records),
    ("Build the search index, or rebuild it", None, commands.index),
    ("Ask question after question at a prompt", None, commands.chat),
    ("Write a printable cheat sheet for the factions at the table", None, commands.cheatsheet),
    ("Serve the answers as a web page for the phones at the table", None, commands.serve),
)
for summary, name, command in COMMANDS:
    epilog = GRADES_HELP if command is commands.ask else None
    app.command(name, cls=RootfaqCommand, short_help=summary, epilog=epilog)(command)


def run_app(args: list[str]) -> int:
    """The typer app on these arguments; its exit code. Errors it does not map itself reach the entry point."""
    try:
        app(args=args, prog_name="rootfaq")
    except SystemExit as exc:
        # click met a closed pipe itself (--help, --version): it wraps stdout, then exits 1.
        if exc.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            from ..output import silence_stdout

            silence_stdout()
            return EXIT_FOUND
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return EXIT_FOUND
