"""The sheet as one self-contained HTML page that prints well from a browser: two columns, no entry split
across columns or pages, page numbers, grade badges that survive grayscale printing.

    render_html(sheet, paper="a4") -> str
"""

from __future__ import annotations

from html import escape

from ..corpus.grades import GRADE_LABELS, OFFICIAL_LIST
from .sheet import RECONSTRUCTED_NOTE, RECONSTRUCTED_SIGN, Entry, Group, RuleLine, Sheet, paper_size

# The section index's heading travels with this many of its lines: never alone at the foot of a column.
INDEX_KEEP_LINES = 3


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


# The page margins hold our own footer (title, "Page n of N") in @page margin boxes. A browser that knows
# margin boxes (Chromium 131 and later) then prints none of its own header and footer (date, title, URL) on
# an edge where the page defines one: hence the empty box at the top.
_CSS = """
@page {
  size: %(size)s;
  margin: 12mm 11mm 14mm 11mm;
  @top-left { content: ""; }
  @bottom-left { content: %(footer)s; font: 7pt Helvetica, Arial, sans-serif; color: #000; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7pt Helvetica, Arial, sans-serif;
                  color: #000; }
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #000; background: #fff;
       font: 8.4pt/1.28 "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; }
@media screen { body { max-width: %(width)smm; margin: 8mm auto; padding: 0 11mm; } }
header.sheet { border-bottom: 1.2pt solid #000; padding-bottom: 1.6mm; margin-bottom: 2.4mm; }
h1 { font-size: 13pt; margin: 0 0 1mm; }
header.sheet p { margin: 0.4mm 0; }
.label { font-weight: bold; }
.legend span.item { white-space: nowrap; margin-right: 2.4mm; }
.columns { column-count: 2; column-gap: 6mm; column-rule: 0.4pt solid #777; column-fill: auto; }
@media screen { .columns { column-fill: balance; } }
h2 { font-size: 10.2pt; margin: 0 0 1.2mm; padding: 0.6mm 0 0.4mm; border-bottom: 1pt solid #000;
     break-after: avoid; }
h2 .sub { font-weight: normal; font-size: 7.4pt; }
.keep { break-inside: avoid; page-break-inside: avoid; }
.group { margin-bottom: 3mm; }
.entry { break-inside: avoid; page-break-inside: avoid; margin: 0 0 1.6mm; padding-bottom: 1.3mm;
         border-bottom: 0.4pt dotted #888; }
.meta { font-size: 7.2pt; margin-bottom: 0.4mm; }
.num { font-weight: bold; margin-right: 1mm; }
.badge { display: inline-block; font: bold 6.8pt/1.25 Helvetica, Arial, sans-serif; padding: 0 1mm;
         border: 0.8pt solid #000; border-radius: 0.8mm; margin-right: 1mm; white-space: nowrap; }
.badge.official { background: #000; color: #fff; }
.badge.unofficial { background: #fff; color: #000; border-style: dashed; }
.sec { font-style: italic; }
.q { font-weight: bold; margin: 0; }
.recon { font-weight: normal; }
.a { margin: 0.3mm 0 0; }
.none { font-style: italic; }
.rules h3 { font-size: 8.6pt; margin: 1.4mm 0 0.8mm; break-after: avoid; }
.rule { font-size: 7.4pt; line-height: 1.22; margin: 0 0 0.7mm; break-inside: avoid; }
.rule .rs { font-weight: bold; }
.d1 { margin-left: 2.5mm; } .d2 { margin-left: 5mm; } .d3 { margin-left: 7.5mm; }
.index { font-size: 7.2pt; }
.index p { margin: 0 0 0.3mm; break-inside: avoid; }
"""


