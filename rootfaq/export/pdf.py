"""The sheet as a PDF drawn by fpdf2, without a browser.

fpdf2 is pure Python (no Cairo, no system libraries), maintained, and draws text with the PDF core fonts,
so the file is small and its text extracts cleanly. The core fonts only know Latin-1; `to_latin1` maps the
corpus's dashes and quotes to their nearest Latin-1 spelling.

    render_pdf(sheet, path=None, paper="a4", force=False) -> bytes
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from ..corpus.grades import OFFICIAL_LIST
from .files import write_sheet
from .pdf_layout import BOTTOM, MARGIN, TOP, ColumnLayout, Para, Run
from .sheet import RECONSTRUCTED_NOTE, RECONSTRUCTED_SIGN, Entry, Group, Sheet, paper_size

# The section index's heading travels with this many of its lines: never alone at the foot of a column.
INDEX_KEEP_LINES = 3

_LATIN1 = str.maketrans({
    "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2022": "\u00b7", "\u2026": "...", "\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u200b": "",
    "\u2192": "->", "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u00d7": "x",
})


def to_latin1(text: str) -> str:
    """Text the PDF core fonts can draw: dashes and quotes to ASCII, accents kept, the rest as '?'."""
    text = text.translate(_LATIN1)
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(plain if plain and all(ord(c) < 256 for c in plain) else "?")
    return "".join(out)


def render_pdf(sheet: Sheet, path: Path | str | None = None, paper: str = "a4", force: bool = False) -> bytes:
    """The sheet as a PDF drawn by fpdf2 (no browser); written atomically to `path` when given."""
    width, height, _ = paper_size(paper)
    pdf = _document(to_latin1(sheet.title), width, height)
    layout = ColumnLayout(pdf, width, height)
    # The header spans both columns: lay it out once at full width, then start the columns under it.
    layout.full_width()
    layout.block(_header(sheet))
    layout.start_columns(1.5)
    for group in sheet.groups:
        _place_group(layout, group)
    index = [
        Para([Run(line.section + " ", "B", 7.2),
              Run(to_latin1(line.title or "") + " ... " + ", ".join(map(str, line.entries)), "", 7.2)],
             space_before=0.2, leading=1.2)
        for line in sheet.section_index
    ]
    if index:
        layout.block([_heading("Section index"), *index[:INDEX_KEEP_LINES]])
    for para in index[INDEX_KEEP_LINES:]:
        layout.block([para])
    data = bytes(pdf.output())
    if path is not None:
        write_sheet(data, path, force)
    return data


def _document(title: str, width: float, height: float):
    """An fpdf2 document of this page size whose footer carries the title and "Page n of N"."""
    from fpdf import FPDF

    class SheetPDF(FPDF):
        def footer(self) -> None:
            self.set_y(-BOTTOM + 4)
            self.set_font("Helvetica", "", 7)
            self.set_x(MARGIN)
            self.cell(0, 4, title[:110])
            self.set_x(MARGIN)
            self.cell(width - 2 * MARGIN, 4, f"Page {self.page_no()} of {{nb}}", align="R")

    pdf = SheetPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN, TOP, MARGIN)
    # No inner cell margin: the layout places each run where it measured it. fpdf2's default (1 mm) shifted
    # text right of its place, so the entry number ran into the badge after it ("41[?] Ungraded").
    pdf.c_margin = 0
    pdf.set_title(title)
    pdf.set_creator("rootfaq")
    pdf.add_page()
    return pdf


def _header(sheet: Sheet) -> list[Para]:
    legend: list[Run] = [Run("Grades: ", "B", 7.4)]
    for item in sheet.legend:
        legend += [Run(f"{item.code} {item.word}", "B", 7.4, item.official, glue=bool(item.explanation)),
                   Run(to_latin1(item.explanation) + "   " if item.explanation else " ", "", 7.4)]
    if sheet.reconstructed:
        legend += [Run(RECONSTRUCTED_SIGN + " ", "B", 7.4), Run(to_latin1(RECONSTRUCTED_NOTE) + ".   ", "", 7.4)]
    legend.append(Run(f"Solid badge: official ({OFFICIAL_LIST}); outlined: not official.", "", 7.4))
    sources = " - ".join(s.label for s in sheet.sources)
    return [
        Para([Run(to_latin1(sheet.title), "B", 13)]),
        Para([Run("Filters: ", "B", 7.4), Run(to_latin1("; ".join(sheet.filters)), "", 7.4)], space_before=1),
        Para([Run("Sources: ", "B", 7.4), Run(to_latin1(sources or "none"), "", 7.4)], space_before=0.3),
        Para(legend, space_before=0.3, leading=1.4, rule_below=0.45),
    ]


def _place_group(layout: ColumnLayout, group: Group) -> None:
    heading = _heading(group.title, group.subtitle)
    if group.entries:
        layout.block([heading, *_entry(group.entries[0])])  # the heading travels with its first entry
        for entry in group.entries[1:]:
            layout.block(_entry(entry))
    elif not group.rules:
        layout.block([heading, Para([Run("No ruling for this faction matches these filters.", "I", 8)])])
    else:
        layout.block([heading])
    for i, line in enumerate(group.rules):
        para = Para([Run(to_latin1(line.head) + " ", "B", 7.2), Run(to_latin1(line.text), "", 7.2)],
                    indent=2.5 * min(line.depth, 3), space_before=0.6, leading=1.2)
        if i == 0:
            title = Para([Run("[F] Fan rule", "B", 7.2, False),
                          Run(to_latin1(group.rules_title or ""), "B", 8.4)], space_before=1.6)
            layout.block([title, para])
        else:
            layout.block([para])


def _entry(entry: Entry) -> list[Para]:
    meta = [Run(f"{entry.number} ", "B", 7), Run(to_latin1(entry.badge), "B", 7, entry.official)]
    if entry.section:
        meta.append(Run("\u00a7 " + to_latin1(entry.section_label), "I", 7))
    paras = [Para(meta, space_before=1.2)]
    if entry.question:
        sign = [Run(RECONSTRUCTED_SIGN, "", 8.2)] if entry.reconstructed else []
        question = Run(to_latin1(entry.question), "B", 8.2, glue=entry.reconstructed)  # the sign never wraps alone
        paras.append(Para([question, *sign], space_before=0.2))
    paras.append(Para([Run(to_latin1(entry.answer), "", 8.2)], space_before=0.2, dotted_below=True))
    return paras


def _heading(title: str, subtitle: str = "") -> Para:
    runs = [Run(to_latin1(title), "B", 10.2)]
    if subtitle:
        runs.append(Run("  " + to_latin1(subtitle), "", 7.4))
    return Para(runs, space_before=2.0, rule_below=0.35)
