"""The command line: exit codes, JSON, errors with hints, help with examples, and the typer-free hot path.

CliRunner drives the typer app in process (catch_exceptions=False: a bug fails the test with its
traceback). A few tests run the installed `rootfaq` script, because scripts call it that way.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from rootfaq.cli import app as cli
from rootfaq.cli import main as entry_point
from rootfaq.cli import shell
from rootfaq.cli.fast import parse_fast
from rootfaq.errors import EXIT_DATA, EXIT_FOUND, EXIT_NOTHING_FOUND, EXIT_USAGE, IndexFailure
from rootfaq.views.contract import HIT_KEYS
from rootfaq.views.factions import faction_completions

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": None})
ROOTFAQ = Path(sys.executable).with_name("rootfaq")


def run(*args: str, input: str | None = None):
    return runner.invoke(cli.app, list(args), input=input, catch_exceptions=False)


@pytest.fixture(scope="module", autouse=True)
def _built(index):
    """Build the session index before the first command runs, so no test sees a build notice."""
    return index


# --- ask ----------------------------------------------------------------------------------------------------


def test_ask_json_prints_the_contract_and_exits_0():
    result = run("ask", "--json", "does field hospitals work against a revolt")
    assert result.exit_code == EXIT_FOUND
    answer = json.loads(result.stdout)
    assert {"query", "confident", "hits"} <= set(answer)
    assert answer["hits"], "a real question finds something"
    assert set(HIT_KEYS) <= set(answer["hits"][0])
    assert result.stdout.count("\n") == 1


def test_ask_text_shows_answer_provenance_related_rules_and_others():
    result = run("ask", "does", "field", "hospitals", "work", "against", "a", "revolt")  # quotes optional
    assert result.exit_code == EXIT_FOUND
    out = result.stdout
    assert "[Rulebook]" in out and "FAQ 2026-10-28" in out
    assert "Related rules" in out and "Other possible answers" in out
    assert "\x1b[" not in out, "not a terminal: plain text"


def test_a_post_whose_rules_questions_are_answered_surely_exits_0_beside_a_question_asking_for_advice():
    result = run("ask", "--json", "1) does the keep stop other factions from placing pieces in its clearing "
                                  "2) is it worth crafting the Royal Claim")
    assert result.exit_code == EXIT_FOUND
    answer = json.loads(result.stdout)
    assert answer["confident"] and [part["confident"] for part in answer["parts"]] == [True, False]
    alone = run("ask", "any tips for the otters")
    assert alone.exit_code == EXIT_NOTHING_FOUND
    assert alone.stdout == (  # at 80 columns
        "note: a question asking how to play well gets candidates only: the sources hold\n"
        "rules, not strategy\n"
        "Nothing in the sources answers “any tips for the otters” clearly.\n"
        "Try a section number (rootfaq section 4.3.2), browse a faction (rootfaq list\n"
        "--faction riverfolk), or ask with other words.\n")
    likely = run("ask", "is it worth crafting the Royal Claim")  # 70% likely by the calibrated model: not said so
    assert likely.exit_code == EXIT_NOTHING_FOUND
    assert "\nNot sure what answers “is it worth crafting the Royal Claim”. Did you mean:\n" in likely.stdout


def test_ask_nothing_found_exits_1_in_text_and_json():
    result = run("ask", "asdfgh qwzx")
    assert result.exit_code == EXIT_NOTHING_FOUND
    assert "Nothing found" in result.stdout
    result = run("ask", "--json", "asdfgh qwzx")
    assert result.exit_code == EXIT_NOTHING_FOUND
    assert json.loads(result.stdout)["hits"] == []


def test_candidates_are_offered_but_exit_1_when_not_confident():
    result = run("ask", "--json", "can cats build in ruins")
    assert result.exit_code == EXIT_NOTHING_FOUND
    answer = json.loads(result.stdout)
    assert answer["confident"] is False and answer["hits"] and answer["certainty"] in ("likely", "unsure")
    result = run("ask", "can cats build in ruins")
    assert result.exit_code == EXIT_NOTHING_FOUND
    out = " ".join(result.stdout.split())
    assert "Not sure what answers" in out and "likely to be right" in out and "Did you mean:" in out
    for number, hit in enumerate(answer["hits"][:3], start=1):
        assert f"  {number}  {hit['id']}  " in result.stdout, "the first three candidates, numbered, one line each"


@pytest.mark.parametrize(
    "args, message",
    [
        (["ask", "--faction", "zzz", "x"], "unknown faction"),
        (["ask", "--json", "--faction", "zzz", "x"], "unknown faction"),
        (["ask", "--source", "rulebook", "x"], "unknown source"),
        (["ask", "--json"], "no question"),
        (["ask", "   "], "no question"),
        (["section", "xyz"], "neither a section number nor"),
        (["list", "--faction", "nonsense"], "unknown faction"),
        (["list", "--topic", "nonsense"], "unknown topic"),
    ],
)
def test_usage_errors_exit_2_with_a_hint(args, message):
    result = run(*args)
    assert result.exit_code == EXIT_USAGE
    assert message in result.stderr
    assert "hint:" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("value", ["doggos", "automated", "pirates", "cats,birds", "", "frogs"])
@pytest.mark.parametrize("command", [["ask", "x"], ["ask", "--json", "x"], ["list"], ["chat"]])
def test_faction_mistakes_are_usage_errors_in_every_command(command, value):
    result = run(*command[:1], "--faction", value, *command[1:])
    assert result.exit_code == EXIT_USAGE, (command, value, result.stdout)
    assert "hint:" in result.stderr and "marquise" in result.stderr + result.stdout
    assert result.stdout == ""


def test_a_misspelt_faction_is_taken_and_said_so(index):
    result = run("list", "--json", "--faction", "marquse")
    assert result.exit_code == EXIT_FOUND
    assert "note: read faction 'marquse' as Marquise de Cat" in result.stderr
    assert json.loads(result.stdout)["title"] == "Marquise de Cat"


def test_a_bot_name_lists_that_bots_rulings(index):
    view = json.loads(run("list", "--json", "--faction", "Automated Alliance").stdout)
    assert view["title"] == "Automated Alliance"
    records = index.library.records
    assert view["rulings"] and all("automated-alliance" in records[r["id"]].factions for r in view["rulings"])


def test_typer_usage_errors_exit_2():
    assert run("ask", "--limit", "0", "x").exit_code == EXIT_USAGE
    assert run("ask", "--no-such-option", "x").exit_code == EXIT_USAGE
    mistyped = run("lsit")
    assert mistyped.exit_code == EXIT_USAGE and "Did you mean 'list'?" in mistyped.stderr


def test_filters_apply_to_json_answers(index):
    result = run("ask", "--json", "--faction", "cats", "--official", "--source", "faq", "-n", "3",
                 "does field hospitals work against a revolt")
    assert result.exit_code == EXIT_FOUND
    hits = json.loads(result.stdout)["hits"]
    assert 0 < len(hits) <= 3
    for hit in hits:
        assert hit["source"] == "faq"
        assert "marquise" in hit["factions"]
        assert hit["grade"] in {"law", "rulebook", "designer", "publisher"}


def test_official_answers_never_show_the_outsiders_note_on_a_quoted_law_section():
    """`--official` is Leder Games' words only: the Deep Woods note printed after 8.4.1 is a fan rule."""
    official = run("ask", "--official", "can the alliance revolt on the deep woods map")
    assert "Deep Woods Map, you CANNOT Revolt" not in official.stdout
    hits = json.loads(run("ask", "--json", "-n", "10", "can the alliance revolt on the deep woods map").stdout)["hits"]
    note = next(h for h in hits if h["id"] == "rule-8.4.1-note")
    assert note["grade"] == "fan-rule" and note["text"].startswith("When playing on the Deep Woods Map")
    shown = run("show", "rule-8.4.1")
    assert "Deep Woods" not in shown.stdout.split("Related rules")[0]  # the Law record holds the Law's words
    assert "The Outsiders adds" in shown.stdout and "rule-8.4.1-note  [Fan expansion rule]" in shown.stdout


