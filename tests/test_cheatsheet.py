"""The cheat sheet's content: which rulings a sheet holds, in what order, and how each format shows them.

Writing files and the command line: test_cheatsheet_files.py. Printing (Chromium, fpdf2): test_cheatsheet_print.py.
"""

from __future__ import annotations

import re

import pytest

from rootfaq.corpus.grades import GRADES, OFFICIAL_GRADES
from rootfaq.corpus.records import SOURCES
from rootfaq.corpus.refs import section_sort_key
from rootfaq.errors import UsageError
from rootfaq.export.bots import BOTS, is_bot_ruling, known_bots
from rootfaq.export.html import render_html
from rootfaq.export.markdown import render_markdown
from rootfaq.export.pdf import to_latin1
from rootfaq.export.selection import DEFAULT_SOURCES, QUERY_LIMIT, select_entries
from rootfaq.export.sheet import (
    GENERAL,
    RECONSTRUCTED_NOTE,
    RECONSTRUCTED_SIGN,
    Entry,
    Group,
    IndexLine,
    LegendItem,
    RuleLine,
    Sheet,
    SheetFilters,
    SourceInfo,
)


def sheet_for(index, *factions: str, **options) -> Sheet:
    return select_entries(index, SheetFilters(list(factions), **options))


def official_marquise(index) -> Sheet:
    return sheet_for(index, "marquise", official=True)


def tagged(index, faction: str, official: bool = True) -> set[str]:
    """Ids of the rulings tagged with a faction, straight from the records."""
    return {
        r.id for r in index.library.records.values()
        if r.source in DEFAULT_SOURCES and r.is_answer and faction in r.factions and (r.official or not official)
    }


# ---------------------------------------------------------------------------------------------- selection


def test_faction_selects_its_tagged_official_rulings_without_bot_rulings(index):
    sheet = official_marquise(index)
    ids = {e.id for e in sheet.entries()}
    bot_rulings = {i for i in tagged(index, "marquise") if BOTS in index.library.records[i].factions}
    assert len(bot_rulings) >= 3, "the FAQ has official rulings on the Mechanical Marquise; the test needs them"
    assert ids == tagged(index, "marquise") - bot_rulings
    assert len(ids) >= 20  # the FAQ has many official Marquise rulings; an empty sheet is a failure
    assert [g.title for g in sheet.groups] == ["Marquise de Cat"]
    assert all(e.official and e.grade in OFFICIAL_GRADES for e in sheet.entries())
    assert [e.number for e in sheet.entries()] == list(range(1, len(ids) + 1))
    assert not [e for e in sheet.entries() if "mechanical marquise" in (e.question or "").lower()]


def test_bots_adds_each_factions_bot_rulings_in_a_group_of_their_own(index):
    sheet = sheet_for(index, "cats", official=True, bots=True)
    assert [g.title for g in sheet.groups] == ["Marquise de Cat", "Mechanical Marquise"]
    mine, bot = sheet.groups
    assert not [e for e in mine.entries if is_bot_ruling(index.library.records[e.id])]
    assert bot.entries and all(is_bot_ruling(index.library.records[e.id]) for e in bot.entries)
    everything = {e.id for e in sheet.entries()}
    assert everything >= tagged(index, "marquise")
    assert "Clockwork bot rulings included" in sheet.filters
    assert sheet.name == "marquise"


def test_a_bots_name_as_faction_picks_only_the_rulings_about_bots(index):
    sheet = sheet_for(index, "Mechanical  Marquise")
    assert [g.title for g in sheet.groups] == ["Mechanical Marquise"]
    assert sheet.entries() and all(is_bot_ruling(index.library.records[e.id]) for e in sheet.entries())
    factions = [set(index.library.records[e.id].factions) for e in sheet.entries()]
    assert all("marquise" in f or f == {BOTS} for f in factions), "its own, and those about every bot"
    assert sheet.name == "mechanical-marquise"
    every = sheet_for(index, "bots")
    assert [g.title for g in every.groups] == ["Clockwork bots"]
    assert {e.id for e in every.entries()} == {
        r.id for r in index.library.records.values() if r.source in DEFAULT_SOURCES and r.is_answer and is_bot_ruling(r)
    }


