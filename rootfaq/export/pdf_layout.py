"""A small two-column layout engine over fpdf2: paragraphs of styled runs flow down a column, then the
next column, then a new page. A block (one entry) moves whole to the next column when it does not fit,
and is split line by line only when it is taller than a column. Sizes are in mm, font sizes in pt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Page geometry in mm; the HTML's print CSS uses the same proportions.
MARGIN = 11.0
TOP = 12.0
BOTTOM = 14.0
GUTTER = 6.0
PT = 0.3528  # mm per point
# Space around a badge, beside the space that ends the word before it: an outlined badge must not seem
# to touch the entry number ("41[?]").
BADGE_GAP_BEFORE = 1.2
BADGE_GAP_AFTER = 1.0


@dataclass
class Run:
    """Text in one style: "" regular, "B" bold, "I" italic; a grade badge when `badge` is not None."""

    text: str
    style: str = ""
    size: float = 8.2
    badge: bool | None = None  # a grade badge: True solid (official), False outlined
    glue: bool = False  # its last word (or the badge) stays on one line with the first word after it


@dataclass
class Para:
    runs: list[Run]
    indent: float = 0.0
    space_before: float = 0.0
    leading: float = 1.25
    rule_below: float = 0.0  # line width of a rule under the paragraph, mm
    dotted_below: bool = False  # the thin dotted line that ends an entry


class ColumnLayout:
    """Places blocks of paragraphs in two columns on the pages of an fpdf2 document."""

    def __init__(self, pdf, width: float, height: float):
        self.pdf = pdf
        self.width, self.height = width, height
        self.col_w = (width - 2 * MARGIN - GUTTER) / 2
        self.bottom = height - BOTTOM
        self.col = 0
        self.top = TOP
        self.y = TOP

    # -- measuring
    def _font(self, run: Run) -> None:
        self.pdf.set_font("Helvetica", run.style, run.size)

    def _badge_w(self, run: Run) -> float:
        self.pdf.set_font("Helvetica", "B", run.size - 1)
        return self.pdf.get_string_width(run.text) + 2.0

    def _piece_w(self, run: Run, piece: str) -> float:
        """The width a piece takes on a line: a badge with its gaps, a word without its trailing space."""
        if run.badge is not None:
            return self._badge_w(run) + BADGE_GAP_BEFORE + BADGE_GAP_AFTER
        self._font(run)
        return self.pdf.get_string_width(piece.rstrip())

    def wrap(self, para: Para, width: float) -> list[list[Run]]:
        """Greedy word wrap over runs of mixed style; a badge is one unbreakable word."""
        lines: list[list[Run]] = [[]]
        used = 0.0
        for run in para.runs:
            pieces = [run.text] if run.badge is not None else re.findall(r"\S+\s*|\s+", run.text)
            for i, piece in enumerate(pieces):
                w = self._piece_w(run, piece)
                if used + w > width and used > 0:
                    glued = [lines[-1].pop()] if len(lines[-1]) > 1 and lines[-1][-1].glue else []
                    lines.append(glued)
                    used = sum(self._piece_w(r, r.text) for r in glued)
                    if run.badge is None:
                        piece = piece.lstrip()
                        if not piece:
                            continue
                while run.badge is None and w > width:  # a word wider than the column: cut it
                    cut = len(piece)
                    while cut > 1 and self.pdf.get_string_width(piece[:cut]) > width:
                        cut -= 1
                    lines[-1].append(Run(piece[:cut], run.style, run.size))
                    lines.append([])
                    piece = piece[cut:]
                    w = self.pdf.get_string_width(piece.rstrip())
                    used = 0.0
                lines[-1].append(Run(piece, run.style, run.size, run.badge, run.glue and i == len(pieces) - 1))
                if run.badge is not None:
                    used += w
                else:
                    self._font(run)
                    used += self.pdf.get_string_width(piece)
        return [line for line in lines if line]

    def _line_h(self, para: Para, line: list[Run]) -> float:
        return max(r.size for r in line) * PT * para.leading

    def measure(self, paras: list[Para]) -> float:
        total = 0.0
        for para in paras:
            total += para.space_before + para.rule_below * 2 + (0.8 if para.dotted_below else 0)
            total += sum(self._line_h(para, line) for line in self.wrap(para, self.col_w - para.indent))
        return total

    # -- placing
    def _x(self) -> float:
        return MARGIN + self.col * (self.col_w + GUTTER)

    def full_width(self) -> None:
        """Lay out what follows across both columns (the sheet's header)."""
        self.col_w = self.width - 2 * MARGIN

    def start_columns(self, space: float) -> None:
        """Start the two columns `space` mm under what was placed at full width."""
        self.col_w = (self.width - 2 * MARGIN - GUTTER) / 2
        self.top = self.y + space
        self.y = self.top
        self.column_rule()

    def next_column(self) -> None:
        if self.col == 0:
            self.col = 1
        else:
            self.new_page()
        self.y = self.top

    def new_page(self) -> None:
        self.pdf.add_page()
        self.col = 0
        self.top = TOP
        self.y = self.top
        self.column_rule()

    def column_rule(self) -> None:
        x = MARGIN + self.col_w + GUTTER / 2
        self.pdf.set_draw_color(120)
        self.pdf.set_line_width(0.15)
        self.pdf.line(x, self.top, x, self.bottom)
        self.pdf.set_draw_color(0)

    def block(self, paras: list[Para]) -> None:
        """Place paragraphs that belong together: in the next column when they do not fit in this one."""
        height = self.measure(paras)
        if self.y + height > self.bottom and self.y > self.top:
            self.next_column()
        for para in paras:
            self.y += para.space_before
            for line in self.wrap(para, self.col_w - para.indent):
                h = self._line_h(para, line)
                if self.y + h > self.bottom:  # only for blocks taller than a column
                    self.next_column()
                self.draw_line(line, self._x() + para.indent, self.y, h)
                self.y += h
            self._rules_below(para)

    def _rules_below(self, para: Para) -> None:
        if para.rule_below:
            self.y += para.rule_below
            self.pdf.set_line_width(para.rule_below)
            self.pdf.line(self._x(), self.y, self._x() + self.col_w, self.y)
            self.y += para.rule_below
        if para.dotted_below:
            self.y += 0.8
            with self.pdf.local_context():
                self.pdf.set_draw_color(130)
                self.pdf.set_line_width(0.15)
                self.pdf.set_dash_pattern(dash=0.4, gap=0.5)
                self.pdf.line(self._x(), self.y, self._x() + self.col_w, self.y)

    def draw_line(self, line: list[Run], x: float, y: float, h: float) -> None:
        pdf = self.pdf
        start = x
        for run in line:
            if run.badge is None:
                self._font(run)
                w = pdf.get_string_width(run.text)
                pdf.set_xy(x, y)
                pdf.cell(w, h, run.text)
                x += w
                continue
            if x > start:
                x += BADGE_GAP_BEFORE
            w = self._badge_w(run)
            self._draw_badge(run, x, y, w, h)
            x += w + BADGE_GAP_AFTER

    def _draw_badge(self, run: Run, x: float, y: float, w: float, h: float) -> None:
        """Solid black with white text when official, outlined and dashed otherwise."""
        pdf = self.pdf
        pdf.set_line_width(0.25)
        if run.badge:
            pdf.set_fill_color(0)
            pdf.rect(x, y + 0.25, w, h - 0.5, style="DF")
            pdf.set_text_color(255)
        else:
            with pdf.local_context():
                pdf.set_dash_pattern(dash=0.6, gap=0.4)
                pdf.rect(x, y + 0.25, w, h - 0.5, style="D")
        pdf.set_xy(x, y)
        pdf.cell(w, h, run.text, align="C")
        pdf.set_text_color(0)
