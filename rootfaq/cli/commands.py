"""The commands: each parses its options, calls the pure function behind it (a view, the cheat sheet's
run, ask_json) and prints what it returns. rootfaq/cli/app.py registers them in this order."""

from __future__ import annotations

import sys

import typer

from ..corpus.records import check_sources
from ..errors import EXIT_DATA, EXIT_NOTHING_FOUND
from .common import (
    FACTION_OPTION,
    JSON_OPTION,
    OFFICIAL_OPTION,
    SOURCE_OPTION,
    complete_faction,
    console,
    emitted_json,
    errors,
    print_screen,
    repaired,
    settings,
)
from .shell import encode_vectors_in_background, open_index, report, resolve_factions, stdin_is_terminal, write_json


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
    with errors(ctx):
        from .shell import question_words, read_limit

        words = list(question or [])
        limit = read_limit(limit)
        if as_json:
            from .asking import ask_json

            code = ask_json(words, faction or [], source or [], official, limit, debug=settings(ctx).debug)
            if code:
                raise typer.Exit(code)
            return
        code = _ask_text(ctx, question_words(words), faction, check_sources(source), official, limit)
        if code:
            raise typer.Exit(code)


def _ask_text(ctx: typer.Context, words: list[str], faction: list[str] | None, sources: list[str] | None,
              official: bool, limit: int) -> int:
    """`rootfaq ask` for a person: each answer rendered; with -, one per stdin line (exit 0 once all are
    answered), else the one answer through the pager (exit 1 when it is only guesses)."""
    from ..api import Companion, Request
    from ..render.ask import render_ask
    from ..render.console import rendered

    index = open_index()
    encode_vectors_in_background(index)
    companion = Companion(index)
    request = Request(tuple(resolve_factions(index.library, faction) or ()), tuple(sources or ()), official, limit)

    def screen_for(question: str):
        answer = companion.answer(question, request)
        return answer, render_ask(companion.screen(answer, request))

    if words == ["-"]:
        from .shell import stdin_lines

        screen = console()
        for line in stdin_lines():
            screen.file.write(rendered(screen, screen_for(line)[1]) + "\n")
            screen.file.flush()
        return 0
    answer, shown = screen_for(" ".join(words))
    print_screen(ctx, shown)
    return 0 if answer.confident else EXIT_NOTHING_FOUND  # guesses are shown, but nothing answers it clearly


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
    with errors(ctx):
        from ..views.section import section_view

        index = open_index()
        view = section_view(index, " ".join(ref))
        if not emitted_json(view, as_json):
            from ..render.browse import render_section

            print_screen(ctx, render_section(view))
        if not view.found:
            raise typer.Exit(EXIT_NOTHING_FOUND)


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
    with errors(ctx):
        from ..views.record import record_view
        from ..views.show import resolve_id

        index = open_index()
        view = repaired(index, lambda: record_view(index, resolve_id(index, record_id)))
        if not emitted_json(view, as_json):
            from ..render.record import render_record

            print_screen(ctx, render_record(view))


