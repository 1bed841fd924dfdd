"""The printable cheat sheet: selection, rendering, safe writing, and real printing.

The print tests drive headless Chromium and poppler's pdftotext/pdfinfo. Without them they skip with the
reason, except under CI (the CI environment variable is set), where a missing tool fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rootfaq.errors import NotFound, UsageError
from rootfaq.export.command import run_cheatsheet
from rootfaq.export.files import write_sheet
from rootfaq.export.html import render_html
from rootfaq.export.markdown import render_markdown
from rootfaq.export.pdf import render_pdf, to_latin1
from rootfaq.export.selection import DEFAULT_SOURCES, QUERY_LIMIT, select_entries
from rootfaq.export.sheet import (
    GENERAL,
    GRADE_BADGES,
    MAX_PAGES_ONE_FACTION_OFFICIAL,
    PAPERS,
    RECONSTRUCTED,
    Entry,
    Group,
    IndexLine,
    LegendItem,
    RuleLine,
    Sheet,
    SourceInfo,
)
from rootfaq.records import GRADE_LABELS, SOURCES
from rootfaq.refs import section_sort_key


@pytest.fixture(scope="module")
def sheet_index(tmp_path_factory):
    """A real index, built from the shipped corpus into a temporary directory."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROOTFAQ_INDEX_DIR", str(tmp_path_factory.mktemp("cheatsheet-index")))
        from rootfaq import search

        yield search.open_index()


def official_marquise(index):
    return select_entries(index, ["marquise"], official=True, sources=None, query=None, rules=False)


# ---------------------------------------------------------------------------------------------- selection


def test_faction_selects_its_tagged_official_rulings(sheet_index):
    sheet = official_marquise(sheet_index)
    expected = {
        r.id for r in sheet_index.records.values()
        if r.source in DEFAULT_SOURCES and r.is_answer and "marquise" in r.factions and r.official
    }
    ids = {e.id for e in sheet.entries()}
    assert ids == expected
    assert len(ids) >= 20  # the FAQ has many official Marquise rulings; an empty sheet is a failure
    assert [g.title for g in sheet.groups] == ["Marquise de Cat"]
    assert all(e.official and e.grade in {"law", "rulebook", "designer", "publisher"} for e in sheet.entries())
    assert [e.number for e in sheet.entries()] == list(range(1, len(ids) + 1))


def test_faction_nickname_selects_the_same_sheet(sheet_index):
    by_key = official_marquise(sheet_index)
    by_nickname = select_entries(sheet_index, ["cats"], True, None, None, False)
    assert [e.id for e in by_nickname.entries()] == [e.id for e in by_key.entries()]


def test_unknown_faction_and_source_are_usage_errors(sheet_index):
    with pytest.raises(UsageError):
        select_entries(sheet_index, ["zzzz"], False, None, None, False)
    with pytest.raises(UsageError) as caught:
        select_entries(sheet_index, ["marquise"], False, ["wiki"], None, False)
    assert "faq" in caught.value.hint


def test_without_official_unofficial_rulings_are_included_and_badged(sheet_index):
    sheet = select_entries(sheet_index, ["marquise"], False, None, None, False)
    unofficial = [e for e in sheet.entries() if not e.official]
    assert unofficial, "the Marquise has community-graded rulings too"
    assert len(sheet.entries()) > len(official_marquise(sheet_index).entries())


def test_entries_are_ordered_by_the_section_they_concern(sheet_index):
    sheet = select_entries(sheet_index, [], False, None, None, False)
    for group in sheet.groups:
        sections = [e.section for e in group.entries]
        numbered = [s for s in sections if s]
        assert sections[: len(numbered)] == numbered, f"{group.title}: unnumbered rulings come last"
        keys = [section_sort_key(s) for s in numbered]
        assert keys == sorted(keys), group.title


def test_section_sort_key_orders_numbers_not_strings():
    ordered = ["1.1.3", "2.9", "2.10", "4.3.2", "9.2.9.iii", "9.2.9.iii.a", "10.2.3", "A.8.1.iii", "BP.2",
               "BP.2.5.iii", "BP.2.5.iv", "BP.2.5.v", "BP.2.5.ix", "BP.10", "C"]
    assert sorted(reversed(ordered), key=section_sort_key) == ordered


def test_screens_sort_sections_with_the_same_key():
    from rootfaq import views

    sections = ["BP.2.5.ix", "BP.2.5.v", "BP.2.5.iv", "2.10", "2.9"]
    assert sorted(sections, key=views.ref_sort_key) == sorted(sections, key=section_sort_key)
    assert sorted(sections, key=views.ref_sort_key)[-2:] == ["BP.2.5.v", "BP.2.5.ix"]


