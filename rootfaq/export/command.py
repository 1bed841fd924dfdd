"""What `rootfaq cheatsheet` calls: choose the format, select the entries, render, write.

    run_cheatsheet(index, SheetFilters(factions=["cats"], official=True), fmt="pdf", output="cats.pdf")
        -> Written(path=Path("cats.pdf"), items=37)

`fmt` is "html", "pdf" or "md"; without it the output's suffix picks it, else pdf, and with it the suffix
must agree (`--format html -o x.pdf` is a usage error). `output` "-" is standard output; None is
`rootfaq-FACTION.FORMAT`, and an existing folder holds that file. `paper` is "a4" or "letter"; `progress`,
when given, is called with a short phrase before each slow step. Errors are `UsageError` (bad option, file
exists: "use --force") and `NotFound` (nothing matches the filters).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..errors import NotFound, UsageError
from .echo import shown
from .files import check_target, write_sheet, write_stream
from .selection import select_entries
from .sheet import Sheet, SheetFilters, paper_size

if TYPE_CHECKING:  # export reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex

FORMATS = {"html": ".html", "pdf": ".pdf", "md": ".md"}
FORMAT_ALIASES = {"markdown": "md", "htm": "html"}
STDOUT = "-"


@dataclass
class Written:
    """Where a sheet went (None: standard output) and how many items it holds (rulings plus rule sections)."""

    path: Path | None
    items: int

    @property
    def summary(self) -> str:
        where = "the sheet to standard output" if self.path is None else shown(self.path)
        return f"wrote {where} ({self.items} items)"


def _format_name(text: str) -> str | None:
    name = FORMAT_ALIASES.get(text.lower(), text.lower())
    return name if name in FORMATS else None


def resolve_format(fmt: str | None, output: str | None) -> str:
    """'html', 'pdf' or 'md': from the option, else from the output's suffix, else pdf when no output is
    named. The option and a known suffix must agree."""
    named = _format_name(fmt) if fmt else None
    if fmt and named is None:
        raise UsageError(f"unknown format '{shown(fmt)}'", "use --format html, pdf or md")
    if output is None or output == STDOUT or Path(output).is_dir():
        return named or "pdf"
    suffix = Path(output).suffix.lstrip(".")
    by_suffix = _format_name(suffix) if suffix else None
    if named and by_suffix and named != by_suffix:
        raise UsageError(f"--format {shown(fmt)} does not match the file name {shown(output)}",
                         f"leave out --format (the suffix picks {by_suffix}), or name the file "
                         f"{shown(Path(output).with_suffix(FORMATS[named]).name)}")
    if named or by_suffix:
        return named or by_suffix
    raise UsageError(f"cannot tell the format from '{shown(Path(output).name)}'", "add --format html, pdf or md")


def run_cheatsheet(
    index: OpenIndex,
    filters: SheetFilters,
    fmt: str | None = None,
    output: str | None = None,
    force: bool = False,
    paper: str = "a4",
    progress: Callable[[str], None] | None = None,
    stdout: BinaryIO | None = None,
) -> Written:
    """Select, render and write a cheat sheet; say where it went and how many items it holds."""
    name = resolve_format(fmt, output)
    paper_size(paper)
    to_stdout = output == STDOUT
    stream = stdout or getattr(sys.stdout, "buffer", sys.stdout)
    if to_stdout and name == "pdf" and stream.isatty():
        raise UsageError("a PDF on the terminal is unreadable", "redirect it (> sheet.pdf), or add --format md")
    folder = Path(output) if output is not None and not to_stdout and Path(output).is_dir() else None
    if output is not None and not to_stdout and folder is None:
        check_target(Path(output), force)  # fail before doing the work
    step = progress or (lambda _phrase: None)
    step("selecting rulings")
    sheet = select_sheet(index, filters)
    items = sheet.entry_count + sheet.rule_count
    default_name = f"rootfaq-{sheet.name}{FORMATS[name]}"
    path = None if to_stdout else (folder / default_name if folder else Path(output or default_name))
    if output is None or folder:
        check_target(path, force)
    step(f"rendering {items} items as {name}")
    content = render(sheet, name, paper)
    step(f"writing {'to standard output' if path is None else shown(path)}")
    if path is None:
        write_stream(content, stream)
    else:
        write_sheet(content, path, force)
    return Written(path, items)


def select_sheet(index: OpenIndex, filters: SheetFilters) -> Sheet:
    """The sheet for these filters (selection.select_entries); NotFound, saying what to change, when
    nothing matches. The command and the web page (`rootfaq serve`) both print what this returns."""
    sheet = select_entries(index, filters)
    if not sheet.entry_count + sheet.rule_count:
        raise NotFound("nothing to print: no ruling matches these filters", _empty_hint(sheet, filters))
    return sheet


def _empty_hint(sheet: Sheet, filters: SheetFilters) -> str:
    if any(g.subtitle.startswith("outsiders") for g in sheet.groups) and not filters.rules:
        return "Outsiders factions have rule sections rather than rulings: add --rules"
    return "drop --official or --query, or choose other factions"


def render(sheet: Sheet, name: str, paper: str) -> str | bytes:
    """The sheet in format `name`; each renderer is imported only when used (fpdf2 is slow to load)."""
    if name == "html":
        from .html import render_html

        return render_html(sheet, paper)
    if name == "md":
        from .markdown import render_markdown

        return render_markdown(sheet)
    from .pdf import render_pdf

    return render_pdf(sheet, paper=paper)
