"""What `rootfaq cheatsheet` calls: choose the format, select the entries, render, write.

    run_cheatsheet(index, factions, official, sources, query, rules, fmt, output, force,
                   paper="a4", progress=None) -> tuple[Path, int]

It returns the path written and how many items the sheet holds (rulings plus Outsiders rule sections).
`fmt` is "html", "pdf" or "md" (None: from the file suffix); `paper` is "a4" or "letter"; `progress`, when
given, is called with a short phrase before each slow step. Errors are `UsageError` (bad option, file
exists: "use --force") and `NotFound` (nothing matches the filters).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import NotFound, UsageError
from .files import write_sheet
from .selection import select_entries
from .sheet import paper_size

FORMATS = {"html": ".html", "pdf": ".pdf", "md": ".md"}
FORMAT_ALIASES = {"markdown": "md", "htm": "html"}


def resolve_format(fmt: str | None, output: Path) -> str:
    """'html', 'pdf' or 'md' from the option, else from the output's suffix."""
    if fmt:
        name = FORMAT_ALIASES.get(fmt.lower(), fmt.lower())
    else:
        suffix = output.suffix.lower().lstrip(".")
        name = FORMAT_ALIASES.get(suffix, suffix)
        if name not in FORMATS:
            raise UsageError(f"cannot tell the format from '{output.name}'", "add --format html, pdf or md")
    if name not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'", "use --format html, pdf or md")
    return name


def run_cheatsheet(
    index,
    factions: list[str],
    official: bool,
    sources: list[str] | None,
    query: str | None,
    rules: bool,
    fmt: str | None,
    output: Path | str,
    force: bool,
    paper: str = "a4",
    progress: Callable[[str], None] | None = None,
) -> tuple[Path, int]:
    """Select, render and write a cheat sheet; return where it went and how many items it holds."""
    path = Path(output)
    name = resolve_format(fmt, path)
    paper_size(paper)
    if path.exists() and not force:  # fail before doing the work
        raise UsageError(f"{path} already exists", "use --force to overwrite it")
    step = progress or (lambda _phrase: None)
    step("selecting rulings")
    sheet = select_entries(index, factions, official, sources, query, rules)
    if not sheet.entry_count and not sheet.rule_count:
        outsiders = [g.title for g in sheet.groups if g.subtitle.startswith("outsiders")]
        hint = ("Outsiders factions have rule sections rather than rulings: add --rules" if outsiders and not rules
                else "drop --official or --query, or choose other factions")
        raise NotFound("nothing to print: no ruling matches these filters", hint)
    step(f"rendering {sheet.entry_count + sheet.rule_count} items as {name}")
    content = render(sheet, name, paper)
    step(f"writing {path}")
    write_sheet(content, path, force)
    return path, sheet.entry_count + sheet.rule_count


def render(sheet, name: str, paper: str) -> str | bytes:
    """The sheet in format `name`; each renderer is imported only when used (fpdf2 is slow to load)."""
    if name == "html":
        from .html import render_html

        return render_html(sheet, paper)
    if name == "md":
        from .markdown import render_markdown

        return render_markdown(sheet)
    from .pdf import render_pdf

    return render_pdf(sheet, paper=paper)
