"""Printing the cheat sheet for real: the HTML through headless Chromium, the PDF drawn by fpdf2, both read
back with poppler's pdftotext and pdfinfo (word positions with -bbox).

Without those tools the print tests skip with the reason, except under CI (the CI environment variable is
set), where a missing tool fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest

from rootfaq.export.html import render_html
from rootfaq.export.pdf import render_pdf, to_latin1
from rootfaq.export.pdf_layout import ColumnLayout, Para, Run
from rootfaq.export.selection import select_entries
from rootfaq.export.sheet import MAX_PAGES_ONE_FACTION_OFFICIAL, PAPERS, Sheet, SheetFilters

pytestmark = pytest.mark.slow  # a real browser prints each sheet

# No --no-pdf-header-footer: Chromium prints its own header and footer (date, title, URL) as it does for a
# user who leaves "Headers and footers" ticked, unless the sheet's CSS keeps them off. The test checks it does.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
MM = 72 / 25.4  # points per mm


def need_tools(*names: str) -> dict[str, str]:
    found = {name: shutil.which(name) for name in names}
    missing = [name for name, path in found.items() if not path]
    if missing:
        reason = f"the print test needs {', '.join(missing)} (Debian: apt-get install chromium poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; under CI a missing tool is a failure")
        pytest.skip(reason)
    return found  # type: ignore[return-value]


def official(index, faction: str) -> Sheet:
    return select_entries(index, SheetFilters([faction], official=True))


def squash(text: str) -> str:
    """Text compared without whitespace and hyphens: columns and line breaks move it, never change it
    (pdftotext joins "per-" and "warrior" at a line end into "perwarrior")."""
    return re.sub(r"[\s\-\u00ad]+", "", text)


def pdf_pages(path: Path) -> list[str]:
    """The text of each page: one pdftotext run, pages end in a form feed; pdfinfo confirms the count."""
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")[:-1]
    assert len(pages) == count
    return pages


@dataclass
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def pdf_words(path: Path) -> list[tuple[float, float, list[Word]]]:
    """Per page: its width and height and its words with their boxes, in points (pdftotext -bbox)."""
    xml = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xml))
    pages = []
    for page in root.iter("{http://www.w3.org/1999/xhtml}page"):
        words = [Word(w.text or "", *(float(w.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")))
                 for w in page.iter("{http://www.w3.org/1999/xhtml}word")]
        pages.append((float(page.get("width")), float(page.get("height")), words))
    return pages


def check_printed(sheet: Sheet, pages: list[str], latin1: bool = False) -> None:
    """Every entry's question and answer on one page (so none was split), and the page promise kept."""
    assert 1 <= len(pages) <= MAX_PAGES_ONE_FACTION_OFFICIAL, f"{len(pages)} pages"
    squashed = [squash(page) for page in pages]
    for entry in sheet.entries():
        answer = squash(to_latin1(entry.answer) if latin1 else entry.answer)
        question = squash(to_latin1(entry.question or "") if latin1 else entry.question or "")
        where = [i for i, page in enumerate(squashed) if answer in page]
        assert where, f"entry {entry.number} ({entry.id}): answer missing or split across pages"
        assert question in squashed[where[0]], f"entry {entry.number} ({entry.id}): question not on its page"
    for n, page in enumerate(pages, 1):
        assert f"Page {n} of {len(pages)}" in page


def check_index_heading_keeps_its_lines(sheet: Sheet, path: Path) -> None:
    """The "Section index" heading has at least three index lines (or all) under it in its column."""
    wanted = min(3, len(sheet.section_index))
    for width, height, words in pdf_words(path):
        heads = [b for a in words if a.text == "Section" for b in words
                 if b.text == "index" and b.y0 == a.y0 and 0 < b.x0 - a.x1 < 3 * MM]
        for head in heads:
            left = head.x0 < width / 2
            below = {round(w.y0) for w in words
                     if (w.x0 < width / 2) == left and head.y1 < w.y0 < height - 16 * MM}
            assert len(below) >= wanted, f"'Section index' with {len(below)} lines under it at the column foot"
            return
    raise AssertionError("no 'Section index' heading found")


def print_with_chromium(chromium: str, html_path: Path, pdf_path: Path, profile: Path) -> None:
    done = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf_path}", html_path.as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0 and pdf_path.is_file(), done.stderr[-2000:]


# ---------------------------------------------------------------------------------------------- Chromium


