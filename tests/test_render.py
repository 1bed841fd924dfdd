"""Rendering: golden files at a fixed width of 80, plain and colour, for ask, section and show.

The goldens render views of fixed records (the ask view is built from a hand-made answer, so a change in
ranking does not touch them; a change in the corpus or the layout does). After an intended change:

    ROOTFAQ_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_render.py

then read the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from rootfaq import render, views
from rootfaq.search import Answer, ScoredHit

GOLDEN = Path(__file__).parent / "golden"
REGEN = bool(os.environ.get("ROOTFAQ_REGEN_GOLDEN"))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"{path} is missing: run ROOTFAQ_REGEN_GOLDEN=1 pytest tests/test_render.py")
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, "utf-8")
    assert text == path.read_text("utf-8"), f"{name} differs; if intended, regenerate (see module docstring)"


def field_hospitals_answer(index, confident: bool = True) -> Answer:
    ids = ["faq-108", "faq-109", "faq-107", "rule-6.2.3", "faq-271"]
    hits = [ScoredHit(index.records[i], round(2.0 - n * 0.25, 2)) for n, i in enumerate(ids)]
    return Answer("does field hospitls work against a revolt", confident, hits,
                  corrections={"hospitls": "hospitals"}, factions=["marquise"])


def ask_renderable(index, confident: bool = True):
    view = views.ask_view(index, field_hospitals_answer(index, confident))
    return render.render_ask(view)


def section_renderable(index):
    return render.render_section(views.section_view(index, "4.3.2"))


def show_renderable(index):
    return render.render_record(views.record_view(index, index.records["rule-BP.2.5"]))


CASES = {"ask": ask_renderable, "section": section_renderable, "show": show_renderable}


@pytest.mark.parametrize("name", sorted(CASES))
def test_plain_golden(index, name):
    text = render.to_text(CASES[name](index), width=80, color=False)
    assert not ANSI.search(text)
    assert max(len(line) for line in text.splitlines()) <= 80
    check_golden(f"{name}.txt", text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_colour_golden(index, name):
    text = render.to_text(CASES[name](index), width=80, color=True)
    assert ANSI.search(text), "colour output has styles"
    plain = render.to_text(CASES[name](index), width=80, color=False)
    assert ANSI.sub("", text) == plain, "colour changes style only, never the words or the layout"
    check_golden(f"{name}.ansi", text)


def test_ask_golden_content(index):
    """What the golden must show, said in words, so a regenerated golden cannot silently lose it."""
    text = render.to_text(ask_renderable(index), width=80)
    assert "Read “hospitls” as “hospitals”." in text
    assert "question reconstructed" in text
    assert "[Rulebook] 6.2.3 Field Hospitals · FAQ 2026-10-28" in text
    assert "Related rules" in text and "Law of Root text, quoted in The Outsiders' Golden" in text
    assert "Whenever any number of Marquise warriors are removed" in text  # the cited section's text
    assert "Other possible answers" in text
    for record_id in ("faq-109", "faq-107", "rule-6.2.3", "faq-271"):
        assert record_id in text


def test_unsure_answers_are_labelled_as_guesses(index):
    text = render.to_text(ask_renderable(index, confident=False), width=80)
    assert "Not sure" in text and "guesses" in text
    assert "Guess  faq-108" in text and "Other guesses" in text
    assert "Other possible answers" not in text


def test_nothing_found_says_so(index):
    text = render.to_text(render.render_ask(views.ask_view(index, Answer("asdfgh", False, []))), width=80)
    assert "Nothing found for “asdfgh”" in text


def test_section_golden_content(index):
    text = render.to_text(section_renderable(index), width=80)
    assert "4.3.2 Step 2: Roll Dice" in text and "4.3.2.i Maximum Rolled Hits" in text  # sub-item
    assert "The Outsiders (fan expansion) › Golden Reminders" in text  # path
    assert "Rulings citing 4.3.2" in text and "faq-073" in text
    assert "Sections that refer to 4.3.2" in text


def test_law_numbers_show_how_they_were_found(index):
    text = render.to_text(render.render_record(views.record_view(index, index.records["law-07"])), width=80)
    assert "1.3.2 (number inferred from the Law's order)" in text


@pytest.mark.parametrize("grade", ["designer", "disputed", "fan-rule", "ungraded"])
def test_every_badge_names_its_grade(index, grade):
    record = next(r for r in index.records.values() if r.grade == grade and r.is_answer)
    text = render.to_text(render.render_record(views.record_view(index, record)), width=80)
    assert f"[{views.GRADE_LABELS[grade]}]" in text
    if grade == "designer":
        assert str(record.year) in text
    if grade == "disputed":
        assert record.grade_sentence in text.replace("\n  ", " ")


def test_corpus_brackets_print_as_they_are(index):
    record = index.records["faq-108"]
    view = views.record_view(index, record)
    view.record = type(record)(**{**record.__dict__, "text": "[bold]not markup[/bold] [Rulebook]"})
    text = render.to_text(render.render_record(view), width=80)
    assert "[bold]not markup[/bold] [Rulebook]" in text


def test_hit_lines_are_cut_to_the_width(index):
    text = render.to_text(ask_renderable(index), width=50)
    assert max(len(line) for line in text.splitlines()) <= 50
    assert "…" in text


def test_width_follows_the_terminal_and_no_color_wins(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert render.make_console(file=io.StringIO()).width == 100
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = render.make_console(file=io.StringIO())
    coloured.print(render.badge_text(views.Badge("disputed", "Disputed")))
    assert ANSI.search(coloured.file.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    plain = render.make_console(file=io.StringIO())
    plain.print(render.badge_text(views.Badge("disputed", "Disputed")))
    assert not ANSI.search(plain.file.getvalue())


def test_no_trailing_blanks_in_any_line(index):
    for make in CASES.values():
        for colour in (False, True):
            text = render.to_text(make(index), width=80, color=colour)
            assert not re.search(r"[ \t]+(\x1b\[[0-9;]*m)*$", text, re.MULTILINE)
