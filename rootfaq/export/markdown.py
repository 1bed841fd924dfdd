"""The sheet as Markdown for wikis and chat: a heading per group; per entry a bold question line, then the
answer quoted.

    render_markdown(sheet) -> str
"""

from __future__ import annotations

import re

from ..corpus.grades import OFFICIAL_LIST
from .sheet import RECONSTRUCTED_NOTE, RECONSTRUCTED_SIGN, Entry, Sheet

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_block(text: str) -> str:
    """Escaped text that starts a block: a leading "1." or "-" must not turn it into a list."""
    return re.sub(r"^(\d+)([.)])|^([-+])", lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", _md(text))


def render_markdown(sheet: Sheet) -> str:
    """Markdown for wikis and chat. No trailing-space line breaks: chat clients and editors drop them."""
    sources = " · ".join(_md(s.label) for s in sheet.sources)
    legend = " · ".join(f"`{i.code} {i.word}`" + (f" {_md(i.explanation)}" if i.explanation else "")
                        for i in sheet.legend)
    out = [
        f"# {_md(sheet.title)}",
        "",
        f"- **Filters:** {_md('; '.join(sheet.filters))}",
        f"- **Sources:** {sources or 'none'}",
        f"- **Grades:** {legend}; official: {OFFICIAL_LIST}",
    ]
    if sheet.reconstructed:
        out.append(f"- **{_md(RECONSTRUCTED_SIGN)}** {_md(RECONSTRUCTED_NOTE)}")
    for group in sheet.groups:
        out += ["", f"## {_md(group.title)}" + (f" ({_md(group.subtitle)})" if group.subtitle else ""), ""]
        if not group.entries and not group.rules:
            out.append("_No ruling for this faction matches these filters._")
        for entry in group.entries:
            out += [_entry_line(entry), f"> {_md_block(entry.answer)}", ""]
        if group.rules:
            out += [f"### {_md(group.rules_title or '')} `[F] Fan rule`", ""]
            for line in group.rules:
                text = f": {_md(line.text)}" if line.text else ""
                out.append(f"{'  ' * line.depth}- **{_md(line.head)}**{text}")
    if sheet.section_index:
        out += ["", "## Section index", "", "| Section | Entries |", "| --- | --- |"]
        for line in sheet.section_index:
            label = _md(f"{line.section} {line.title}" if line.title else line.section)
            out.append(f"| {label} | {', '.join(map(str, line.entries))} |")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _entry_line(entry: Entry) -> str:
    """'**1. Question?**\\* · `[D] Designer 2019` · § 6.5.2 Overwork'; a rule is headed by its section."""
    if not entry.question:
        return f"**{entry.number}. § {_md(entry.section_label)}** · `{entry.badge}`"
    sign = _md(RECONSTRUCTED_SIGN) if entry.reconstructed else ""
    where = f" · § {_md(entry.section_label)}" if entry.section else ""
    return f"**{entry.number}. {_md(entry.question)}**{sign} · `{entry.badge}`{where}"