def test_a_section_whose_records_the_filter_removes_is_not_confident():
    result = run("ask", "--json", "--faction", "cats", "BP.2.5")
    assert result.exit_code == EXIT_NOTHING_FOUND
    answer = json.loads(result.stdout)
    assert answer["confident"] is False and answer["hits"] == []
    assert answer["notices"] == ["section BP.2.5 exists, but nothing under it passes the filter"]
    assert run("ask", "--faction", "cats", "BP.2.5").exit_code == EXIT_NOTHING_FOUND
    unfiltered = run("ask", "--json", "BP.2.5")
    assert unfiltered.exit_code == EXIT_FOUND and json.loads(unfiltered.stdout)["confident"] is True


# --- batch mode: the scoring script depends on it -----------------------------------------------------------

BATCH_LINES = [
    "does field hospitals work against a revolt",
    "",
    "   ",
    "asdfgh",
    "\x01\x02 garbage \x7f",
    "bp 2.5 iv",
    "NOT NOT NOT (",
    "what about ruins\u2028with a line separator inside",
]


def test_batch_prints_one_object_per_input_line_in_order():
    result = run("ask", "--json", "--limit", "5", "-", input="\n".join(BATCH_LINES) + "\n")
    assert result.exit_code == EXIT_FOUND
    lines = result.stdout.splitlines()  # splitlines also splits on U+2028: it must be escaped
    assert len(lines) == len(BATCH_LINES)
    answers = [json.loads(line) for line in lines]
    assert answers[0]["hits"] and answers[5]["hits"][0]["id"] == "rule-BP.2.5.iv"
    blank = answers[1]
    assert blank["query"] == "" and blank["confident"] is False and blank["hits"] == []
    assert answers[2]["hits"] == [] and answers[3]["hits"] == []
    assert all(len(a["hits"]) <= 5 for a in answers)


def test_batch_keeps_the_last_line_without_newline_and_crlf_lines():
    result = run("ask", "--json", "-", input="hand limit\r\nbp 2.5")
    assert [json.loads(x)["query"] for x in result.stdout.splitlines()] == ["hand limit", "bp 2.5"]


def test_batch_survives_undecodable_bytes():
    result = run("ask", "--json", "-", input=b"hand limit\n\xff\xfe\xfd\n")
    assert len(result.stdout.splitlines()) == 2
    assert result.exit_code == EXIT_FOUND


def test_batch_exits_0_even_when_no_line_finds_anything():
    result = run("ask", "--json", "-", input="\nasdfgh\n")
    assert result.exit_code == EXIT_FOUND
    assert len(result.stdout.splitlines()) == 2


def test_batch_answers_every_line_even_when_one_fails(monkeypatch):
    from rootfaq.search import answers as search

    real_ask = search.ask

    def flaky(index, query, **kwargs):
        if query == "boom":
            raise RuntimeError("simulated")
        return real_ask(index, query, **kwargs)

    monkeypatch.setattr(search, "ask", flaky)
    result = run("ask", "--json", "-", input="hand limit\nboom\nbp 2.5\n")
    answers = [json.loads(x) for x in result.stdout.splitlines()]
    assert [a["query"] for a in answers] == ["hand limit", "boom", "bp 2.5"]
    assert answers[1]["hits"] == [] and answers[1]["confident"] is False
    assert "line 2" in result.stderr