def test_faq_records_without_an_answer_never_appear(sheet_index):
    missing = {r.id for r in sheet_index.records.values() if r.source == "faq" and not r.is_answer}
    assert missing, "the corpus has an FAQ entry flagged missing-answer; this test checks it stays out"
    everything = select_entries(sheet_index, [], False, list(SOURCES), None, True)
    assert not missing & {e.id for e in everything.entries()}
    assert all(e.answer.strip() for e in everything.entries())


def test_reconstructed_questions_are_shown_and_marked(sheet_index):
    sheet = official_marquise(sheet_index)
    faq = [e for e in sheet.entries() if e.source == "faq"]
    assert faq and all(e.reconstructed for e in faq)
    for entry in faq:
        assert entry.question == sheet_index.records[entry.id].title
    law = [e for e in sheet.entries() if e.source == "law"]
    assert all(not e.reconstructed for e in law)
    assert render_markdown(sheet).count(f"_{RECONSTRUCTED}_") == len(faq)


def test_law_numbers_show_how_they_were_found(sheet_index):
    sheet = select_entries(sheet_index, [], True, ["law"], None, False)
    labels = {e.id: e.section_label for g in sheet.groups for e in g.entries}
    assert labels["law-07"] == "1.3.2 (number inferred from the Law's order)"
    assert labels["law-04"] == "1.2.1 Hands (number cited by FAQ rulebook answers)"
    assert "(number inferred from the Law's order)" in render_markdown(sheet)


def test_without_factions_every_ruling_is_grouped_once(sheet_index):
    sheet = select_entries(sheet_index, [], False, None, None, False)
    expected = [r.id for r in sheet_index.records.values()
                if r.source in DEFAULT_SOURCES and r.is_answer and r.text.strip()]
    ids = [e.id for e in sheet.entries()]
    assert sorted(ids) == sorted(expected)
    kinds = [g.kind for g in sheet.groups]
    assert kinds == sorted(kinds, key=["faction", "topic", "general"].index), "factions first, then topics"
    assert sheet.groups[-1].title == GENERAL
    general = [e.id for g in sheet.groups if g.kind != "faction" for e in g.entries]
    assert all(not sheet_index.records[i].factions for i in general)


def test_query_picks_entries_through_search(sheet_index):
    from rootfaq import search

    sheet = select_entries(sheet_index, [], False, None, "ambush in battle", False)
    best = search.ask(sheet_index, "ambush in battle", sources=list(DEFAULT_SOURCES), limit=1).hits[0].record
    ids = {e.id for e in sheet.entries()}
    assert best.id in ids
    assert 3 <= len(ids) <= QUERY_LIMIT
    assert any("ambush" in f.lower() for f in sheet.filters)
    with pytest.raises(UsageError):
        select_entries(sheet_index, [], False, None, "   ", False)


def test_rules_add_an_outsiders_factions_sections_in_order(sheet_index):
    without = select_entries(sheet_index, ["bone patrol"], False, None, None, False)
    assert without.entry_count == 0 and without.rule_count == 0
    sheet = select_entries(sheet_index, ["bone patrol"], False, None, None, True)
    (group,) = sheet.groups
    sections = [line.section for line in group.rules]
    assert sections and all(s.startswith("BP.") for s in sections)
    assert sections == sorted(sections, key=section_sort_key)
    assert "BP.2.5.iv" in sections and "v2.1" in (group.rules_title or "")
    assert "outsiders" in {s.key for s in sheet.sources}
    assert "fan-rule" in {item.grade for item in sheet.legend}


def test_rules_are_not_repeated_as_entries(sheet_index):
    sheet = select_entries(sheet_index, ["bone patrol"], False, ["outsiders"], None, True)
    ruled = {line.section for g in sheet.groups for line in g.rules}
    assert not ruled & {e.section for e in sheet.entries()}


def test_every_grade_has_a_badge():
    assert set(GRADE_BADGES) == set(GRADE_LABELS)
    codes = [code for code, _ in GRADE_BADGES.values()]
    assert len(set(codes)) == len(codes), "badge codes must tell grades apart without colour"


def test_sheet_lists_sources_with_dates_legend_and_section_index(sheet_index):
    sheet = official_marquise(sheet_index)
    faq = next(s for s in sheet.sources if s.key == "faq")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", faq.date or "")
    assert {item.grade for item in sheet.legend} == {e.grade for e in sheet.entries()}
    indexed = {n for line in sheet.section_index for n in line.entries}
    assert indexed == {e.number for e in sheet.entries() if e.section}
    for line in sheet.section_index:
        for number in line.entries:
            entry = sheet.entries()[number - 1]
            assert line.section in [entry.section, *entry.xrefs]


# ---------------------------------------------------------------------------------------------- rendering