def test_bot_names_come_from_the_factions_file(index):
    bots = known_bots(index.library)
    assert bots["mechanical marquise"].plays == "marquise"
    assert bots["vagabot"].plays == "vagabond"
    assert bots["bots"].plays is None and bots["bots"].name == "Clockwork bots"
    assert "cats" not in bots and "marquise" not in bots


def test_without_factions_bot_rulings_come_only_with_bots(index):
    plain = sheet_for(index)
    assert not [e for e in plain.entries() if is_bot_ruling(index.library.records[e.id])]
    assert "Clockwork bots" not in [g.title for g in plain.groups]
    with_bots = sheet_for(index, bots=True)
    (bot_group,) = [g for g in with_bots.groups if g.key == BOTS]
    assert all(is_bot_ruling(index.library.records[e.id]) for e in bot_group.entries)
    assert with_bots.entry_count == plain.entry_count + len(bot_group.entries)


def test_outsiders_rules_with_bot_words_are_not_bot_rulings(index):
    wastelands_bots = index.library.records["rule-S.2.11"]  # how to play the Wastelands with bots: a map rule
    assert BOTS in wastelands_bots.factions, "tagged for the word 'bots'; the test needs such a rule"
    assert not is_bot_ruling(wastelands_bots)
    assert not [r.id for r in index.library.records.values() if r.source == "outsiders" and is_bot_ruling(r)]


def test_faction_nickname_selects_the_same_sheet(index):
    by_key = official_marquise(index)
    by_nickname = sheet_for(index, "cats", official=True)
    assert [e.id for e in by_nickname.entries()] == [e.id for e in by_key.entries()]


def test_unknown_faction_and_source_are_usage_errors(index):
    with pytest.raises(UsageError):
        sheet_for(index, "zzzz")
    with pytest.raises(UsageError) as caught:
        sheet_for(index, "marquise", sources=["wiki"])
    assert "faq" in caught.value.hint


def test_without_official_unofficial_rulings_are_included_and_badged(index):
    sheet = sheet_for(index, "marquise")
    unofficial = [e for e in sheet.entries() if not e.official]
    assert unofficial, "the Marquise has community-graded rulings too"
    assert len(sheet.entries()) > len(official_marquise(index).entries())


def test_entries_are_ordered_by_the_section_they_concern(index):
    """Read off the printed sheet: Law numbers in reading order (2.5 before 3.2.1, 6.6 after 6.5.4), the
    appendix after them, unnumbered rulings last."""
    (group,) = official_marquise(index).groups
    assert [e.section for e in group.entries] == [
        "1.4.2", "1.5.2", "1.5.3", "1.5.4", "2.5", "2.5", "3.2.1", "4.1.1", "4.3.4", "5.1.7", "6.2.1",
        "6.2.3", "6.2.3", "6.3.4", "6.5.3", "6.5.3", "6.5.4", "6.5.4", "6.6", "G.1.22", *[None] * 16,
    ]


def test_section_sort_key_orders_numbers_not_strings():
    ordered = ["1.1.3", "2.9", "2.10", "4.3.2", "9.2.9.iii", "9.2.9.iii.a", "10.2.3", "A.8.1.iii", "BP.2",
               "BP.2.5.iii", "BP.2.5.iv", "BP.2.5.v", "BP.2.5.ix", "BP.10", "C"]
    assert sorted(reversed(ordered), key=section_sort_key) == ordered