def render_html(sheet: Sheet, paper: str = "a4") -> str:
    """A self-contained HTML page that prints well: two columns, no entry split, page numbers."""
    width, _, size = paper_size(paper)
    css = _CSS % {"size": size, "footer": _css_string(sheet.title), "width": f"{width:g}"}
    body = [*_header_html(sheet), '<main class="columns">']
    for group in sheet.groups:
        body.extend(_group_html(group))
    if sheet.section_index:
        lines = [
            f'<p><b>{escape(line.section)}</b> {escape(line.title or "")} \u2026 {", ".join(map(str, line.entries))}'
            "</p>"
            for line in sheet.section_index
        ]
        kept = "".join(lines[:INDEX_KEEP_LINES])
        body.append(f'<section class="index"><div class="keep"><h2>Section index</h2>{kept}</div>'
                    + "".join(lines[INDEX_KEEP_LINES:]) + "</section>")
    body.append("</main>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(sheet.title)}</title><style>{css}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _header_html(sheet: Sheet) -> list[str]:
    """Title, filters, sources and the grade legend, across both columns."""
    sources = " \u00b7 ".join(escape(s.label) for s in sheet.sources)
    legend = " ".join(
        f'<span class="item">{_badge_html(item.code, item.word, item.official, item.label)}'
        f"{escape(item.explanation)}</span>"
        for item in sheet.legend
    )
    if sheet.reconstructed:
        legend += f' <span class="item"><b>{RECONSTRUCTED_SIGN}</b> {escape(RECONSTRUCTED_NOTE)}</span>'
    return [
        '<header class="sheet">',
        f"<h1>{escape(sheet.title)}</h1>",
        f'<p><span class="label">Filters:</span> {escape("; ".join(sheet.filters))}</p>',
        f'<p><span class="label">Sources:</span> {sources or "none"}</p>',
        f'<p class="legend"><span class="label">Grades:</span> {legend} '
        f"Solid badge: official ({OFFICIAL_LIST}); outlined: not official.</p>",
        "</header>",
    ]


def _badge_html(code: str, text: str, official: bool, title: str) -> str:
    kind = "official" if official else "unofficial"
    return f'<span class="badge {kind}" title="{escape(title)}">{escape(code)} {escape(text)}</span>'


def _entry_html(entry: Entry) -> str:
    meta = [f'<span class="num">{entry.number}</span>',
            _badge_html(entry.badge_code, entry.badge_text, entry.official, GRADE_LABELS[entry.grade])]
    if entry.section:
        meta.append(f'<span class="sec">\u00a7\u202f{escape(entry.section_label)}</span>')
    question = ""
    if entry.question:
        # U+2060 WORD JOINER: the sign never wraps onto a line of its own.
        sign = f'\u2060<span class="recon" title="{escape(RECONSTRUCTED_NOTE)}">{RECONSTRUCTED_SIGN}</span>'
        question = f'<p class="q">{escape(entry.question)}{sign if entry.reconstructed else ""}</p>'
    return (f'<article class="entry" id="e{entry.number}"><div class="meta">{" ".join(meta)}</div>'
            f'{question}<p class="a">{escape(entry.answer)}</p></article>')


def _group_html(group: Group) -> list[str]:
    sub = f' <span class="sub">{escape(group.subtitle)}</span>' if group.subtitle else ""
    heading = f"<h2>{escape(group.title)}{sub}</h2>"
    parts = [f'<section class="group" id="g-{escape(group.key)}">']
    if group.entries:
        # The heading travels with the first entry: never alone at the foot of a column.
        parts.append(f'<div class="keep">{heading}{_entry_html(group.entries[0])}</div>')
        parts.extend(_entry_html(e) for e in group.entries[1:])
    else:
        parts.append(heading)
        if not group.rules:
            parts.append('<p class="none">No ruling for this faction matches these filters.</p>')
    if group.rules:
        parts.append('<div class="rules">')
        badge = _badge_html("[F]", "Fan rule", False, GRADE_LABELS["fan-rule"])
        first = _rule_html(group.rules[0])
        parts.append(f'<div class="keep"><h3>{badge}{escape(group.rules_title or "")}</h3>{first}</div>')
        parts.extend(_rule_html(line) for line in group.rules[1:])
        parts.append("</div>")
    parts.append("</section>")
    return parts


def _rule_html(line: RuleLine) -> str:
    text = f" {escape(line.text)}" if line.text else ""
    return f'<p class="rule d{min(line.depth, 3)}"><span class="rs">{escape(line.head)}</span>{text}</p>'
