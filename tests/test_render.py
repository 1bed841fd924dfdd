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

from rootfaq.corpus.grades import GRADE_LABELS
from rootfaq.corpus.query_model import FACTION_GROUPS
from rootfaq.render.ask import render_ask
from rootfaq.render.browse import render_list, render_section
from rootfaq.render.console import make_console, to_text
from rootfaq.render.record import badge_text, render_record
from rootfaq.search.answers import LIKELY, UNANSWERED, UNSURE, Answer, ScoredHit
from rootfaq.views.ask import ask_view
from rootfaq.views.common import Badge
from rootfaq.views.listing import list_view
from rootfaq.views.record import NEARBY, record_view
from rootfaq.views.section import section_view

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
    hits = [ScoredHit(index.library.records[i], round(2.0 - n * 0.25, 2)) for n, i in enumerate(ids)]
    return Answer("does field hospitls work against a revolt", confident, hits,
                  corrections={"hospitls": "hospitals"}, factions=["marquise"])


def ask_renderable(index, confident: bool = True):
    view = ask_view(index, field_hospitals_answer(index, confident))
    return render_ask(view)


def section_renderable(index):
    return render_section(section_view(index, "4.3.2"))


def show_renderable(index):
    return render_record(record_view(index, index.library.records["rule-BP.2.5"]))


def hand_made_answer(index, ids: list[str], query: str) -> Answer:
    """An answer with these hits in this order: the screen, not the ranking, is under test."""
    records = index.library.records
    return Answer(query, True, [ScoredHit(records[i], round(2.0 - n * 0.25, 2)) for n, i in enumerate(ids)])


def ask_same_topic_renderable(index):
    """An answer that cites no section: related rules are the records on the same topic."""
    answer = hand_made_answer(index, ["faq-071", "faq-206", "faq-016"], "can I ambush with no warriors there")
    return render_ask(ask_view(index, answer))


def ask_missing_section_renderable(index):
    """An answer citing a section the corpus lacks: named once, with the rulebook that prints it."""
    answer = hand_made_answer(index, ["faq-062", "faq-064", "rule-OF.2.9"], "immediate effects")
    return render_ask(ask_view(index, answer))


def section_heading_renderable(index):
    """A heading without text of its own lists its sections."""
    return render_section(section_view(index, "WM 3"))


def section_missing_renderable(index):

    return render_section(section_view(index, "4.3.9"))


def list_renderable(index):
    return render_list(list_view(index.library))


def ask_unsure_renderable(index):
    """Not sure, and the best is not likely enough to show: "Did you mean" with three candidates, one line each."""
    answer = hand_made_answer(index, ["faq-021", "faq-022", "faq-112", "faq-085"], "can the cats build in a ruin")
    answer.confident, answer.probability, answer.certainty = False, 0.31, UNSURE
    return render_ask(ask_view(index, answer))


def ask_likely_renderable(index):
    """Not sure, but likely: the candidates, then the likeliest in full."""
    answer = hand_made_answer(index, ["faq-021", "faq-022", "faq-112"], "are roosts buildings")
    answer.confident, answer.probability, answer.certainty = False, 0.62, LIKELY
    return render_ask(ask_view(index, answer))


def ask_unanswered_renderable(index):
    """Below the floor: nothing in the sources answers it, and where to look instead."""
    answer = hand_made_answer(index, ["faq-021", "faq-022"], "who designed root")
    answer.confident, answer.probability, answer.certainty = False, 0.04, UNANSWERED
    return render_ask(ask_view(index, answer))


def ask_multi_renderable(index):
    """A post asking two questions: a block each, each answered on its own."""
    first = hand_made_answer(index, ["faq-168", "faq-158"], "is slip affected by the extra boot for Hostile?")
    second = hand_made_answer(index, ["faq-165", "faq-022"], "does exploring a ruin need more than a torch?")
    second.confident, second.probability, second.certainty = False, 0.3, UNSURE
    post = Answer("Two Vagabond questions. Is slip affected by the extra boot for Hostile? Does exploring a ruin "
                  "need more than a torch?",
                  True, first.hits[:1] + second.hits[:1], parts=[first, second])
    return render_ask(ask_view(index, post))