def test_faq_records_without_an_answer_never_appear(index):
    missing = {r.id for r in index.library.records.values() if r.source == "faq" and not r.is_answer}
    assert missing, "the corpus has an FAQ entry flagged missing-answer; this test checks it stays out"
    everything = sheet_for(index, sources=list(SOURCES), rules=True, bots=True)
    assert not missing & {e.id for e in everything.entries()}
    assert all(e.answer.strip() for e in everything.entries())


def test_reconstructed_questions_are_shown_and_marked(index):
    sheet = official_marquise(index)
    faq = [e for e in sheet.entries() if e.source == "faq"]
    assert faq and all(e.reconstructed for e in faq)
    for entry in faq:
        assert entry.question == index.library.records[entry.id].title
    law = [e for e in sheet.entries() if e.source == "law"]
    assert law and all(not e.reconstructed for e in law)
    assert sheet.reconstructed


def test_law_paragraphs_are_named_by_their_number_once(index):
    sheet = sheet_for(index, official=True, sources=["law"])
    entries = {e.id: e for e in sheet.entries()}
    assert entries["law-07"].section_label == "1.3.2 (number inferred from the Law's order)"
    assert entries["law-04"].section_label == "1.2.1 Hands (number cited by FAQ rulebook answers)"
    assert all(e.question is None for e in entries.values()), "the section label names a Law paragraph"
    text = render_markdown(sheet)
    assert "Law of Root 1.3.2" not in text and text.count("1.3.2") == 2  # its entry and the section index
    page = render_html(sheet)
    assert "Law of Root 1.3.2" not in page and page.count("1.3.2") == 2
    assert "(number inferred from the Law's order)" in text


def test_without_factions_every_ruling_is_grouped_once(index):
    sheet = sheet_for(index)
    expected = [r.id for r in index.library.records.values()
                if r.source in DEFAULT_SOURCES and r.is_answer and r.text.strip() and not is_bot_ruling(r)]
    ids = [e.id for e in sheet.entries()]
    assert sorted(ids) == sorted(expected)
    kinds = [g.kind for g in sheet.groups]
    assert kinds == sorted(kinds, key=["faction", "topic", "general"].index), "factions first, then topics"
    assert sheet.groups[-1].title == GENERAL
    general = [e.id for g in sheet.groups if g.kind != "faction" for e in g.entries]
    assert all(not index.library.records[i].factions for i in general)


def test_query_picks_entries_through_search(index):
    from rootfaq.search import answers as search

    sheet = sheet_for(index, query="ambush in battle")
    best = search.ask(index, "ambush in battle", sources=list(DEFAULT_SOURCES), limit=1).hits[0].record
    ids = {e.id for e in sheet.entries()}
    assert best.id in ids
    assert 3 <= len(ids) <= QUERY_LIMIT
    assert any("ambush" in f.lower() for f in sheet.filters)
    with pytest.raises(UsageError):
        sheet_for(index, query="   ")


def test_query_keeps_bot_rulings_out_unless_asked(index):
    question = "how does the mechanical marquise recruit"
    plain = sheet_for(index, "cats", query=question)
    assert not [e for e in plain.entries() if is_bot_ruling(index.library.records[e.id])]
    asked = sheet_for(index, "mechanical marquise", query=question)
    assert asked.entries() and all(is_bot_ruling(index.library.records[e.id]) for e in asked.entries())


def test_rules_add_an_outsiders_factions_sections_in_order(index):
    without = sheet_for(index, "bone patrol")
    assert without.entry_count == 0 and without.rule_count == 0
    sheet = sheet_for(index, "bone patrol", rules=True)
    (group,) = sheet.groups
    sections = [line.section for line in group.rules]
    assert sections and all(s.startswith("BP.") for s in sections)
    assert sections[:24] == [
        "BP.1", "BP.2", "BP.2.1", "BP.2.2", "BP.2.3", "BP.2.4", "BP.2.5", "BP.2.5.i", "BP.2.5.ii", "BP.2.5.iii",
        "BP.2.5.iv", "BP.3", "BP.3.1", "BP.3.2", "BP.3.3", "BP.4", "BP.4.1", "BP.4.2", "BP.4.3", "BP.5", "BP.5.1",
        "BP.5.2", "BP.5.3", "BP.5.4",
    ] and "v2.1" in (group.rules_title or "")
    assert "outsiders" in {s.key for s in sheet.sources}
    assert "fan-rule" in {item.grade for item in sheet.legend}