@pytest.mark.parametrize(("faction", "paper"), [("marquise", "a4"), ("vagabond", "letter")])
def test_html_prints_with_chromium_within_the_page_promise(index, tmp_path, faction, paper):
    tools = need_tools("chromium", "pdftotext", "pdfinfo")
    sheet = official(index, faction)
    html_path = tmp_path / "sheet.html"
    html_path.write_text(render_html(sheet, paper=paper), "utf-8")
    pdf_path = tmp_path / "sheet.pdf"
    print_with_chromium(tools["chromium"], html_path, pdf_path, tmp_path / "profile")
    pages = pdf_pages(pdf_path)
    check_printed(sheet, pages)
    check_index_heading_keeps_its_lines(sheet, pdf_path)
    # Chromium's own header and footer stay off: no date, no file URL, the title only where we print it.
    for n, page in enumerate(pages, 1):
        assert "file:" not in page and not re.search(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b", page), f"page {n}: {page[:200]}"
        assert page.count(sheet.title) == (2 if n == 1 else 1), f"page {n}: the title once, in our footer"


# ---------------------------------------------------------------------------------------------- fpdf2


def test_fpdf_sheet_keeps_the_same_promise_for_every_faction(index, tmp_path):
    need_tools("pdftotext", "pdfinfo")
    checked = 0
    for faction in index.library.query_model.factions:
        sheet = official(index, faction)
        if not sheet.entry_count:
            continue
        for paper in PAPERS:
            path = tmp_path / f"{faction}-{paper}.pdf"
            render_pdf(sheet, path, paper=paper)
            check_printed(sheet, pdf_pages(path), latin1=True)
            if sheet.section_index:
                check_index_heading_keeps_its_lines(sheet, path)
            checked += 1
    assert checked >= 20


def test_fpdf_prints_outsiders_rules_whole(index, tmp_path):
    need_tools("pdftotext", "pdfinfo")
    sheet = select_entries(index, SheetFilters(["twelve colonies"], rules=True))
    path = tmp_path / "tc.pdf"
    render_pdf(sheet, path)
    text = squash("".join(pdf_pages(path)))
    for line in sheet.groups[0].rules:
        assert squash(to_latin1(line.text)) in text, line.section


def test_fpdf_badges_stand_clear_of_the_entry_number(index, tmp_path):
    need_tools("pdftotext")
    sheet = select_entries(index, SheetFilters(["marquise"]))  # unofficial rulings too: outlined badges
    path = tmp_path / "cats.pdf"
    render_pdf(sheet, path)
    gaps = []
    for _, _, words in pdf_words(path):  # reading order may interleave the columns: match by position
        badges = [w for w in words if re.fullmatch(r"\[.\]", w.text)]
        for number in (w for w in words if w.text.isdigit()):
            after = [b.x0 - number.x1 for b in badges
                     if abs((number.y0 + number.y1) - (b.y0 + b.y1)) < 3 and 0 < b.x0 - number.x1 < 10 * MM]
            if after:
                gaps.append(min(after) / MM)
    assert len(gaps) == sheet.entry_count
    # The badge's text sits 1 mm inside its box: the box itself starts at least 1.8 mm after the number.
    assert min(gaps) - 1.0 >= 1.8, f"{min(gaps):.2f} mm"


def test_a_legend_badge_wraps_together_with_its_explanation():
    from fpdf import FPDF

    pdf = FPDF(unit="mm")
    pdf.add_page()
    layout = ColumnLayout(pdf, 210, 297)
    runs = [Run("Grades: " + "word " * 11, "", 7.4), Run("[!] Disputed", "B", 7.4, False, glue=True),
            Run("Disputed rulings explained here", "", 7.4)]
    for filler in range(0, 30):
        lines = layout.wrap(Para([Run("x" * filler, "", 7.4), *runs]), 60)
        for line in lines:
            if line[-1].badge is not None:
                raise AssertionError(f"with {filler} letters before, the badge ends a line alone: {lines}")
    plain = [Run("Grades: " + "word " * 11, "", 7.4), Run("[?] Ungraded", "B", 7.4, False)]
    assert any(line[-1].badge is not None for filler in range(30)
               for line in layout.wrap(Para([Run("x" * filler, "", 7.4), *plain]), 60)), \
        "without glue a badge may end a line (so the test above can fail)"


def test_the_reconstructed_sign_never_wraps_alone():
    from fpdf import FPDF

    pdf = FPDF(unit="mm")
    pdf.add_page()
    layout = ColumnLayout(pdf, 210, 297)

    def alone(glue: bool) -> list[float]:
        """Column widths (mm) at which the sign ends up on a line of its own."""
        question = Run("Can the Marquise build twice in one turn?", "B", 8.2, glue=glue)
        widths = [30 + step / 4 for step in range(200)]
        return [w for w in widths
                if any(line == [Run("*", "", 8.2)] for line in layout.wrap(Para([question, Run("*", "", 8.2)]), w))]

    assert alone(glue=False), "without glue some width leaves the sign alone (so this test can fail)"
    assert alone(glue=True) == []
