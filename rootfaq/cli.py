"""Command line: parses options, calls the library, prints. The only module that touches typer and exits."""

from __future__ import annotations

import json
import sys

import typer

from .errors import EXIT_NOTHING_FOUND, RootfaqError

app = typer.Typer(add_completion=True, no_args_is_help=False, help="Root rules companion.")


@app.callback()
def root(debug: bool = typer.Option(False, "--debug", help="Show tracebacks.")) -> None:
    """Root rules companion."""


@app.command()
def ask(
    question: str = typer.Argument(..., help="The question, or - to read one question per line from stdin."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=50),
    faction: list[str] | None = typer.Option(None, "--faction", "-f"),
    source: list[str] | None = typer.Option(None, "--source", "-s"),
    official: bool = typer.Option(False, "--official"),
) -> None:
    from . import search
    from .contract import answer_json

    index = search.open_index()
    factions = [search.resolve_faction(index, f) for f in faction or []]
    questions = sys.stdin.read().split("\n") if question == "-" else [question]
    if question == "-" and questions and questions[-1] == "":
        questions.pop()
    found = False
    for q in questions:
        answer = search.ask(index, q, factions=factions, sources=source, official=official, limit=limit)
        found = found or bool(answer.hits)
        print(json.dumps(answer_json(answer), ensure_ascii=False))
    if not found:
        raise typer.Exit(EXIT_NOTHING_FOUND)


def main() -> None:
    try:
        app()
    except RootfaqError as exc:
        print(f"rootfaq: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        sys.exit(exc.exit_code)