@pytest.mark.parametrize("args", [["ask", "--json", "boom"], ["ask", "boom"]])
def test_both_command_line_paths_honour_rootfaq_debug_alike(args, monkeypatch, capsys):
    """One error mapping for the fast `ask --json` and the typer app: without debug one line and exit 3 (a
    single --json question still gets its object), with ROOTFAQ_DEBUG the exception itself."""
    from rootfaq.search import answers as search

    def broken(index, query, **kwargs):
        raise RuntimeError("simulated")

    monkeypatch.setattr(search, "ask", broken)
    monkeypatch.delenv("ROOTFAQ_DEBUG", raising=False)
    code = entry_point(args)
    err = capsys.readouterr().err
    assert "RuntimeError: simulated" in err and "Traceback" not in err
    assert code == (EXIT_NOTHING_FOUND if "--json" in args else EXIT_DATA)
    monkeypatch.setenv("ROOTFAQ_DEBUG", "1")
    with pytest.raises(RuntimeError, match="simulated"):
        entry_point(args)


def test_batch_mode_of_the_installed_script_as_the_scoring_script_calls_it():
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    questions = ["can the cats build in a ruin", "", "bp2.5", "how do I castle in chess"]
    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "--limit", "5", "-"], input="\n".join(questions) + "\n",
                          capture_output=True, text=True, timeout=120, env=os.environ.copy())
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert [json.loads(line)["query"] for line in lines] == questions


def test_json_lines_escape_line_separators():
    line = shell.json_line({"text": "a\u2028b\u2029c\x85d\ne"})
    assert len(line.splitlines()) == 1
    assert json.loads(line)["text"] == "a\u2028b\u2029c\x85d\ne"


# --- the typer-free hot path agrees with the typer command ---------------------------------------------------


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["ask", "--json", "hand limit"], None),
        (["ask", "--json", "-n", "2", "--faction", "cats", "build"], None),
        (["ask", "--limit=3", "--source", "faq", "--json", "--official", "guano"], None),
        (["ask", "--json", "asdfgh"], None),
        (["ask", "--json", "-f", "zzz", "x"], None),
        (["ask", "--json", "-f", "marquse", "-n", "1", "build"], None),
        (["ask", "--json", "-f", "cats,birds", "x"], None),
        (["ask", "--json", "--faction=", "x"], None),
        (["ask", "--json", "-s", "nope", "x"], None),
        (["ask", "--json"], None),
        (["ask", "--json"], "hand limit\n"),  # a piped question
        (["ask", "--json"], "  \n"),
        (["ask", "--json", "hand", "limit", "--no-pager"], None),  # global flags after the command
        (["--no-pager", "ask", "--json", "hand limit"], None),
        (["ask", "--json", "--", "-what", "about", "negative", "points"], None),
        (["ask", "--json", "-"], "hand limit\n\nbp 2.5\n"),
        (["ask", "--json", "--faction", "cats", "BP.2.5"], None),
    ],
)
def test_fast_path_prints_what_the_typer_command_prints(args, stdin, monkeypatch, capsys):
    expected = run(*args, input=stdin)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin or "").encode())))
    assert parse_fast(args) is not None  # the fast path, not typer, serves this line
    code = entry_point(args)
    out, err = capsys.readouterr()
    assert code == expected.exit_code
    assert out == expected.stdout
    assert err == expected.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["ask", "hand limit"],  # text output: rich, through typer
        ["ask", "--json", "--help"],
        ["--debug", "ask", "--json", "x"],
        ["ask", "--json", "--limit", "0", "x"],
        ["ask", "--json", "--limit", "many", "x"],
        ["ask", "--json", "-n5", "x"],
        ["ask", "--json", "--faction"],
        ["ask", "--json", "--unknown", "x"],
        ["ask", "--json", "x", "--debug"],
        ["ask", "--json", "x", "-V"],
        ["ask", "--json", "x", "--version"],
        ["hand limit", "--json"],  # a bare question: typer's group puts `ask` in front
        ["section", "--json", "4.3.2"],
        [],
    ],
)
def test_fast_path_leaves_everything_else_to_typer(args):
    assert parse_fast(args) is None


# --- section, show, list ------------------------------------------------------------------------------------


def test_section_shows_rule_sub_items_rulings_and_backlinks():
    result = run("section", "bp", "2.5")
    assert result.exit_code == EXIT_FOUND
    out = result.stdout
    assert "BP.2.5 Bone Tokens" in out and "BP.2.5.iv Protective Breed" in out
    assert "Bone Patrol" in out  # its path


@pytest.mark.parametrize("typed", ["4.3.2", "section 4.3.2", "§4.3.2", "rule 4.3.2"])
def test_section_understands_the_forms_players_type(typed):
    result = run("section", "--json", typed)
    assert result.exit_code == EXIT_FOUND
    view = json.loads(result.stdout)
    assert view["ref"] == "4.3.2"
    assert view["holders"][0]["record"]["id"] == "rule-4.3.2"
    assert "faq-073" in [c["id"] for c in view["citing"]]


def test_unknown_section_exits_1_and_suggests_the_nearest():
    result = run("section", "4.3.9")
    assert result.exit_code == EXIT_NOTHING_FOUND
    assert "Nearest sections: 4.3.2" in result.stdout
    view = json.loads(run("section", "--json", "4.3.9").stdout)
    assert view["found"] is False and "4.3.2" in view["nearest"]


def test_show_by_loose_id_and_json():
    assert run("show", "108").exit_code == EXIT_FOUND
    result = run("show", "--json", "faq-108")
    view = json.loads(result.stdout)
    assert view["record"]["id"] == "faq-108"
    assert view["related"]["rules"][0]["ref"] == "6.2.3"
    assert view["related"]["rules"][0]["text"], "the Golden Reminders quote 6.2.3"


