"""Related rules under every answer (records on the same topic), and look-ups by number: nearest sections
and ids by numeric closeness on the same prefix."""

from __future__ import annotations

import pytest

from rootfaq.corpus import refs
from rootfaq.search import answers as search
from rootfaq.search.related import related_records
from rootfaq.views.ask import ask_view
from rootfaq.views.record import NEARBY, record_view
from rootfaq.views.show import resolve_id


def test_an_ambush_ruling_is_related_to_the_ambush_rulings_and_no_fan_rule(index):
    found = [r.id for r in related_records(index, index.library.records["faq-071"], limit=3)]
    assert "faq-072" in found
    # Base game first, as in search: the Winged Menace's ambush rule (WM.2.2) is no neighbour of a base
    # ruling that names no fan faction or map.
    assert all(index.library.records[i].grade != "fan-rule" for i in found), found


def test_a_fan_rule_keeps_its_fan_neighbours_and_the_rulings_beside_it(index):
    found = [index.library.records[r.id] for r in related_records(index, index.library.records["rule-WM.2.2"], limit=3)]
    assert found[0].source == "faq", "the other source's nearest comes first"
    assert any(r.grade == "fan-rule" and r.section.startswith("WM.") for r in found)


@pytest.mark.parametrize("record_id", ["rule-OMT.6", "rule-A.8.1.i", "rule-part-components"])
def test_a_heading_without_a_rule_is_never_a_related_rule(index, record_id):
    """Old Man Tinker's Evening once listed "OMT.4 Birdsong", a heading with no text of its own."""
    related = related_records(index, index.library.records[record_id])
    assert related and not any(r.holds_no_rule for r in related)


def test_the_records_shown_beside_a_record_are_not_repeated(index):
    record = index.library.records["faq-108"]
    nearby = record_view(index, record).related
    assert "rule-6.2.3" not in {n.id for n in nearby.nearby}  # it is the cited section
    assert "faq-109" not in {n.id for n in nearby.nearby}  # it cites the same section
    excluded = {r.id for r in related_records(index, record, limit=3)}
    again = {r.id for r in related_records(index, record, limit=3, exclude=excluded)}
    assert not excluded & again


def test_related_records_keep_to_the_records_topic_faction_and_game(index):
    """Every answer: a few lines at most, never itself, a shared topic and faction, no bot ruling beside
    a base-game record, nothing from its own section family."""
    bots = index.library.query_model.bot_groups()
    assert bots == {"clockwork"}
    for record in index.library.records.values():
        if not record.is_answer:
            continue
        found = related_records(index, record, limit=NEARBY)
        assert len(found) <= NEARBY
        for other in found:
            assert other.id != record.id and other.is_answer
            if record.topics and other.topics:
                assert set(record.topics) & set(other.topics), (record.id, other.id)
            if record.factions and other.factions:
                assert set(record.factions) & set(other.factions), (record.id, other.id)
            if not bots & set(record.factions):
                assert not bots & set(other.factions), (record.id, other.id)
            if record.source != "faq" and other.source != "faq" and record.section and other.section:
                assert refs.base_ref(record.section) != refs.base_ref(other.section), (record.id, other.id)


@pytest.mark.parametrize("question", ["§6.2.3", "does field hospitals work against a revolt",
                                      "can I have more than five cards in hand",
                                      "can I ambush when I have no warriors in the clearing"])
def test_an_ask_screen_names_no_record_twice(index, question):
    view = ask_view(index, search.ask(index, question, limit=10), others=4)
    rel = view.best.related
    named = [r.id for r in rel.rules if r.id] + [c.id for c in rel.citing] + [n.id for n in rel.nearby]
    named += [o.id for o in view.others] + [view.best.id]
    assert len(named) == len(set(named)), named


# --- nearest by number ---------------------------------------------------------------------------------------

SECTIONS = ["1.5.1", "1.5.2", "4.1.1", "4.3.2", "4.3.2.i", "4.3.3", "4.3.3.i", "4.3.3.ii", "4.3.4", "BP.1",
            "BP.2", "BP.2.1", "BP.2.5", "BP.2.5.i", "BP.2.5.iv", "BP.6", "BP.6.1", "G.1.19", "G.1.33", "OF.2.9"]


@pytest.mark.parametrize(
    "missing, nearest",
    [
        ("4.3.9", ["4.3.2", "4.3.3", "4.3.4"]),  # siblings, closest numbers, in reading order
        ("99.9", []),  # another chapter of the Law is not near (it used to suggest OF.2.9 and G.1.19)
        ("4", ["4.1.1", "4.3.2", "4.3.3", "4.3.4"]),  # a chapter: its own sections
        ("BP.9", ["BP.6"]),  # top level of a prefix: within reach
        ("BP.99", []),
        ("BP.2.5.vii", ["BP.2.5.i", "BP.2.5.iv"]),  # sub-items only for a sub-item
        ("G.1.20", ["G.1.19", "G.1.33"]),
        ("1.6", ["1.5.1", "1.5.2"]),
    ],
)
def test_nearest_sections_are_close_in_number_on_the_same_prefix(missing, nearest):
    assert refs.nearest(missing, SECTIONS) == nearest


def test_printing_of_a_section_number(index):
    printing_of = index.library.query_model.section_numbers().printing_of
    assert printing_of("4.1.2") == printing_of("G.1.22") == printing_of("A") == "the Law of Root"
    assert printing_of("CC.2.3.vii") == printing_of("S.1.9") == "The Outsiders"


@pytest.mark.parametrize(
    "typed, hint",
    [
        ("faq-0108", "did you mean: faq-108, faq-107, faq-109"),  # it used to suggest faq-010 ... faq-014
        ("0108", "did you mean: faq-108"),
        ("faq-286", "did you mean: faq-284"),
        ("faq-999", "FAQ ids run from faq-001 to faq-284"),
        ("law-015", "did you mean: law-14"),
        ("rule-BP.2.9", "did you mean: rule-BP.2.3, rule-BP.2.4, rule-BP.2.5"),
        ("rule-99.9", "no section near 99.9 in these sources"),
        ("faq-108x", "did you mean: faq-108"),
    ],
)
def test_a_mistyped_id_suggests_the_ids_nearest_in_number(index, typed, hint):
    from rootfaq.errors import NotFound

    with pytest.raises(NotFound) as err:
        resolve_id(index, typed)
    assert err.value.hint.startswith(hint), err.value.hint
