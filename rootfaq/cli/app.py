"""Command line: parses options, calls the library, prints. The only module that touches typer and exits.

Exit codes: 0 found, 1 nothing found, 2 usage, 3 corpus or index problem. Errors print a message and
a hint; a traceback only with --debug. Heavy modules (search, rich, whoosh) load inside the commands,
so `rootfaq --help` starts fast and `ask --json` never loads rich.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..corpus.records import GRADE_LABELS, OFFICIAL_GRADES
from ..errors import EXIT_DATA, EXIT_FOUND, EXIT_NOTHING_FOUND, EXIT_USAGE, RootfaqError

GRADES_HELP = "Grades, strongest first: " + "; ".join(GRADE_LABELS.values()) + (
    ". --official keeps " + ", ".join(g for g in GRADE_LABELS if g in OFFICIAL_GRADES) + ". Legend: rootfaq grades."
)

# Options of the whole program, accepted after the command too (`rootfaq ask x --no-pager`).
GLOBAL_FLAGS = ("--debug", "--no-pager", "-V", "--version")
_ROOT_ONLY = ("-h", "--help", "--install-completion", "--show-completion")


class RootfaqGroup(TyperGroup):
    """The command line as players type it: global flags anywhere before `--`, and a bare question
    (`rootfaq "can cats build in ruins"`) asked as `rootfaq ask ...`, unless its one word is a mistyped
    command ("lsit"), which gets the usual "Did you mean 'list'?"."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        args = hoist_global_flags(args)
        if not ctx.resilient_parsing:
            args = route_bare_question(args, self.commands)
        return super().parse_args(ctx, args)


def hoist_global_flags(args: list[str]) -> list[str]:
    """Global flags moved in front of the command; anything after `--` is left as it is."""
    end = args.index("--") if "--" in args else len(args)
    flags = [a for a in args[:end] if a in GLOBAL_FLAGS]
    return flags + [a for a in args[:end] if a not in GLOBAL_FLAGS] + args[end:]


def route_bare_question(args: list[str], commands: dict) -> list[str]:
    """`ask` put in front of a question typed without it (see RootfaqGroup)."""
    import difflib

    start = 0
    while start < len(args) and args[start] in GLOBAL_FLAGS + _ROOT_ONLY:
        start += 1
    if start == len(args) or args[start] in commands:
        return args
    first = args[start]
    if first.startswith("-") and first != "-":
        ask_options = {opt for param in commands["ask"].params for opt in param.opts}
        if first.split("=")[0] not in ask_options:
            return args  # an unknown option: click says so
    elif " " not in first and difflib.get_close_matches(first, list(commands), n=1):
        return args  # "lsit": a mistyped command, not a question
    return args[:start] + ["ask"] + args[start:]