def test_rules_are_not_repeated_as_entries(index):
    sheet = sheet_for(index, "bone patrol", sources=["outsiders"], rules=True)
    ruled = {line.section for g in sheet.groups for line in g.rules}
    assert not ruled & {e.section for e in sheet.entries()}


def test_every_grade_has_a_badge_that_tells_it_apart_without_colour():
    codes = [grade.code for grade in GRADES.values()]
    assert len(GRADES) == 10 and len(set(codes)) == len(codes) and all(len(c) == 1 for c in codes)


def test_sheet_lists_sources_with_dates_legend_and_section_index(index):
    sheet = official_marquise(index)
    faq = next(s for s in sheet.sources if s.key == "faq")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", faq.date or "")
    assert {item.grade for item in sheet.legend} == {e.grade for e in sheet.entries()}
    indexed = {n for line in sheet.section_index for n in line.entries}
    assert indexed == {e.number for e in sheet.entries() if e.section}
    for line in sheet.section_index:
        for number in line.entries:
            entry = sheet.entries()[number - 1]
            assert line.section in [entry.section, *entry.xrefs]


def test_section_index_has_no_bare_chapter_numbers(index):
    sheet = official_marquise(index)
    law_11 = index.library.records["law-11"]
    assert "5" in law_11.xrefs, "law-11 cites '(5 - Setup)'; the test needs a bare chapter citation"
    assert "5" not in [line.section for line in sheet.section_index]
    for line in sheet_for(index, sources=list(SOURCES)).section_index:
        assert "." in line.section or line.title, f"bare index line {line.section}"


# ---------------------------------------------------------------------------------------------- rendering


def tiny_sheet() -> Sheet:
    """A hand-made sheet, so the golden rendering does not move when the corpus does."""
    law = Entry(1, "law-07", "law", None, False, "Players may only give cards if instructed.", "law", True,
                section="1.3.2", number_basis="number inferred from the Law's order")
    ruling = Entry(2, "faq-900", "faq", "Can the Marquise <overwork> twice?", True,
                   "No. Each sawmill once [per turn].", "designer", True, year=2019,
                   section="6.5.2", section_title="Overwork")
    guess = Entry(3, "faq-901", "faq", "Do bird cards count as any suit?", True, "1. Usually.", "disputed", False)
    rule = RuleLine("BP.2.1", "Crafting", "Crafts with bones.", 1)
    return Sheet(
        title="Root rules cheat sheet: Marquise de Cat",
        filters=["factions: Marquise de Cat"],
        sources=[SourceInfo("faq", "Root FAQ", "2026-10-28"), SourceInfo("law", "Law of Root excerpts", None)],
        groups=[Group("marquise", "Marquise de Cat", "faction", "base game", [law, ruling, guess],
                      rules_title="Bone Patrol rules", rules=[rule])],
        legend=[LegendItem("law", "[L]", "Law", "Law of Root text", True),
                LegendItem("designer", "[D]", "Designer", "Designer ruling (BGG)", True),
                LegendItem("disputed", "[!]", "Disputed", "Disputed", False)],
        section_index=[IndexLine("1.3.2", None, [1]), IndexLine("6.5.2", "Overwork", [2])],
    )