@pytest.mark.parametrize("typed, hint", [("faq-999", "FAQ ids run from faq-001 to faq-284"),
                                         ("faq-0108", "did you mean: faq-108")])  # the nearest number
def test_show_unknown_id_exits_1_with_a_hint(typed, hint):
    result = run("show", typed)
    assert result.exit_code == EXIT_NOTHING_FOUND
    assert f"hint: {hint}" in result.stderr


def test_show_missing_answer_is_labelled_not_answered():
    result = run("show", "faq-194")
    assert result.exit_code == EXIT_FOUND
    assert "lost this answer" in result.stdout


def test_list_without_options_lists_factions_and_topics():
    result = run("list")
    assert result.exit_code == EXIT_FOUND
    assert "marquise" in result.stdout and "Bone Patrol" in result.stdout and "hirelings" in result.stdout


def test_list_a_faction_by_nickname(index):
    result = run("list", "--json", "--faction", "cats")
    assert result.exit_code == EXIT_FOUND
    view = json.loads(result.stdout)
    assert view["title"] == "Marquise de Cat"
    assert "faq-108" in [r["id"] for r in view["rulings"]]
    assert all("marquise" in index.library.records[r["id"]].factions for r in view["rulings"])


def test_list_an_outsiders_faction_shows_its_sections():
    view = json.loads(run("list", "--json", "-f", "bone patrol").stdout)
    assert "rule-BP.2.5" in [s["id"] for s in view["sections"]]


# --- grades, sources, records, index ------------------------------------------------------------------------


def test_grades_legend_and_help_mention_every_grade():
    from rootfaq.corpus.grades import GRADE_LABELS

    legend = run("grades").stdout
    help_text = run("ask", "--help").stdout
    for label in GRADE_LABELS.values():
        assert label in legend
    assert "Rulebook" in help_text and "rootfaq grades" in help_text
    assert len(json.loads(run("grades", "--json").stdout)) == len(GRADE_LABELS)


def test_sources_reports_counts_grades_and_flags():
    result = run("sources", "--json")
    assert result.exit_code == EXIT_FOUND
    view = json.loads(result.stdout)
    faq = next(s for s in view["sources"] if s["source"] == "faq")
    assert faq["records"] == 284 and faq["answers"] == 283
    assert faq["grades"]["ungraded"] == 43
    assert faq["flags"]["missing-answer"]["ids"] == ["faq-194"]
    law = next(s for s in view["sources"] if s["source"] == "law")
    assert law["records"] == 14
    assert view["unresolved_refs"], "the FAQ cites sections the corpus does not hold"
    assert faq["detail"]["reconstructed questions"] == "283 of 283 answers"
    assert law["detail"]["curated phrasings"] == "14 of 14 numbered records"
    assert view["question_problems"] == []
    text = run("sources").stdout
    assert "Cited sections no record holds" in text and "duplicate-number" in text
    assert "reconstructed questions: 283 of 283 answers" in text


def test_records_json_is_one_object_per_line_with_all_fields(index):
    result = run("records", "--json")
    lines = result.stdout.splitlines()
    assert len(lines) == len(index.library.records)
    first = json.loads(lines[0])
    for key in ("id", "source", "title", "text", "grade", "grade_sentence", "year", "date", "section",
                "section_title", "section_basis", "part", "factions", "topics", "xrefs", "parent", "children",
                "flags", "origin"):
        assert key in first
    assert len(run("records", "--source", "law").stdout.splitlines()) == 14


def test_index_command_reports_where_the_index_is(index_dir):
    result = run("index")
    assert result.exit_code == EXIT_FOUND
    assert str(index_dir) in result.stdout and "built in" not in result.stdout


@pytest.mark.slow
def test_index_rebuild_says_how_long_it_took(tmp_path, monkeypatch):
    monkeypatch.setenv("ROOTFAQ_INDEX_DIR", str(tmp_path))
    first = run("index")
    assert first.exit_code == EXIT_FOUND and first.stdout.startswith("built in ")
    result = run("index", "--rebuild")
    assert result.exit_code == EXIT_FOUND and result.stderr == ""
    assert re.match(r"rebuilt in \d+\.\d s\nindex: " + re.escape(str(tmp_path)), result.stdout)


@pytest.mark.slow
def test_index_vectors_with_every_vector_shipped_encodes_nothing_and_rebuilds(tmp_path, monkeypatch):
    """The shipped vectors cover the corpus: `index --vectors` says so at once (no model run) and rebuilds."""
    monkeypatch.setenv("ROOTFAQ_INDEX_DIR", str(tmp_path))
    result = run("index", "--vectors")
    assert result.exit_code == EXIT_FOUND, result.stderr
    assert re.match(r"record vectors: \d+ already kept, 0 encoded now\nrebuilt in ", result.stdout)
    assert re.search(r"vectors: \d+ rows;", result.stdout) and not (tmp_path / "vectors").exists()