CASES = {
    "ask": ask_renderable,
    "ask-same-topic": ask_same_topic_renderable,
    "ask-missing-section": ask_missing_section_renderable,
    "section": section_renderable,
    "section-heading": section_heading_renderable,
    "section-missing": section_missing_renderable,
    "show": show_renderable,
    "list": list_renderable,
    "ask-unsure": ask_unsure_renderable,
    "ask-likely": ask_likely_renderable,
    "ask-unanswered": ask_unanswered_renderable,
    "ask-multi": ask_multi_renderable,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_plain_golden(index, name):
    text = to_text(CASES[name](index), width=80, color=False)
    assert not ANSI.search(text)
    assert max(len(line) for line in text.splitlines()) <= 80
    check_golden(f"{name}.txt", text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_colour_golden(index, name):
    text = to_text(CASES[name](index), width=80, color=True)
    assert ANSI.search(text), "colour output has styles"
    plain = to_text(CASES[name](index), width=80, color=False)
    assert ANSI.sub("", text) == plain, "colour changes style only, never the words or the layout"
    check_golden(f"{name}.ansi", text)


@pytest.mark.parametrize("width", [40, 100])
def test_an_answer_with_related_rules_at_narrow_and_wide_terminals(index, width):
    """At 40 columns a listed hit keeps its whole question (wrapped under its id and badge), never
    "faq-109  [Rulebook] If the Keep and…"; at 100 each stays on one line."""
    text = to_text(ask_renderable(index), width=width, color=False)
    check_golden(f"ask-{width}.txt", text)
    assert max(len(line) for line in text.splitlines()) <= width
    if width < 60:
        assert "…" not in text.split("Related rules")[1]
        assert "Field Hospitals still save the" in " ".join(text.split())
    else:
        assert "  faq-109  [Rulebook] If the Keep and Marquise warriors" in text


def test_ask_golden_content(index):
    """What the golden must show, said in words, so a regenerated golden cannot silently lose it."""
    text = to_text(ask_renderable(index), width=80)
    assert "Read “hospitls” as “hospitals”." in text
    assert "question reconstructed" in text
    assert "[Rulebook] 6.2.3 Field Hospitals · FAQ 2026-10-28" in text
    assert "Related rules" in text and "Law of Root text, quoted in The Outsiders' Golden" in text
    assert "Whenever any number of Marquise warriors are removed" in text  # the cited section's text
    assert "Other possible answers" in text
    for record_id in ("faq-109", "faq-107", "rule-6.2.3", "faq-271"):
        assert record_id in text


def test_unsure_answers_ask_back_with_three_candidates_one_line_each(index):
    text = to_text(ask_unsure_renderable(index), width=80)
    flat = " ".join(text.split())
    assert "Not sure what answers “can the cats build in a ruin” (the best match is 31% likely to be right). " \
           "Did you mean:" in flat
    lines = text.splitlines()
    numbered = [line.split()[:2] for line in lines if line.startswith("  ") and line.split()[0] in "123"]
    assert numbered == [["1", "faq-021"], ["2", "faq-022"], ["3", "faq-112"]]
    assert "faq-085" not in text, "three candidates, no more"
    assert "Roosts are buildings" not in text, "no answer text in full when the best is not likely enough"
    assert "rootfaq show ID opens one." in text


def test_a_likely_answer_shows_the_best_in_full_under_its_candidates(index):
    text = to_text(ask_likely_renderable(index), width=80)
    assert text.index("1  faq-021") < text.index("The likeliest, 1:") < text.index("Roosts are buildings")
    assert "Ruins are always placed" not in text, "only the likeliest in full"


def test_below_the_floor_nothing_answers_it_and_it_says_where_to_look(index):
    text = " ".join(to_text(ask_unanswered_renderable(index), width=80).split())
    assert "Nothing in the sources answers “who designed root” clearly" in text
    assert "rootfaq section 4.3.2" in text and "rootfaq list --faction cats" in text
    assert "faq-021" not in text


def test_below_the_floor_the_hint_browses_the_faction_the_question_names(index):
    answer = hand_made_answer(index, ["faq-167", "faq-055"], "vaga")
    answer.confident, answer.probability, answer.certainty = False, 0.0, UNANSWERED
    answer.factions = ["vagabond"]
    text = " ".join(to_text(render_ask(ask_view(index, answer)), width=80).split())
    assert "rootfaq list --faction vagabond" in text and "--faction cats" not in text


def test_a_question_with_nothing_left_to_search_says_nothing_found_without_empty_quotes(index):
    answer = Answer("", False, [], ["empty question: type a rules question or a section number"])
    text = " ".join(to_text(render_ask(ask_view(index, answer)), width=80).split())
    assert "note: empty question" in text and "Nothing found." in text and "“”" not in text


def test_not_sure_of_a_post_quotes_its_question_not_the_whole_post(index):
    story = "Two vagabonds last night, one ruin left on the map with two items under it. " * 3
    answer = hand_made_answer(index, ["faq-165", "faq-173", "faq-166"], story + "Does the second one see both?")
    answer.confident, answer.probability, answer.certainty = False, 0.3, UNSURE
    answer.question = "Does the second one see both?"
    text = " ".join(to_text(render_ask(ask_view(index, answer)), width=80).split())
    assert "Not sure what answers “Does the second one see both?”" in text and "last night" not in text


def test_a_long_question_is_quoted_back_shortened_at_a_word(index):
    long = "can the cats build " + "and also build " * 40 + "in a ruin"
    answer = hand_made_answer(index, ["faq-022"], long)
    answer.confident, answer.probability, answer.certainty = False, 0.02, UNANSWERED
    text = " ".join(to_text(render_ask(ask_view(index, answer)), width=80).split())
    quoted = text.split("“", 1)[1].split("”", 1)[0]
    assert quoted.endswith("build…") and len(quoted) <= 201 and "in a ruin" not in quoted


def test_a_multi_question_post_gets_a_block_per_question(index):
    text = to_text(ask_multi_renderable(index), width=80)
    assert "Your post asks 2 questions; each is answered on its own." in text
    first, second = text.split("Question 2:")
    assert "Question 1: is slip affected by the extra boot for Hostile?" in first and "faq-168" in first
    assert "Not sure" not in first
    assert "does exploring a ruin need more than a torch?" in second and "Not sure" in second


def test_nothing_found_says_so(index):
    text = to_text(render_ask(ask_view(index, Answer("asdfgh", False, []))), width=80)
    assert "Nothing found for “asdfgh”" in text


def test_section_golden_content(index):
    text = to_text(section_renderable(index), width=80)
    assert "4.3.2 Step 2: Roll Dice" in text and "4.3.2.i Maximum Rolled Hits" in text  # sub-item
    assert "The Outsiders (fan expansion) › Golden Reminders" in text  # path
    assert "Rulings citing 4.3.2" in text and "faq-073" in text
    assert "Sections that refer to 4.3.2" in text


def test_law_numbers_show_how_they_were_found(index):
    text = to_text(render_record(record_view(index, index.library.records["law-07"])), width=80)
    assert "1.3.2 (number inferred from the Law's order)" in text


@pytest.mark.parametrize("grade", ["designer", "disputed", "fan-rule", "ungraded"])
def test_every_badge_names_its_grade(index, grade):
    record = next(r for r in index.library.records.values() if r.grade == grade and r.is_answer)
    text = to_text(render_record(record_view(index, record)), width=80)
    assert f"[{GRADE_LABELS[grade]}]" in text
    if grade == "designer":
        assert str(record.year) in text
    if grade == "disputed":
        assert record.grade_sentence in text.replace("\n  ", " ")


def test_corpus_brackets_print_as_they_are(index):
    record = index.library.records["faq-108"]
    view = record_view(index, record)
    view.record = type(record)(**{**record.__dict__, "text": "[bold]not markup[/bold] [Rulebook]"})
    text = to_text(render_record(view), width=80)
    assert "[bold]not markup[/bold] [Rulebook]" in text


def test_hit_lines_are_cut_to_the_width(index):
    text = to_text(ask_renderable(index), width=60)  # the narrowest width that keeps a hit on one line
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "…" in text


def test_columns_0_means_an_unknown_width_not_an_empty_screen(monkeypatch, index):
    """A shell that sets COLUMNS=0 (no terminal to ask) once made rich print nothing at all: the answer lost."""
    monkeypatch.setenv("COLUMNS", "0")
    console = make_console(file=io.StringIO())
    assert console.width >= 20  # the terminal's, or 80 without one
    console.print(ask_renderable(index))
    assert "faq-" in console.file.getvalue()


def test_width_follows_the_terminal_and_no_color_wins(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert make_console(file=io.StringIO()).width == 100
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = make_console(file=io.StringIO())
    coloured.print(badge_text(Badge("disputed", "Disputed")))
    assert ANSI.search(coloured.file.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    plain = make_console(file=io.StringIO())
    plain.print(badge_text(Badge("disputed", "Disputed")))
    assert not ANSI.search(plain.file.getvalue())


def test_no_trailing_blanks_in_any_line(index):
    for make in CASES.values():
        for colour in (False, True):
            text = to_text(make(index), width=80, color=colour)
            assert not re.search(r"[ \t]+(\x1b\[[0-9;]*m)*$", text, re.MULTILINE)


# --- related rules, look-ups and list layout, said in words -------------------------------------------------

ID_AT_LINE_START = re.compile(r"^\s*((?:faq|law|rule)-\S+)  \[", re.MULTILINE)


@pytest.mark.parametrize("name", ["ask", "ask-same-topic", "ask-missing-section"])
def test_no_record_is_listed_twice_on_an_ask_screen(index, name):
    listed = ID_AT_LINE_START.findall(to_text(CASES[name](index), width=80))
    assert listed and len(listed) == len(set(listed)), listed


def test_an_answer_citing_no_section_still_shows_rules_on_its_topic(index):
    text = to_text(ask_same_topic_renderable(index), width=80)
    related = text.split("Related rules", 1)[1].split("Other possible answers", 1)[0]
    assert "On the same topic" in related
    assert "faq-072" in related  # the example: ambushes
    assert "rule-WM.2.2" not in related, "no fan rule under a base-game ruling that names none"
    assert len([line for line in related.splitlines() if line.startswith("    ")]) <= NEARBY


def test_a_section_the_corpus_lacks_is_named_once_with_its_rulebook(index):
    text = to_text(ask_missing_section_renderable(index), width=80)
    assert text.count("4.1.2 Immediate Effects: in the Law of Root, not in these sources") == 1
    assert "its text is not in the corpus" not in text
    reminders = to_text(render_record(
        record_view(index, index.library.records["rule-part-golden-reminders"])), width=80)
    assert "CC.2.3.vii: in The Outsiders, but not in its text here" in reminders


def test_a_heading_without_text_lists_its_sections_in_place_of_an_empty_body(index):
    lines = to_text(section_heading_renderable(index), width=80).splitlines()
    start = lines.index("WM.3 Faction Setup")
    assert lines[start + 1] == "" and "without text of its own" in lines[start + 2]
    assert lines[start + 3].startswith("  WM.3.1 Step 1: Takeover the Ruins")
    assert "" not in lines[start + 2 : start + 4], "no empty body"


def test_a_missing_section_suggests_neighbours_by_number_or_says_nothing_is_near(index):

    assert "Nearest sections: 4.3.2, 4.3.3, 4.3.4" in to_text(section_missing_renderable(index))
    far = to_text(render_section(section_view(index, "99.9")))
    assert "No section near it in these sources." in far and "OF.2.9" not in far and "G.1.19" not in far


def test_the_faction_list_keeps_every_column_whole(index):
    text = to_text(list_renderable(index), width=80)
    assert "…" not in text and "(riverf" not in text
    for group in FACTION_GROUPS.values():
        assert f"\n  {group}\n" in text
    assert "    logical-lizards     Logical Lizards           1 ruling " in text


def test_a_question_the_posts_list_asks_again_says_so_in_its_heading(index):
    story = hand_made_answer(index, ["faq-165"], "Also, does exploring a ruin need a torch?")
    listed = hand_made_answer(index, ["faq-165", "faq-022"], "does exploring a ruin need a torch?")
    other = hand_made_answer(index, ["faq-168"], "is slip affected by the extra boot for Hostile?")
    post = Answer("Vagabond. Also, does exploring a ruin need a torch? 1) does exploring a ruin need a torch? "
                  "2) is slip affected by the extra boot for Hostile?", False, listed.hits[:1] + other.hits[:1],
                  parts=[story, listed, other], restating=(0,))
    text = to_text(render_ask(ask_view(index, post)), width=100)
    assert "Question 1: Also, does exploring a ruin need a torch? (asked again in your list)" in text
    assert "Question 2: does exploring a ruin need a torch?\n" in text
    assert text.count("asked again") == 1


def test_a_multi_question_post_that_is_not_sure_still_gets_a_block_per_question(index):
    first = hand_made_answer(index, ["faq-168", "faq-158"], "is slip affected by the extra boot for Hostile?")
    second = hand_made_answer(index, ["faq-165", "faq-022"], "does exploring a ruin need more than a torch?")
    for part in (first, second):
        part.confident, part.probability, part.certainty = False, 0.3, UNSURE
    post = Answer("Two Vagabond questions. Is slip affected? Does exploring need a torch?", False,
                  first.hits[:1] + second.hits[:1], probability=0.3, certainty=UNSURE, parts=[first, second])
    view = ask_view(index, post)
    assert len(view.parts) == 2, "the post's questions were dropped when the post was not sure"
    text = to_text(render_ask(view), width=80)
    assert "Question 1:" in text and "Question 2:" in text