def tiny_sheet() -> Sheet:
    """A hand-made sheet, so the golden rendering does not move when the corpus does."""
    ruling = Entry(1, "faq-900", "faq", "Can the Marquise <overwork> twice?", True,
                      "No. Each sawmill once [per turn].", "designer", True, year=2019,
                      section="6.5.2", section_title="Overwork")
    guess = Entry(2, "faq-901", "faq", "Do bird cards count as any suit?", True, "1. Usually.", "consensus", False)
    rule = RuleLine("BP.2.1", "Crafting", "Crafts with bones.", 1)
    return Sheet(
        title="Root rules cheat sheet: Marquise de Cat",
        filters=["factions: Marquise de Cat"],
        sources=[SourceInfo("faq", "Root FAQ", "2026-10-28"), SourceInfo("law", "Law of Root excerpts", None)],
        groups=[Group("marquise", "Marquise de Cat", "faction", "base game", [ruling, guess],
                         rules_title="Bone Patrol rules", rules=[rule])],
        legend=[LegendItem("designer", "[D]", "Designer", "Designer ruling (BGG)", True),
                LegendItem("consensus", "[C]", "Consensus", "Community consensus", False)],
        section_index=[IndexLine("6.5.2", "Overwork", [1])],
    )


GOLDEN_MARKDOWN = """\
# Root rules cheat sheet: Marquise de Cat

- **Filters:** factions: Marquise de Cat
- **Sources:** Root FAQ (updated 2026-10-28) · Law of Root excerpts (undated)
- **Grades:** `[D]` Designer ruling (BGG) · `[C]` Community consensus; official: Law, rulebook, designer, publisher
- **(reconstructed):** a question written for the FAQ's answer

## Marquise de Cat (base game)

**1. Can the Marquise \\<overwork\\> twice?** _(reconstructed)_ · `[D] Designer 2019` · § 6.5.2 Overwork
> No. Each sawmill once \\[per turn\\].

**2. Do bird cards count as any suit?** _(reconstructed)_ · `[C] Consensus`
> 1\\. Usually.

### Bone Patrol rules `[F] Fan rule`

  - **BP.2.1 Crafting**: Crafts with bones.

## Section index

| Section | Entries |
| --- | --- |
| 6.5.2 Overwork | 1 |
"""


def test_markdown_golden():
    assert render_markdown(tiny_sheet()) == GOLDEN_MARKDOWN


def test_markdown_of_a_real_sheet(sheet_index):
    sheet = official_marquise(sheet_index)
    text = render_markdown(sheet)
    assert text.startswith("# Root rules cheat sheet: Marquise de Cat\n")
    assert "\n## Marquise de Cat (base game)\n" in text and "\n## Section index\n" in text
    for entry in sheet.entries():
        assert f"\n**{entry.number}. " in text and f"`{entry.badge}`" in text
    assert len(re.findall(r"^\*\*\d+\. ", text, re.M)) == sheet.entry_count


def test_html_has_print_css_and_grayscale_badges():
    page = render_html(tiny_sheet())
    assert "size: A4" in page and "size: letter" in render_html(tiny_sheet(), paper="letter")
    assert "column-count: 2" in page and "break-inside: avoid" in page
    assert 'counter(page) " of " counter(pages)' in page
    assert '<span class="badge official" title="Designer ruling (BGG)">[D] Designer 2019</span>' in page
    assert '<span class="badge unofficial" title="Community consensus">[C] Consensus</span>' in page
    assert "&lt;overwork&gt;" in page and "<overwork>" not in page
    assert "http" not in page.replace("http-equiv", ""), "self-contained: no external resources"
    with pytest.raises(UsageError):
        render_html(tiny_sheet(), paper="a5")


def test_to_latin1_keeps_what_it_can():
    text = to_latin1("Step 2 \u2013 \u201cRoll\u201d \u2022 café \u65e5")
    assert text == 'Step 2 - "Roll" \u00b7 café ?'
    text.encode("latin-1")


# ---------------------------------------------------------------------------------------------- writing


def test_write_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "sheet.md"
    target.write_text("keep me")
    with pytest.raises(UsageError) as caught:
        write_sheet("new", target, force=False)
    assert "--force" in caught.value.hint
    assert target.read_text() == "keep me"
    write_sheet("new", target, force=True)
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.md"]


def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path, monkeypatch):
    target = tmp_path / "sheet.pdf"
    write_sheet(b"%PDF-1.4 first", target, force=False)
    assert target.read_bytes() == b"%PDF-1.4 first"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]

    def crash(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(UsageError):
        write_sheet(b"%PDF-1.4 second", target, force=True)
    assert target.read_bytes() == b"%PDF-1.4 first", "a failed write leaves the old file whole"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"], "and no temporary file behind"


def test_write_into_a_missing_directory_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError):
        write_sheet("x", tmp_path / "nope" / "sheet.md", force=False)