@pytest.mark.slow
def test_the_first_build_shows_progress_on_a_terminal_only(tmp_path):
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    import pexpect

    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(tmp_path / "tty"), "NO_COLOR": "1"}
    child = pexpect.spawn(str(ROOTFAQ), ["ask", "6.2.3"], env=env, encoding="utf-8", timeout=60)
    child.expect_exact("building the search index (first run)... reading the sources")
    child.expect_exact("\r\x1b[Kbuilding the search index (first run)... indexing 602 records")
    child.expect_exact("\r\x1b[Kbuilding the search index (first run)... done in ")  # each step replaces the last
    child.expect_exact("rule-6.2.3")
    child.expect(pexpect.EOF)
    env["ROOTFAQ_INDEX_DIR"] = str(tmp_path / "script")
    proc = subprocess.run([str(ROOTFAQ), "ask", "6.2.3"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == EXIT_FOUND and proc.stderr == ""  # scripts keep a clean stderr


def test_index_problem_exits_3_with_a_hint_and_traceback_only_with_debug(monkeypatch):
    from rootfaq.search import store

    def broken(**_options):
        raise IndexFailure("could not build the index in /nowhere", "set ROOTFAQ_INDEX_DIR to a writable directory")

    monkeypatch.setattr(store, "open_index", broken)
    result = run("show", "faq-108")
    assert result.exit_code == EXIT_DATA
    assert "could not build the index" in result.stderr and "hint: set ROOTFAQ_INDEX_DIR" in result.stderr
    assert "Traceback" not in result.stderr
    with pytest.raises(IndexFailure):
        run("--debug", "show", "faq-108")


@pytest.mark.slow
def test_installed_script_never_shows_a_traceback_without_debug(tmp_path):
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(blocker / "index"), "XDG_CACHE_HOME": str(blocker)}
    proc = subprocess.run([str(ROOTFAQ), "show", "faq-108"], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in proc.stderr
    # README: an index folder that cannot be used means an index built in memory for the run, with a notice
    assert proc.returncode == EXIT_FOUND and "faq-108" in proc.stdout
    assert "using one built in memory for this run" in proc.stderr


# --- cheat sheet, completion ------------------------------------------------------------------------------


def test_cheatsheet_command_writes_the_sheet_and_refuses_to_overwrite(tmp_path):
    target = tmp_path / "cats.md"
    result = run("cheatsheet", "--faction", "cats", "--official", "--format", "md", "-o", str(target))
    assert result.exit_code == EXIT_FOUND, result.stderr
    assert target.exists() and "Marquise de Cat" in target.read_text("utf-8")
    assert str(target) in result.stdout
    again = run("cheatsheet", "--faction", "cats", "--format", "md", "-o", str(target))
    assert again.exit_code == EXIT_USAGE and "--force" in again.stderr
    assert run("cheatsheet", "--faction", "gnomes", "-o", str(tmp_path / "x.md")).exit_code == EXIT_USAGE


def test_faction_completion_offers_keys_and_nicknames(index):
    from rootfaq.cli.common import complete_faction

    offered = dict(faction_completions(index.library, "ca"))
    assert offered.get("cats") == "Marquise de Cat" and offered.get("cat") == "Marquise de Cat"
    assert all(word.startswith("ca") for word in offered)
    assert dict(complete_faction("bone"))["bone-patrol"] == "Bone Patrol"


# --- help, no arguments -------------------------------------------------------------------------------------


def test_every_command_has_an_example_in_its_help():
    from typer.main import get_command

    commands = get_command(cli.app).commands
    assert {"ask", "section", "show", "list", "grades", "sources", "records", "index", "chat"} <= set(commands)
    for name in commands:
        help_text = run(name, "--help").stdout
        assert "Example" in help_text and f"rootfaq {name}" in help_text, name


def test_no_arguments_outside_a_terminal_prints_help_and_exits_2():
    result = run()
    assert result.exit_code == EXIT_USAGE
    assert "Usage:" in result.stdout and "rootfaq ask" in result.stdout


def test_help_starts_without_heavy_imports():
    code = ("import sys, runpy; sys.argv = ['rootfaq', '--help']\n"
            "from rootfaq.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('whoosh', 'rapidfuzz', 'rich', 'yaml') if m in sys.modules]\n"
            "print('HEAVY', heavy)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stdout, proc.stdout + proc.stderr


def test_ask_json_loads_neither_typer_nor_rich():
    code = ("import sys; sys.argv = ['rootfaq', 'ask', '--json', 'can I have more than five cards in hand']\n"
            "from rootfaq.cli import main\n"
            "code = main()\n"
            "print('LOADED', [m for m in ('typer', 'rich', 'pydantic') if m in sys.modules], code)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "LOADED [] 0" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("argv", [["--help"], ["ask", "--json", "hand limit"], ["serve", "--help"]])
def test_only_serving_loads_the_web_stack(argv):
    """starlette, uvicorn and segno are for `rootfaq serve` alone: imported in rootfaq/web/, and that package
    only inside the command, so no other start-up (not even `serve --help`) pays for them."""
    code = (f"import sys; sys.argv = ['rootfaq', *{argv!r}]\n"
            "from rootfaq.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('WEB', [m for m in ('starlette', 'uvicorn', 'segno', 'anyio', 'rootfaq.web') if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "WEB []" in proc.stdout, proc.stdout + proc.stderr


# --- conventions: help, version, global flags anywhere, a bare or piped question, friendly ranges ----------


def test_help_reads_like_a_command_line_tools(index):
    from typer.main import get_command

    commands = get_command(cli.app).commands
    listing = run("--help").stdout.split("Commands:", 1)[1]
    for name, command in commands.items():
        assert f"  {name:<11} {command.short_help}\n" in listing, name  # the whole summary on one line
        assert len(command.short_help) <= 66 and "..." not in command.short_help
        help_text = run(name, "--help").stdout
        for python_type in ("<list[str]>", "<str>", "<int>", "<bool>", "{REF}", "{ID}"):
            assert python_type not in help_text, (name, python_type)
    assert " ask [OPTIONS] [QUESTION]...\n" in run("ask", "--help").stdout
    assert " section [OPTIONS] REF...\n" in run("section", "--help").stdout
    assert "\n  ID  A record id" in run("show", "--help").stdout


@pytest.mark.parametrize("args", [["-V"], ["--version"], ["ask", "hand limit", "-V"], ["list", "--version"]])
def test_version_anywhere(args):
    result = run(*args)
    assert result.exit_code == EXIT_FOUND and result.stdout.strip() == f"rootfaq {cli.__version__}"


def test_global_flags_are_accepted_after_the_command():
    result = run("section", "4.3.2", "--no-pager")
    assert result.exit_code == EXIT_FOUND and "4.3.2 Step 2: Roll Dice" in result.stdout
    from rootfaq.errors import NotFound

    with pytest.raises(NotFound):  # --debug after the command: the error is raised, not printed
        run("show", "faq-999", "--debug")
    literal = json.loads(run("ask", "--json", "--", "--no-pager").stdout)
    assert literal["query"] == "--no-pager", "after --, a flag is a word of the question"


def test_a_bare_question_is_asked():
    bare = run("can cats build in ruins")
    asked = run("ask", "can cats build in ruins")
    assert (bare.exit_code, bare.stdout) == (asked.exit_code, asked.stdout)
    assert "faq-" in bare.stdout
    as_json = run("hand", "limit", "--json")
    assert as_json.stdout == run("ask", "--json", "hand limit").stdout
    assert json.loads(as_json.stdout)["query"] == "hand limit"
    assert json.loads(run("--no-pager", "-n", "2", "--json", "guano").stdout)["query"] == "guano"


@pytest.mark.parametrize("words", [["cats", "build", "in", "ruins"], ["cat", "bot", "hand"], ["lost", "souls"],
                                   ["score", "for", "roosts"], ["rats", "ambush"]])
def test_a_bare_question_starting_with_a_word_near_a_command_is_asked(words):
    # "cats" is close to "chat", "score" to "sources": only a single word near a command is a typo.
    bare = run(*words)
    assert bare.exit_code != EXIT_USAGE and "No such command" not in bare.stdout + bare.stderr
    assert bare.stdout == run("ask", *words).stdout


def test_a_question_piped_into_bare_rootfaq_is_asked():
    piped = run(input="hand limit\n")
    assert piped.exit_code != EXIT_USAGE
    assert piped.stdout == run("ask", "hand limit").stdout
    assert run(input="").exit_code == EXIT_USAGE, "nothing piped: the help, as before"


def test_a_piped_question_is_read_when_no_argument_is_given():
    text = run("ask", input="can I have more than five cards in hand\n")
    assert text.exit_code == EXIT_FOUND and "faq-184" in text.stdout
    assert json.loads(run("ask", "--json", input="can I have more than five\ncards in hand\n").stdout)["query"] == \
        "can I have more than five cards in hand"
    empty = run("ask", input="\n  \n")
    assert empty.exit_code == EXIT_USAGE and "no question given" in empty.stderr


def test_a_piped_post_keeps_its_lines_so_its_questions_one_a_line_are_found():
    # Folded onto one line (as piping did) this post asks nothing we can find: no "?", no stop.
    post = ("first game with the cats last night\ncan the cats build in a ruin\n"
            "does the hand limit apply during my turn\n")
    piped = run("ask", "--json", input=post).stdout
    assert piped == run("ask", "--json", post).stdout, "piped as given in quotes, lines and all"
    parts = json.loads(piped)["parts"]
    assert [part["query"] for part in parts][1:] == ["does the hand limit apply during my turn"]
    assert [part["hits"][0]["id"] for part in parts] == ["faq-022", "faq-184"]
    assert "Your post asks 2 questions" in run(input=post).stdout


def test_a_post_saved_as_utf16_or_with_a_utf8_mark_is_read_as_the_same_text():
    post = "first game with the cats last night\r\ncan the cats build in a ruin\r\n"
    expected = run("ask", "--json", input=post.replace("\r\n", "\n")).stdout
    assert json.loads(expected)["hits"][0]["id"] == "faq-022"
    for encoded in (post.encode("utf-16"), post.encode("utf-8-sig")):  # Windows' "Unicode" text, Notepad's UTF-8
        assert run("ask", "--json", input=encoded).stdout == expected


@pytest.mark.parametrize("args", [("ask",), ("ask", "--json"), ("ask", "--json", "-"), ("ask", "-"), ("chat",)])
def test_a_binary_file_piped_by_mistake_is_refused_as_not_text(args):
    image = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40
    result = run(*args, input=image)
    assert result.exit_code == EXIT_USAGE
    assert "rootfaq: standard input is not text: line 3 holds a NUL byte (a binary file?)" in result.stderr
    assert "hint: pipe a question or a forum post as plain text" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_batch_answers_the_lines_before_a_nul_byte_then_stops_with_exit_2():
    result = run("ask", "--json", "-", input=b"hand limit\n\x00\x01\x02\nbp 2.5\n")
    assert [json.loads(line)["query"] for line in result.stdout.splitlines()] == ["hand limit"]
    assert result.exit_code == EXIT_USAGE and "line 2 holds a NUL byte" in result.stderr


@given(st.text(alphabet=st.characters(blacklist_characters="\x00"), max_size=300), st.integers(1, 40))
def test_piped_lines_are_the_text_split_at_newlines_each_cut_past_the_limit(text, max_chars):
    """Any text without a NUL byte: its lines split at "\\n" only, "\\r\\n" ends dropped, in order, none lost or
    added; a line over the limit comes as its first max_chars + 1 characters, so search still sees it ran on."""
    pieces = text.split("\n")
    if pieces[-1] == "":  # nothing after the last newline: no line there
        pieces.pop()
    assert list(shell.lines_of(io.StringIO(text, newline="\n"), max_chars)) == \
        [piece[: max_chars + 1].rstrip("\r") for piece in pieces]



@pytest.mark.parametrize("args, code, says", [
    (["ask", "--json", "-"], EXIT_FOUND, ""),  # no lines: nothing to answer, nothing printed
    (["ask", "-"], EXIT_FOUND, ""),
    (["chat"], EXIT_FOUND, ""),  # as at the end of its input
    (["ask"], EXIT_USAGE, "rootfaq: no question given"),
    ([], EXIT_USAGE, "Usage: rootfaq"),  # no terminal and nothing piped: the help
])
def test_a_closed_standard_input_reads_as_empty_never_an_internal_error(args, code, says):
    proc = subprocess.run([str(ROOTFAQ), *args], preexec_fn=lambda: os.close(0), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == code, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert says in proc.stdout + proc.stderr
    if code == EXIT_FOUND:
        assert proc.stdout == ""

def _endless(line: str) -> subprocess.Popen:
    """A program writing `line` for ever (`yes`, portably), for a pipe into rootfaq."""
    writer = f"import sys\nwhile True:\n    sys.stdout.write({line!r})"
    return subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def test_an_endless_pipe_is_read_up_to_the_paste_limit_and_answered():
    from rootfaq.search.posts import MAX_READ_CHARS

    endless = _endless("we argued about the wood all night. can the cats build in a ruin?\n")
    try:
        proc = subprocess.run([str(ROOTFAQ), "ask", "--json"], stdin=endless.stdout, capture_output=True, text=True,
                              timeout=120)
    finally:
        endless.kill()
        endless.wait()
    assert proc.returncode in (EXIT_FOUND, EXIT_NOTHING_FOUND), proc.stderr
    answer = json.loads(proc.stdout)
    assert f"a paste of more than {MAX_READ_CHARS:,} characters: read its first {MAX_READ_CHARS:,}, the rest left " \
           "out" in answer["notices"]
    assert answer["hits"][0]["id"] == "faq-022"


def test_a_line_that_never_ends_is_a_usage_error_not_a_hang():
    endless = _endless("can the cats build in a ruin ")
    try:
        proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "-"], stdin=endless.stdout, capture_output=True,
                              text=True, timeout=120)
    finally:
        endless.kill()
        endless.wait()
    assert proc.returncode == EXIT_USAGE and proc.stdout == ""
    assert f"line 1 of standard input runs on past {shell.SKIPPED_CHARS_MAX:,} characters" in proc.stderr


@pytest.mark.parametrize("value", ["0", "51", "many", "-3", "2.5", "²", "①", "٣"])  # digits Python's isdigit knows
def test_range_errors_say_what_the_option_takes(value):
    result = run("ask", "-n", value, "hand limit")
    assert result.exit_code == EXIT_USAGE
    assert f"--limit takes a whole number from 1 to 50, not '{value}'" in result.stderr
    assert "Input should be" not in result.stderr + result.stdout


@pytest.mark.parametrize("value", ["²", "①"])
def test_a_non_ascii_digit_limit_is_a_usage_error_on_the_json_path_too(value):
    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "-n", value, "hand limit"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == EXIT_USAGE and "internal error" not in proc.stderr, proc.stderr


# --- look-ups -----------------------------------------------------------------------------------------------


def test_a_far_section_number_suggests_nothing_unrelated():
    result = run("section", "99.9")
    assert result.exit_code == EXIT_NOTHING_FOUND
    assert "No section near it" in result.stdout and "OF.2.9" not in result.stdout
    assert json.loads(run("section", "--json", "99.9").stdout)["nearest"] == []
    notice = json.loads(run("ask", "--json", "§99.9").stdout)["notices"]
    assert notice == ["no section 99.9 in the corpus; nothing near it"]


def test_a_heading_with_only_sections_lists_them():
    out = run("section", "BP", "2").stdout
    body = out.split("BP.2 Faction Rules and Abilities\n", 1)[1]
    assert body.startswith("\n  A heading without text of its own. Its sections:\n  BP.2.1 Crafting  rule-BP.2.1")


@pytest.mark.parametrize("args", [["show", "faq-001"], ["ask", "--json", "hand limit"], ["records", "--json"],
                                  ["section", "4.3.2"], ["ask", "hand limit"]])
def test_a_full_disk_on_stdout_is_named_plainly_with_exit_4(args):
    if not Path("/dev/full").exists():
        pytest.fail("this test needs /dev/full (Linux)")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([str(ROOTFAQ), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 4, proc.stderr
    assert "the system refused: no space left on device" in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.parametrize("args", [["ask", "--json", "hand limit"], ["ask", "hand limit"], ["section", "4.3.2"],
                                  ["records", "--json"], ["cheatsheet", "-f", "cats", "-o", "-"]])
def test_a_closed_stdout_is_named_plainly_with_exit_4_and_a_closed_stderr_changes_nothing(args):
    closed_stdout = subprocess.run([str(ROOTFAQ), *args], preexec_fn=lambda: os.close(1), stdin=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, timeout=60)
    assert closed_stdout.returncode == 4, closed_stdout.stderr
    assert closed_stdout.stderr.startswith("rootfaq: the system refused: bad file descriptor (standard output, "
                                           "closed)\n"), closed_stdout.stderr
    open_streams = subprocess.run([str(ROOTFAQ), *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    closed_stderr = subprocess.run([str(ROOTFAQ), *args], preexec_fn=lambda: os.close(2), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, timeout=60)
    assert closed_stderr.returncode == open_streams.returncode
    same = 8 if args[0] == "cheatsheet" else None  # a PDF's bytes carry the time it was made
    assert closed_stderr.stdout[:same] == open_streams.stdout[:same] and closed_stderr.stdout


@pytest.mark.parametrize("args", [["ask", "--json", "hand limit"], ["ask", "--json", "-"], ["ask", "hand limit"]])
def test_unreadable_fitted_weights_are_a_data_error_exit_3_in_json_and_batch_too(monkeypatch, args):
    from rootfaq.search import model

    def unreadable():
        raise model.RankingDataError("ranking.json cannot be read (test)", "reinstall rootfaq")

    monkeypatch.setattr(model, "fitted_model", unreadable)
    result = run(*args, input="hand limit\n")
    assert result.exit_code == 3, result.stdout
    assert "ranking.json cannot be read (test)" in result.stderr and "hint: reinstall rootfaq" in result.stderr
    assert '"hits": []' not in result.stdout, "no answer object pretends that nothing was found"


@pytest.mark.parametrize("megabytes", [200, 300])
def test_a_memory_limit_is_named_plainly_never_an_internal_error(megabytes):
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "hand limit"], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit)
    # Where the limit bites depends on the allocator: it answers (maybe by words only), or says so in one line.
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    if proc.returncode == 4:
        assert proc.stderr.startswith("rootfaq: out of memory") or "the system refused" in proc.stderr
    else:
        assert proc.returncode in (0, 1) and json.loads(proc.stdout)["hits"], proc.stderr


def _listed_ids(*args: str) -> set[str]:
    result = run("list", *args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return {line["id"] for key in ("rulings", "sections") for line in data[key]}


def test_list_filters_hold_together_and_repeated_factions_mean_any():
    both, battle, cats, birds = (_listed_ids("-f", "cats", "-t", "battle"), _listed_ids("-t", "battle"),
                                 _listed_ids("-f", "cats"), _listed_ids("-f", "birds"))
    assert both and both == battle & cats, "faction AND topic, never one of them dropped"
    assert both < battle
    assert _listed_ids("-f", "cats", "-f", "birds") == cats | birds, "a repeated --faction means any of them"


# --- the small rough edges of issue 18 ----------------------------------------------------------------------


@pytest.mark.parametrize("args,message", [
    (["ask", "--nope", "x"], "rootfaq: no such option: --nope\nhint: rootfaq ask -h lists what it takes\n"),
    (["index", "--nope"], "rootfaq: no such option: --nope\nhint: rootfaq index -h lists what it takes\n"),
    (["section"], "rootfaq: missing argument 'REF'\nhint: rootfaq section -h lists what it takes\n"),
    (["list", "--faction"],
     "rootfaq: option '--faction' requires an argument\nhint: rootfaq list -h lists what it takes\n"),
])
def test_clicks_usage_errors_read_like_every_other_rootfaq_error(args, message):
    """One error style: "rootfaq: what is wrong" and "hint: ...", never click's "Usage: ... Error: ..."."""
    result = subprocess.run([str(ROOTFAQ), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == EXIT_USAGE
    assert result.stderr == message and result.stdout == ""


def test_topics_and_faction_names_are_read_as_players_type_them():
    battel = run("list", "--topic", "battel")
    assert battel.exit_code == EXIT_USAGE and "did you mean 'battle'?" in battel.stderr
    the_cats = run("list", "--faction", "the cats", "--topic", "Battle", "--json")
    assert the_cats.exit_code == EXIT_FOUND
    assert json.loads(the_cats.stdout)["title"] == "Marquise de Cat · Battle"


def test_a_section_can_be_named_by_its_printed_title_and_a_miss_points_to_ask():
    found = run("section", "--json", "lords of the forest")
    assert found.exit_code == EXIT_FOUND and json.loads(found.stdout)["ref"] == "7.2.2"
    missed = run("section", "lords of the foo")
    assert missed.exit_code == EXIT_USAGE and "rootfaq ask 'lords of the foo'" in missed.stderr


def test_an_empty_record_id_is_a_usage_error():
    result = run("show", "")
    assert result.exit_code == EXIT_USAGE and "no record id given" in result.stderr


def test_index_json_says_where_the_index_is_and_what_it_holds(index):
    result = run("index", "--json")
    assert result.exit_code == EXIT_FOUND
    data = json.loads(result.stdout)
    assert data["records"] == len(index.library.records) and data["path"] and data["schema"]
    assert len(data["corpus_hash"]) == 64 and isinstance(data["notices"], list)
    assert data["vector_rows"] == len(index.vectors.record_ids) > 0 and data["vectors_encoded"] is None


# --- the end of the process: the teardown skipped only when nothing can need it ---------------------------

def _finish_in_a_process(setup: str, code: int = 3) -> subprocess.CompletedProcess:
    script = f"import sys\n{setup}\nfrom rootfaq.cli import finish\nprint('answer', end='')\nfinish({code})\n"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def test_finishing_flushes_the_output_and_keeps_the_exit_code():
    proc = _finish_in_a_process("")
    assert (proc.stdout, proc.returncode, proc.stderr) == ("answer", 3, "")


def test_finishing_runs_exit_handlers_and_waits_for_threads_as_the_usual_exit_does():
    handler = _finish_in_a_process("import atexit\natexit.register(lambda: print(' handler ran', end=''))", code=0)
    assert (handler.stdout, handler.returncode) == ("answer handler ran", 0), handler.stderr
    thread = _finish_in_a_process(
        "import threading, time\n"
        "threading.Thread(target=lambda: (time.sleep(0.3), print(' thread done', end=''))).start()")
    assert (thread.stdout, thread.returncode) == ("answer thread done", 3), thread.stderr


def test_the_rootfaq_script_answers_whole_through_a_pipe():
    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "can I have more than five cards in hand"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == EXIT_FOUND and json.loads(proc.stdout)["hits"], proc.stderr
