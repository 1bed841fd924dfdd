"""The library (rootfaq/api.py), tested like the command line: the same objects `--json` prints, the same
errors, nothing loaded at import; and the JSON contract pinned by golden files (tests/golden/*.json).

After an intended change to the contract: ROOTFAQ_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_api.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rootfaq
from rootfaq import api
from rootfaq.errors import RootfaqError, UsageError
from rootfaq.search.answers import Answer, ScoredHit
from rootfaq.views.contract import answer_json, failed_answer_json

GOLDEN = Path(__file__).parent / "golden"
REGEN = bool(os.environ.get("ROOTFAQ_REGEN_GOLDEN"))
ROOTFAQ = Path(sys.executable).with_name("rootfaq")


def cli_json(*args: str) -> dict:
    result = subprocess.run([str(ROOTFAQ), *args, "--json"], capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def companion(index):
    return api.Companion(index)


def test_the_package_hands_out_the_library_without_loading_it_at_import():
    code = ("import sys, rootfaq; print(sorted(m for m in sys.modules if m.startswith('rootfaq')));"
            "print(rootfaq.ask is __import__('rootfaq.api').api.ask)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout.split("\n")
    assert out[0] == "['rootfaq']", "importing rootfaq loads nothing else"
    assert out[1] == "True"
    with pytest.raises(AttributeError):
        rootfaq.no_such_function  # noqa: B018


@pytest.mark.parametrize("question", ["does field hospitals work against a revolt", "bp 2.5 iv",
                                      "Two vagabond questions. Does he need a torch to explore? And can he aid a "
                                      "hostile faction?"])
def test_ask_is_what_ask_json_prints(companion, question):
    assert companion.ask(question) == cli_json("ask", question)


def test_filters_are_read_as_on_the_command_line(companion):
    ours = companion.ask("ambush", factions=["birds", "the cats"], official=True, limit=3)
    assert ours == cli_json("ask", "--faction", "birds", "--faction", "the cats", "--official", "-n", "3", "ambush")
    assert 0 < len(ours["hits"]) <= 3
    assert all({"eyrie", "marquise"} & set(h["factions"]) for h in ours["hits"])


def test_section_record_and_records_are_the_json_of_their_commands(companion):
    assert companion.section("lords of the forest") == cli_json("section", "lords of the forest")
    assert companion.record("108") == cli_json("show", "108")
    assert companion.records(factions=["cats"], topic="battle") == cli_json("list", "-f", "cats", "-t", "battle")


def test_mistakes_raise_usage_errors_with_a_hint(companion):
    for call in (lambda: companion.ask("x", factions=["gnomes"]), lambda: companion.ask("x", limit=0),
                 lambda: companion.ask("x", limit=True), lambda: companion.ask("x", sources=["bgg"]),
                 lambda: companion.records(topic="battel")):
        with pytest.raises(UsageError) as caught:
            call()
        assert caught.value.hint and isinstance(caught.value, RootfaqError)
    with pytest.raises(RootfaqError):
        companion.record("faq-999")


@pytest.mark.parametrize("call, says", [
    (lambda c: c.ask(None), "the question must be text (a str), not NoneType"),
    (lambda c: c.ask(b"hand limit"), "the question must be text (a str), not bytes"),
    (lambda c: c.section(4.3), "the section number must be text (a str), not float"),
    (lambda c: c.record(108), "the record id must be text (a str), not int"),
    (lambda c: c.records(topic=3), "the topic must be text (a str), not int"),
    (lambda c: c.ask("x", factions=5), "factions must be a name or a list of names, not int"),
    (lambda c: c.ask("x", factions=["cats", None]), "each name in factions must be text (a str), not NoneType"),
    (lambda c: c.records(sources=[1]), "each name in sources must be text (a str), not int"),
])
def test_a_value_of_the_wrong_type_is_a_usage_error_that_names_it(companion, call, says):
    """A script's None or number is said plainly at the library's edge, never an AttributeError from inside."""
    with pytest.raises(UsageError) as caught:
        call(companion)
    assert caught.value.message == says and caught.value.hint.startswith("for example: ")


def test_a_request_is_checked_where_it_is_made():
    assert api.Request(("marquise",), limit=50).limit == 50
    for limit in (0, 51, "3", 2.5):
        with pytest.raises(UsageError):
            api.Request(limit=limit)


def test_the_module_functions_share_one_companion(monkeypatch, companion):
    api.companion.cache_clear()
    monkeypatch.setattr(api.Companion, "open", classmethod(lambda cls, **_: companion))
    assert rootfaq.ask("hand limit") == companion.ask("hand limit")
    assert api.companion() is api.companion() is companion
    api.companion.cache_clear()


# --- the JSON contract, pinned -------------------------------------------------------------------------------


def check_golden_json(name: str, obj) -> None:
    text = json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    path = GOLDEN / name
    if REGEN:
        path.write_text(text, "utf-8")
    assert path.exists(), f"{path} is missing: run ROOTFAQ_REGEN_GOLDEN=1 pytest tests/test_api.py"
    assert text == path.read_text("utf-8"), f"{name} differs; if intended, regenerate (see module docstring)"


def test_golden_ask_object(index):
    """A hand-made answer (the contract is under test, not the ranking), with one part per question."""
    hits = [ScoredHit(index.library.records[i], s) for i, s in (("faq-108", 2.0), ("rule-6.2.3", 1.5))]
    part = Answer("does field hospitals work against a revolt", True, hits[:1], probability=0.93,
                  certainty="confident", factions=["marquise"])
    answer = Answer("does field hospitls work against a revolt? and the keep?", True, hits, ["a notice"],
                    {"hospitls": "hospitals"}, ["marquise"], probability=0.93, playing="alliance", parts=[part],
                    certainty="confident")
    check_golden_json("ask.json", answer_json(answer))


def test_golden_batch_error_object():
    check_golden_json("batch-error.json", failed_answer_json("\x00garbage", "error: ValueError"))


def test_golden_show_and_section_objects(companion):
    check_golden_json("show.json", companion.record("faq-108"))
    check_golden_json("section.json", companion.section("4.3.2"))