class RootfaqCommand(TyperCommand):
    """Help like ripgrep's or gh's: arguments by name (QUESTION..., REF...), without Python types."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_argument_name(p, usage=True) for p in self.get_params(ctx) if _is_argument(p)]

    def format_options(self, ctx, formatter) -> None:
        arguments = [(_argument_name(p), p.help or "") for p in self.get_params(ctx) if _is_argument(p)]
        options = [p.get_help_record(ctx) for p in self.get_params(ctx) if p.param_type_name == "option"]
        for title, rows in (("Arguments", arguments), ("Options", [r for r in options if r])):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _is_argument(param) -> bool:
    return param.param_type_name == "argument"


def _argument_name(param, usage: bool = False) -> str:
    name = param.metavar or param.name.upper()
    if usage and not param.required:
        name = f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")


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
    "\b\nExit codes: 0 found, 1 nothing found, 2 usage, 3 corpus or index problem.",
    add_completion=True,
    rich_markup_mode=None,  # plain help: no rich import for --help
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@dataclass
class Settings:
    debug: bool = False
    pager: bool = True


def _settings(ctx: typer.Context) -> Settings:
    root = ctx.find_root()
    return root.obj if isinstance(root.obj, Settings) else Settings()


def _err(message: str, hint: str = "") -> None:
    from .batch import error_lines

    sys.stderr.write(error_lines(message, hint))
    sys.stderr.flush()


@contextmanager
def _errors(ctx: typer.Context):
    """Turn rootfaq errors into a message, a hint and their exit code (a traceback only with --debug).

    A reader that went away (`rootfaq records --json | head -1`) ends the command quietly with 0.
    """
    try:
        yield
    except RootfaqError as exc:
        if _settings(ctx).debug:
            raise
        _err(exc.message, exc.hint)
        raise typer.Exit(exc.exit_code) from None
    except BrokenPipeError:
        from ..output import silence_stdout

        silence_stdout()
        raise typer.Exit(EXIT_FOUND) from None


def _open_index(rebuild: bool = False):
    from ..output import terminal_progress
    from ..search import store

    index = store.open_index(rebuild=rebuild, progress=terminal_progress())
    for notice in index.notices:
        _err(f"note: {notice}")
    return index


def _repaired(index, build):
    """A view whose related rules search the index: rebuilt once if whoosh fails (index.repairing)."""
    before = len(index.notices)
    view = index.repairing(build)
    for notice in index.notices[before:]:
        _err(f"note: {notice}")
    return view


def _console():
    from ..render.console import make_console

    return make_console()


def _print(ctx: typer.Context, renderable) -> None:
    from ..render.console import print_out

    print_out(_console(), renderable, pager=_settings(ctx).pager)


def _emit_json(obj) -> None:
    from .batch import write_json

    write_json(obj)


def _complete_faction(incomplete: str):
    """Shell completion for --faction: faction keys and one-word nicknames."""
    from ..views.factions import faction_completions

    try:
        from ..search import store

        return faction_completions(store.open_index(), incomplete)
    except Exception:  # completion must never print a traceback into the shell
        return []


def _check_sources(sources: list[str] | None) -> list[str] | None:
    from .batch import check_sources

    return check_sources(sources)


def _factions(index, names: list[str] | None) -> list[str] | None:
    from .batch import resolve_factions

    return resolve_factions(index, names)


def _is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _command(summary: str, name: str | None = None, **kwargs):
    """Register a command: its one-line summary for the command list, its help without Python types."""
    return app.command(name, cls=RootfaqCommand, short_help=summary, **kwargs)


FACTION_OPTION = typer.Option(
    None, "--faction", "-f", metavar="NAME", autocompletion=_complete_faction,
    help="Only records about this faction (name or nickname: cats, birds, WA, vaga). Repeatable.",
)
SOURCE_OPTION = typer.Option(
    None, "--source", "-s", metavar="SOURCE", help="Only this source: faq, law or outsiders. Repeatable."
)
OFFICIAL_OPTION = typer.Option(False, "--official", help="Only Law text, rulebook, designer and publisher rulings.")
JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")


# --- root ---------------------------------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rootfaq {__version__}")
        raise typer.Exit()


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
    if _is_terminal():
        ctx.invoke(chat, ctx=ctx, faction=None)
        return
    typer.echo(ctx.get_help())
    raise typer.Exit(EXIT_USAGE)


# --- ask ----------------------------------------------------------------------------------------------------


@_command("Answer a rules question: the ruling, its source, related rules", epilog=GRADES_HELP)
def ask(
    ctx: typer.Context,
    question: list[str] = typer.Argument(
        None, metavar="QUESTION",
        help="The question (quotes optional), or - to read one question per line from stdin. Without it, a "
        "question piped on stdin is asked.",
    ),
    as_json: bool = JSON_OPTION,
    faction: list[str] = FACTION_OPTION,
    source: list[str] = SOURCE_OPTION,
    official: bool = OFFICIAL_OPTION,
    limit: str = typer.Option(
        "5", "--limit", "-n", metavar="N", help="How many answers (the best, then others), 1 to 50."
    ),
) -> None:
    """Answer a rules question: the ruling, who made it and when, the rule it rests on.

    \b
    Examples:
      rootfaq ask "can the cats build in a ruin?"
      rootfaq ask does field hospitals work against a revolt
      rootfaq ask --faction birds --official "turmoil"
      rootfaq ask 4.3.2
      rootfaq ask --json "hand limit"
      printf 'hand limit\\nbp 2.5\\n' | rootfaq ask --json -
      echo "hand limit" | rootfaq ask

    With -, every input line gets exactly one output line, in order, blank lines included; the exit
    code is then 0 once every line was answered.
    """
    with _errors(ctx):
        from ..render.ask import render_ask
        from ..render.console import make_console, rendered
        from ..views.ask import ask_view
        from ..views.common import filter_labels
        from .batch import question_words, read_limit

        words = list(question or [])
        limit = read_limit(limit)
        if as_json:
            from .batch import ask_json

            code = ask_json(words, faction or [], source or [], official, limit, debug=_settings(ctx).debug)
            if code:
                raise typer.Exit(code)
            return
        words = question_words(words)
        sources = _check_sources(source)
        index = _open_index()
        factions = _factions(index, faction)
        from ..search import answers as search

        filters = filter_labels(index, factions, sources, official)
        if words == ["-"]:
            from .batch import stdin_lines

            console = make_console()
            for line in stdin_lines():
                answer = search.ask_repairing(index, line, factions=factions, sources=sources, official=official,
                                              limit=limit)
                console.file.write(rendered(console, render_ask(
                    ask_view(index, answer, others=limit - 1, filters=filters))) + "\n")
                console.file.flush()
            return
        answer = search.ask_repairing(index, " ".join(words), factions=factions, sources=sources,
                                      official=official, limit=limit)
        _print(ctx, render_ask(ask_view(index, answer, others=limit - 1, filters=filters)))
        if not answer.confident:  # guesses are shown, but nothing answers the question clearly
            raise typer.Exit(EXIT_NOTHING_FOUND)


# --- section, show, list ------------------------------------------------------------------------------------


@_command("Show a rule by number, with its sub-items and rulings")
def section(
    ctx: typer.Context,
    ref: list[str] = typer.Argument(
        ..., metavar="REF", help="A section number in any form: 4.3.2, bp 2.5 iv, BP.2.5iv, §7.2.2."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Show a rule with its sub-items and path, the rulings that cite it and the sections that refer to it.

    \b
    Examples:
      rootfaq section 4.3.2
      rootfaq section bp 2.5 iv
      rootfaq section "section 8.2.6" --json

    An unknown number suggests the nearest existing ones (exit code 1).
    """
    with _errors(ctx):
        from ..render.browse import render_section
        from ..search import answers as search
        from ..views.section import section_view

        index = _open_index()
        view = section_view(index, " ".join(ref), nearest_refs=search.nearest_refs)
        if as_json:
            _emit_json(view.to_json())
        else:

            _print(ctx, render_section(view))
        if not view.found:
            raise typer.Exit(EXIT_NOTHING_FOUND)