def list_(
    ctx: typer.Context,
    faction: list[str] = typer.Option(None, "--faction", "-f", metavar="NAME",
                                      help="A faction name or nickname; repeat it for any of several.",
                                      autocompletion=complete_faction),
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
      rootfaq list --faction cats --topic battle
    """
    with errors(ctx):
        from ..views.listing import list_view

        sources = check_sources(source)
        index = open_index()
        keys = resolve_factions(index.library, faction) if faction else []
        view = list_view(index.library, factions=keys, topic=topic, sources=sources, official=official)
        if not emitted_json(view, as_json):
            from ..render.browse import render_list

            print_screen(ctx, render_list(view))
        if not view.found:
            raise typer.Exit(EXIT_NOTHING_FOUND)


def grades(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
    """Explain the grade badges: where each answer comes from, strongest first.

    \b
    Example:
      rootfaq grades
    """
    with errors(ctx):
        from ..views.grades import grade_legend

        legend = grade_legend()
        if as_json:
            write_json([line.to_json() for line in legend])
            return
        from ..render.browse import render_grades


        print_screen(ctx, render_grades(legend))


def sources(ctx: typer.Context, as_json: bool = JSON_OPTION) -> None:
    """Per source: record counts, the grade histogram and the flags; then cited sections no record holds.

    \b
    Examples:
      rootfaq sources
      rootfaq sources --json
    """
    with errors(ctx):
        from ..views.sources import sources_view

        index = open_index()
        view = sources_view(index.library, index.path, index.notices)
        if not emitted_json(view, as_json):
            from ..render.browse import render_sources

            print_screen(ctx, render_sources(view))


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
    with errors(ctx):
        sources = check_sources(source)
        index = open_index()
        chosen = [r for r in index.library.records.values() if not sources or r.source in sources]
        from .shell import json_line

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


def index(
    ctx: typer.Context,
    rebuild: bool = typer.Option(False, "--rebuild", help="Build the index anew even if it looks current."),
    vectors: bool = typer.Option(False, "--vectors", help="Encode the record texts that have no vector (when "
                                 "the shipped ones are damaged: minutes, resumes if stopped), then rebuild."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Build the search index if needed (or anew with --rebuild) and say where it is.

    The index lives in index/ in a checkout, else in your cache folder; ROOTFAQ_INDEX_DIR chooses another
    folder, which must be yours and writable by you alone (else the index is built in memory for the run).

    \b
    Examples:
      rootfaq index
      rootfaq index --rebuild
      rootfaq index --vectors
      rootfaq index --json
      ROOTFAQ_INDEX_DIR=~/.cache/rootfaq-test rootfaq index
    """
    with errors(ctx):
        from ..output import printable

        encoded = None
        if vectors:
            encoded, texts = encode_record_vectors()
            if not as_json:
                typer.echo(f"record vectors: {texts - encoded} already kept, {encoded} encoded now")
        opened = open_index(rebuild=rebuild or vectors)
        manifest = opened.manifest
        if as_json:
            write_json({"path": str(opened.path) if opened.path else None, "records": len(opened.library.records),
                        "vector_rows": len(opened.vectors.record_ids), "vectors_encoded": encoded,
                        "built_seconds": opened.build_seconds, "schema": manifest.get("schema"),
                        "corpus_hash": manifest.get("corpus_hash"), "code": manifest.get("code"),
                        "notices": list(opened.notices)})
        else:
            if opened.build_seconds is not None:
                typer.echo(f"{'rebuilt' if rebuild or vectors else 'built'} in {opened.build_seconds:.1f} s")
            where = printable(str(opened.path)) if opened.path else "memory (for this run only)"
            typer.echo(f"index: {where}")
            rows = len(opened.vectors.record_ids)
            typer.echo(f"records: {len(opened.library.records)}; vectors: "
                       f"{f'{rows} rows' if rows else 'none (searching by words only)'}; schema "
                       f"{manifest.get('schema')}; corpus {str(manifest.get('corpus_hash', ''))[:16]}; "
                       f"code {str(manifest.get('code', ''))[:16]}")
        if opened.path is None:  # the notice above said why it could not be written: a failure, not a build
            raise typer.Exit(EXIT_DATA)


def encode_record_vectors() -> tuple[int, int]:
    """store.encode_vectors with its progress on stderr: a line that counts up on a terminal, a line every
    tenth of the way elsewhere (a log never waits minutes in silence)."""
    from ..output import terminal_progress
    from ..search import store

    show = terminal_progress()
    said = 0

    def progress(done: int, total: int) -> None:
        nonlocal said
        line = f"encoding record texts for the semantic search: {done}/{total} (stop at any time: it resumes)"
        if show is not None:
            show(line, done == total)
        elif done == total or done - said >= total / 10:
            report(line)
            said = done

    return store.encode_vectors(progress)


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
    with errors(ctx):
        from .chat import run_chat

        index = open_index()
        encode_vectors_in_background(index)
        factions = resolve_factions(index.library, faction)
        interactive = stdin_is_terminal()
        run_chat(index, console(), factions=factions, debug=settings(ctx).debug, interactive=interactive)


def cheatsheet(
    ctx: typer.Context,
    faction: list[str] = typer.Option(
        None, "--faction", "-f", metavar="NAME", autocompletion=complete_faction,
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
    with errors(ctx):
        from ..export.command import run_cheatsheet
        from ..export.sheet import SheetFilters

        filters = SheetFilters(list(faction or []), official, check_sources(source), query, rules, bots)
        # Progress is for a person waiting at a terminal; scripts and logs get only the result line.
        progress = (lambda step: report(f"{step} ...")) if sys.stderr.isatty() else None
        written = run_cheatsheet(open_index(), filters, fmt, output, force, paper, progress=progress)
        typer.echo(written.summary, err=written.path is None)  # with -o -, standard output holds the sheet


def serve(
    ctx: typer.Context,
    port: int = typer.Option(8000, "--port", "-p", metavar="PORT", min=0, max=65535,
                             help="The port to listen on (0: any free one)."),
    lan: bool = typer.Option(False, "--lan", help="Listen on the local network too, and show its address as a "
                             "QR code for the phones at the table (default: this machine only)."),
) -> None:
    """Serve the answers as a web page, for the phones around the table (offline, read-only).

    \b
    Examples:
      rootfaq serve
      rootfaq serve --lan
      rootfaq serve --port 8080

    The page asks, browses and prints the cheat sheet with the same library as these commands;
    /api/ask?q=... returns the `rootfaq ask --json` object. Ctrl-C stops it.
    """
    with errors(ctx):
        from ..api import Companion
        from ..web import server

        sock = server.bind(server.host_for(lan), port)  # a taken port fails before the index is opened
        server.serve(Companion(open_index()), sock, lan, say=typer.echo)
        typer.echo("stopped")