GOLDEN_MARKDOWN = """\
# Root rules cheat sheet: Marquise de Cat

- **Filters:** factions: Marquise de Cat
- **Sources:** Root FAQ (updated 2026-10-28) · Law of Root excerpts (undated)
- **Grades:** `[L] Law` Law of Root text · `[D] Designer` Designer ruling (BGG) · `[!] Disputed`; \
official: Law, rulebook, designer, publisher
- **\\*** reconstructed question: our wording, written for the FAQ's answer

## Marquise de Cat (base game)

**1. § 1.3.2 (number inferred from the Law's order)** · `[L] Law`
> Players may only give cards if instructed.

**2. Can the Marquise \\<overwork\\> twice?**\\* · `[D] Designer 2019` · § 6.5.2 Overwork
> No. Each sawmill once \\[per turn\\].

**3. Do bird cards count as any suit?**\\* · `[!] Disputed`
> 1\\. Usually.

### Bone Patrol rules `[F] Fan rule`

  - **BP.2.1 Crafting**: Crafts with bones.

## Section index

| Section | Entries |
| --- | --- |
| 1.3.2 | 1 |
| 6.5.2 Overwork | 2 |
"""


def test_markdown_golden():
    assert render_markdown(tiny_sheet()) == GOLDEN_MARKDOWN


def test_markdown_of_a_real_sheet(index):
    sheet = official_marquise(index)
    text = render_markdown(sheet)
    assert text.startswith("# Root rules cheat sheet: Marquise de Cat\n")
    assert "\n## Marquise de Cat (base game)\n" in text and "\n## Section index\n" in text
    for entry in sheet.entries():
        assert f"\n**{entry.number}. " in text and f"`{entry.badge}`" in text
    assert len(re.findall(r"^\*\*\d+\. ", text, re.M)) == sheet.entry_count


@pytest.mark.parametrize("render", [render_markdown, render_html])
def test_reconstructed_is_said_once_and_signed_per_entry(index, render):
    sheet = official_marquise(index)
    text = render(sheet)
    assert text.lower().count("reconstructed") == 1 + (
        sum(e.reconstructed for e in sheet.entries()) if render is render_html else 0  # each sign's tooltip
    )
    signed = re.findall(r"\*\*\\\* ·|recon\" title=[^>]*>\*<", text)
    assert len(signed) == sum(e.reconstructed for e in sheet.entries()) > 20


def test_legend_does_not_repeat_a_grade_word():
    page = render_html(tiny_sheet())
    assert "Disputed</span>Disputed" not in page and "Disputed</span></span>" in page
    assert "Designer</span>Designer ruling (BGG)" in page
    assert "`[!] Disputed`;" in render_markdown(tiny_sheet())


def test_html_has_print_css_and_grayscale_badges():
    page = render_html(tiny_sheet())
    assert "size: A4" in page and "size: letter" in render_html(tiny_sheet(), paper="letter")
    assert "column-count: 2" in page and "break-inside: avoid" in page
    assert 'counter(page) " of " counter(pages)' in page
    assert "@top-left" in page, "a margin box on the top edge keeps Chromium's own header off"
    assert '<span class="badge official" title="Designer ruling (BGG)">[D] Designer 2019</span>' in page
    assert '<span class="badge unofficial" title="Disputed">[!] Disputed</span>' in page
    assert "&lt;overwork&gt;" in page and "<overwork>" not in page
    assert 'twice?\u2060<span class="recon"' in page, "a word joiner keeps the sign with the question"
    assert "http" not in page.replace("http-equiv", ""), "self-contained: no external resources"
    with pytest.raises(UsageError):
        render_html(tiny_sheet(), paper="a5")


def test_the_sign_and_note_are_latin1_for_the_pdf_core_fonts():
    (RECONSTRUCTED_SIGN + RECONSTRUCTED_NOTE).encode("latin-1")


def test_to_latin1_keeps_what_it_can():
    text = to_latin1("Step 2 \u2013 \u201cRoll\u201d \u2022 café \u65e5")
    assert text == 'Step 2 - "Roll" \u00b7 café ?'
    text.encode("latin-1")