@_command("Show one record in full")
def show(
    ctx: typer.Context,
    record_id: str = typer.Argument(..., metavar="ID", help="A record id: faq-108 (or 108), law-01, rule-BP.2.5."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Show one record in full: text, provenance, path, sub-items and related rules.

    \b
    Examples:
      rootfaq show faq-108
      rootfaq show 108
      rootfaq show rule-BP.2.5 --json
    """
    with _errors(ctx):

        from ..render.record import render_record
        from ..views.record import record_view
        from ..views.show import resolve_id

        index = _open_index()
        view = _repaired(index, lambda: record_view(index, resolve_id(index, record_id)))
        if as_json:
            _emit_json(view.to_json())
        else:

            _print(ctx, render_record(view))


@_command("Browse a faction's or a topic's rulings and sections", "list")
def list_(
    ctx: typer.Context,
    faction: str = typer.Option(None, "--faction", "-f", metavar="NAME", help="A faction name or nickname.",
                                autocompletion=_complete_faction),
    topic: str = typer.Option(
        None, "--topic", "-t", metavar="TOPIC", help="A topic: battle, crafting, hirelings, maps, ..."
    ),
    source: list[str] = SOURCE_OPTION,
    official: bool = OFFICIAL_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Browse a faction's (or a topic's) rulings and sections; without options, list factions and topics.

    \b
    Examples:
      rootfaq list
      rootfaq list --faction cats
      rootfaq list --faction "bone patrol" --source outsiders
      rootfaq list --topic hirelings --official --json
    """
    with _errors(ctx):

        from ..render.browse import render_list
        from ..views.listing import list_view

        sources = _check_sources(source)
        index = _open_index()
        key = _factions(index, [faction])[0] if faction is not None else None
        view = list_view(index, faction=key, topic=topic, sources=sources, official=official)
        if as_json:
            _emit_json(view.to_json())
        else:

            _print(ctx, render_list(view))
        if not view.found:
            raise typer.Exit(EXIT_NOTHING_FOUND)


@_command("Explain the grade badges, strongest first")
def grades(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
    """Explain the grade badges: where each answer comes from, strongest first.

    \b
    Example:
      rootfaq grades
    """
    with _errors(ctx):

        from ..render.browse import render_grades
        from ..views.grades import grade_legend

        legend = grade_legend()
        if as_json:
            _emit_json([line.to_json() for line in legend])
            return

        _print(ctx, render_grades(legend))


# --- the model: sources, records, index ---------------------------------------------------------------------


@_command("Count records, grades and flags per source")
def sources(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
    """Per source: record counts, the grade histogram and the flags; then cited sections no record holds.

    \b
    Examples:
      rootfaq sources
      rootfaq sources --json
    """
    with _errors(ctx):

        from ..render.browse import render_sources
        from ..views.sources import sources_view

        view = sources_view(_open_index())
        if as_json:
            _emit_json(view.to_json())
        else:

            _print(ctx, render_sources(view))


@_command("List every record, one line or one JSON object each")
def records(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="Every record as one JSON object per line, all fields."),
    source: list[str] = SOURCE_OPTION,
) -> None:
    """List every record: one line each, or with --json one JSON object per line with all fields.

    \b
    Examples:
      rootfaq records --json > records.jsonl
      rootfaq records --source law
    """
    with _errors(ctx):
        sources = _check_sources(source)
        index = _open_index()
        chosen = [r for r in index.records.values() if not sources or r.source in sources]
        from .batch import json_line

        out = sys.stdout
        for record in chosen:
            if as_json:
                out.write(json_line(record.to_dict()) + "\n")
            else:
                label = record.section or ""
                title = (record.title or record.text or "").replace("\n", " ")
                out.write(f"{record.id:<24} {record.source:<9} {label:<12} {record.grade:<12} {title[:80]}\n")
        out.flush()
        if not chosen:
            raise typer.Exit(EXIT_NOTHING_FOUND)


@_command("Build the search index, or rebuild it")
def index(
    ctx: typer.Context,
    rebuild: bool = typer.Option(False, "--rebuild", help="Build the index anew even if it looks current."),
) -> None:
    """Build the search index if needed (or anew with --rebuild) and say where it is.

    The index lives in index/ in a checkout, else in your cache folder; ROOTFAQ_INDEX_DIR chooses another
    folder, which must be yours and writable by you alone (else the index is built in memory for the run).

    \b
    Examples:
      rootfaq index
      rootfaq index --rebuild
      ROOTFAQ_INDEX_DIR=~/.cache/rootfaq-test rootfaq index
    """
    with _errors(ctx):
        from ..output import printable

        opened = _open_index(rebuild=rebuild)
        if opened.build_seconds is not None:
            typer.echo(f"{'rebuilt' if rebuild else 'built'} in {opened.build_seconds:.1f} s")
        where = printable(str(opened.path)) if opened.path else "memory (for this run only)"
        manifest = opened.manifest
        typer.echo(f"index: {where}")
        typer.echo(f"records: {len(opened.records)}; schema {manifest.get('schema')}; "
                   f"corpus {str(manifest.get('corpus_hash', ''))[:16]}; code {str(manifest.get('code', ''))[:16]}")


# --- chat ---------------------------------------------------------------------------------------------------


@_command("Ask question after question at a prompt")
def chat(
    ctx: typer.Context,
    faction: list[str] = FACTION_OPTION,
) -> None:
    """Ask question after question at a prompt, with line editing and history.

    \b
    Commands at the prompt:
      :section 4.3.2     a rule and who cites it
      :show faq-108      one record in full
      :faction cats      only answers about a faction (:faction off clears it)
      :more              the next answers to the last question
      :help, :quit       (Ctrl-C cancels a line, Ctrl-D leaves)
    A follow-up such as "what about the eyrie?" asks the last question again for that faction.

    \b
    Examples:
      rootfaq chat
      rootfaq chat --faction cats
      printf 'hand limit\\n:more\\n' | rootfaq chat
    """
    with _errors(ctx):
        from .chat import run_chat

        index = _open_index()
        factions = _factions(index, faction)
        interactive = sys.stdin.isatty()
        run_chat(index, _console(), factions=factions, debug=_settings(ctx).debug, interactive=interactive)


# --- cheat sheet --------------------------------------------------------------------------------------------


@_command("Write a printable cheat sheet for the factions at the table")
def cheatsheet(
    ctx: typer.Context,
    faction: list[str] = typer.Option(
        None, "--faction", "-f", metavar="NAME", autocompletion=_complete_faction,
        help="Only rulings about this faction (cats, birds, WA, vaga), or a bot (mechanical marquise, bots). "
        "Repeatable.",
    ),
    official: bool = OFFICIAL_OPTION,
    source: list[str] = SOURCE_OPTION,
    query: str = typer.Option(None, "--query", "-q", metavar="TEXT", help="Only rulings matching this question."),
    rules: bool = typer.Option(False, "--rules/--no-rules", help="Add the Outsiders rule sections."),
    bots: bool = typer.Option(False, "--bots", help="Add the rulings about the Clockwork bot of each faction."),
    fmt: str = typer.Option(None, "--format", metavar="FORMAT",
                            help="pdf, html or md (default: from the file name, else pdf)."),
    output: str = typer.Option(None, "--output", "-o", metavar="FILE",
                               help="Where to write it; - for standard output (default: rootfaq-FACTION.pdf)."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing file (never a device or FIFO)."),
    paper: str = typer.Option("a4", "--paper", metavar="PAPER", help="a4 or letter."),
) -> None:
    """Write a printable cheat sheet of the rulings for the factions at the table.

    \b
    Examples:
      rootfaq cheatsheet --faction cats --official
      rootfaq cheatsheet -f birds -f vaga --format html -o table.html
      rootfaq cheatsheet --faction "mechanical marquise" -o bot.pdf
      rootfaq cheatsheet --faction "bone patrol" --rules --format md -o -
    """
    with _errors(ctx):
        from ..export.command import run_cheatsheet
        from ..export.sheet import SheetFilters

        filters = SheetFilters(list(faction or []), official, _check_sources(source), query, rules, bots)
        # Progress is for a person waiting at a terminal; scripts and logs get only the result line.
        progress = (lambda step: _err(f"{step} ...")) if sys.stderr.isatty() else None
        written = run_cheatsheet(_open_index(), filters, fmt, output, force, paper, progress=progress)
        typer.echo(written.summary, err=written.path is None)  # with -o -, standard output holds the sheet


# --- entry point --------------------------------------------------------------------------------------------


def main() -> None:
    """The typer app with the last guard against tracebacks (`rootfaq.__main__.main` calls it)."""
    debug = "--debug" in sys.argv[1:] or bool(os.environ.get("ROOTFAQ_DEBUG"))
    try:
        app(prog_name="rootfaq")
    except RootfaqError as exc:
        if debug:
            import traceback

            traceback.print_exc()
        _err(exc.message, exc.hint)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except SystemExit as exc:
        # click met a closed pipe itself (--help, --version): it wraps stdout, then exits 1.
        if exc.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            from ..output import silence_stdout

            silence_stdout()
            sys.exit(EXIT_FOUND)
        raise
    except BrokenPipeError:
        # The reader went away (`rootfaq records --json | head`): stop quietly.
        from ..output import silence_stdout

        silence_stdout()
        sys.exit(EXIT_FOUND)
    except Exception as exc:
        if debug:
            raise
        _err(f"internal error: {type(exc).__name__}: {exc}", "run again with --debug to see the traceback")
        sys.exit(EXIT_DATA)