def test_run_cheatsheet_writes_each_format(sheet_index, tmp_path):
    formats = (("html", ".html", b"<!DOCTYPE html>"), ("md", ".md", b"# Root"), ("pdf", ".pdf", b"%PDF"))
    for fmt, suffix, magic in formats:
        path, count = run_cheatsheet(sheet_index, ["cats"], True, None, None, False, fmt, tmp_path / f"s{suffix}",
                                        force=False)
        assert path == tmp_path / f"s{suffix}"
        assert path.read_bytes().startswith(magic)
        assert count == official_marquise(sheet_index).entry_count
    path, _ = run_cheatsheet(sheet_index, ["cats"], True, None, None, False, None, tmp_path / "t.md", False)
    assert path.read_text().startswith("# Root")
    with pytest.raises(UsageError) as caught:
        run_cheatsheet(sheet_index, ["cats"], True, None, None, False, "md", tmp_path / "s.md", force=False)
    assert "--force" in caught.value.hint


def test_run_cheatsheet_reports_steps_and_refuses_an_empty_sheet(sheet_index, tmp_path):
    steps: list[str] = []
    run_cheatsheet(sheet_index, ["bone patrol"], False, None, None, True, "html", tmp_path / "bp.html", False,
                      progress=steps.append)
    assert steps and steps[-1].startswith("writing")
    with pytest.raises(NotFound) as caught:
        run_cheatsheet(sheet_index, ["bone patrol"], False, None, None, False, "html", tmp_path / "x.html", False)
    assert "--rules" in caught.value.hint
    assert not (tmp_path / "x.html").exists()
    with pytest.raises(UsageError):
        run_cheatsheet(sheet_index, ["cats"], False, None, None, False, None, tmp_path / "sheet.txt", False)


# ---------------------------------------------------------------------------------------------- printing

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-pdf-header-footer",  # our own page numbers come from the @page margin boxes
]


def need_tools(*names: str) -> dict[str, str]:
    found = {name: shutil.which(name) for name in names}
    missing = [name for name, path in found.items() if not path]
    if missing:
        reason = f"the print test needs {', '.join(missing)} (Debian: apt-get install chromium poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; under CI a missing tool is a failure")
        pytest.skip(reason)
    return found  # type: ignore[return-value]


def squash(text: str) -> str:
    """Text compared without whitespace and hyphens: columns and line breaks move it, never change it
    (pdftotext joins "per-" and "warrior" at a line end into "perwarrior")."""
    return re.sub(r"[\s\-\u00ad]+", "", text)


def pdf_pages(path: Path) -> list[str]:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    return [
        subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(path), "-"],
                       capture_output=True, text=True, check=True).stdout
        for n in range(1, count + 1)
    ]


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


def print_with_chromium(chromium: str, html_path: Path, pdf_path: Path, profile: Path) -> None:
    done = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf_path}", html_path.as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0 and pdf_path.is_file(), done.stderr[-2000:]


@pytest.mark.parametrize(("faction", "paper"), [("marquise", "a4"), ("vagabond", "letter")])
def test_html_prints_with_chromium_within_the_page_promise(sheet_index, tmp_path, faction, paper):
    tools = need_tools("chromium", "pdftotext", "pdfinfo")
    sheet = select_entries(sheet_index, [faction], True, None, None, False)
    html_path = tmp_path / "sheet.html"
    html_path.write_text(render_html(sheet, paper=paper), "utf-8")
    pdf_path = tmp_path / "sheet.pdf"
    print_with_chromium(tools["chromium"], html_path, pdf_path, tmp_path / "profile")
    check_printed(sheet, pdf_pages(pdf_path))


def test_fpdf_sheet_keeps_the_same_promise_for_every_faction(sheet_index, tmp_path):
    need_tools("pdftotext", "pdfinfo")
    checked = 0
    for faction in sheet_index.query_model["factions"]:
        sheet = select_entries(sheet_index, [faction], True, None, None, False)
        if not sheet.entry_count:
            continue
        for paper in PAPERS:
            path = tmp_path / f"{faction}-{paper}.pdf"
            render_pdf(sheet, path, paper=paper)
            check_printed(sheet, pdf_pages(path), latin1=True)
            checked += 1
    assert checked >= 20


def test_fpdf_prints_outsiders_rules_whole(sheet_index, tmp_path):
    need_tools("pdftotext", "pdfinfo")
    sheet = select_entries(sheet_index, ["twelve colonies"], False, None, None, True)
    path = tmp_path / "tc.pdf"
    render_pdf(sheet, path)
    text = squash("".join(pdf_pages(path)))
    for line in sheet.groups[0].rules:
        assert squash(to_latin1(line.text)) in text, line.section
