"""What reaches the terminal: nothing a user typed comes back as an escape sequence, a closed pipe is no
error, and an output encoding that cannot show everything degrades instead of failing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from rootfaq.cli import app as cli
from rootfaq.output import printable
from rootfaq.render.chat import render_output
from rootfaq.render.console import to_text
from rootfaq.views import chat

ROOTFAQ = Path(sys.executable).with_name("rootfaq")
runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": None})

# Colour, a window title (OSC, ended by BEL), a right-to-left override, an undecodable byte from argv.
PAYLOAD = "\x1b[31mRED\x1b]0;owned\x07\u202eevil\udcff"
SHOWN = "\\x1b[31mRED\\x1b]0;owned\\x07\\u202eevil\\udcff"


@pytest.fixture(scope="module", autouse=True)
def _built(index):
    return index


def _raw_controls(text: str) -> list[str]:
    """Characters that would act on a terminal instead of showing."""
    return [ch for ch in text if ch not in "\n\t" and (unicodedata.category(ch) in ("Cc", "Cs") or ch == "\u202e")]


# --- the sanitiser ------------------------------------------------------------------------------------------


def test_printable_shows_controls_as_escapes_and_leaves_text_alone():
    assert printable(PAYLOAD) == SHOWN
    assert printable("Field Hospitals · faq-108 “quoted” 🐈‍⬛") == "Field Hospitals · faq-108 “quoted” 🐈‍⬛"
    assert printable("two\nlines\tand a tab") == "two\\nlines\\tand a tab"
    assert printable("two\nlines\tand a tab", lines=True) == "two\nlines\tand a tab"
    assert printable("\x85next\u2028line\x9b2J") == "\\x85next\\u2028line\\x9b2J"  # NEL, LS, CSI in C1


@given(st.text())
def test_printable_never_lets_a_control_through_and_is_idempotent(text):
    shown = printable(text)
    assert _raw_controls(shown) == [] and "\n" not in shown
    assert printable(shown) == shown
    assert _raw_controls(printable(text, lines=True)) == []


# --- every echoed argument ----------------------------------------------------------------------------------


ECHOED = [
    ["ask", "--source", PAYLOAD, "hand limit"],
    ["ask", "--faction", PAYLOAD, "hand limit"],
    ["ask", "--json", "--faction", PAYLOAD, "hand limit"],
    ["section", PAYLOAD],
    ["show", PAYLOAD],
    ["list", "--topic", PAYLOAD],
    ["list", "--faction", PAYLOAD],
    ["records", "--source", PAYLOAD],
    ["chat", "--faction", PAYLOAD],
    ["cheatsheet", "--format", PAYLOAD, "-o", "sheet.pdf"],
    ["cheatsheet", "--paper", PAYLOAD, "--format", "html", "-o", "sheet.html"],
    ["cheatsheet", "-o", f"missing-{PAYLOAD}/sheet.md"],
]


@pytest.mark.parametrize("args", ECHOED, ids=lambda a: " ".join(w for w in a if w != PAYLOAD and "/" not in w))
def test_every_echoed_argument_reaches_the_terminal_as_text(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli.app, args, catch_exceptions=False)
    assert result.exit_code != 0
    shown = result.stdout + result.stderr
    assert _raw_controls(shown) == [], shown
    assert "\\x1b[31mRED" in shown  # echoed, visibly


def test_a_question_with_escapes_is_cleaned_in_text_and_kept_in_json():
    result = runner.invoke(cli.app, ["ask", f"hand limit {PAYLOAD}"], catch_exceptions=False)
    assert _raw_controls(result.stdout + result.stderr) == []
    answer = json.loads(runner.invoke(cli.app, ["ask", "--json", f"hand limit{PAYLOAD}"]).stdout)
    assert answer["hits"]  # JSON stays JSON: json.dumps escapes what it must


def test_an_index_path_with_escapes_is_echoed_as_text(tmp_path, monkeypatch):
    base = tmp_path / f"index-{PAYLOAD.replace('/', '')}"
    base.write_text("a file, so the notice names the path")
    monkeypatch.setenv("ROOTFAQ_INDEX_DIR", str(base))
    result = runner.invoke(cli.app, ["index"], catch_exceptions=False)
    assert result.exit_code == 3 and "index: memory" in result.stdout  # nothing could be written there
    assert _raw_controls(result.stdout + result.stderr) == [] and "\\x1b[31mRED" in result.stderr


@pytest.mark.parametrize("line", [f":show {PAYLOAD}", f":section {PAYLOAD}", f":faction {PAYLOAD}", f":{PAYLOAD}"])
def test_chat_commands_echo_their_arguments_as_text(index, line):
    state, output = chat.handle_line(chat.new_state(index), line)
    shown = "".join(to_text(render_output(item), width=80, color=True) for item in output)
    assert "\\x1b[31m" in shown  # echoed visibly (an unknown command is echoed in lower case)
    # In colour, the only escapes are rich's own styles: every ESC starts an SGR sequence.
    assert _raw_controls(re.sub(r"\x1b\[[0-9;]*m", "", shown)) == []


# --- closed pipes -------------------------------------------------------------------------------------------

PIPED = [
    ["ask", "hand limit"], ["ask", "--json", "hand limit"], ["ask", "--json", "-"], ["section", "bp", "2.5"],
    ["show", "faq-108"], ["list", "--faction", "vagabond"], ["grades"], ["sources"], ["records"],
    ["records", "--json"], ["index"], ["chat"], ["--help"], ["ask", "--help"], ["--version"],
]


@pytest.mark.slow
def test_a_closed_pipe_ends_every_command_quietly_with_0(index_dir):
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(index_dir)}
    procs = []
    for args in PIPED:
        read_end, write_end = os.pipe()
        os.close(read_end)  # the reader is gone before the first byte: every write fails with EPIPE
        procs.append((args, subprocess.Popen([str(ROOTFAQ), *args], stdout=write_end, stdin=subprocess.PIPE,
                                             stderr=subprocess.PIPE, env=env)))
        os.close(write_end)
    results = [(args, *proc.communicate(b"hand limit\n", timeout=120)[1:], proc.returncode) for args, proc in procs]
    assert [r for r in results if r[1] or r[2] != 0] == []


def test_records_json_into_head_gives_one_line_and_exit_0(index_dir):
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(index_dir)}
    source = subprocess.Popen([str(ROOTFAQ), "records", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=env)
    head = subprocess.run(["head", "-1"], stdin=source.stdout, capture_output=True, text=True, timeout=120)
    source.stdout.close()
    assert source.wait(timeout=120) == 0 and source.stderr.read() == b""
    assert json.loads(head.stdout)["id"]


# --- encodings ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["ask", "does field hospitals work against a revolt"], ["show", "faq-108"],
                                  ["section", "6.2.3"], ["list", "--faction", "cats"], ["sources"], ["grades"],
                                  ["show", "é"], ["ask", "--json", "naïve hand limit"]])
def test_an_ascii_terminal_gets_plain_ascii_instead_of_an_error(args, index_dir):
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(index_dir), "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run([sys.executable, "-m", "rootfaq", *args], capture_output=True, env=env, timeout=120)
    assert proc.returncode in (0, 1) and b"internal error" not in proc.stderr, proc.stderr
    proc.stdout.decode("ascii")
    proc.stderr.decode("ascii")
    if args[0] == "show" and args[1] == "faq-108":
        assert b"faq-108  - question reconstructed" in proc.stdout  # "·" read as "-"
    if args == ["show", "é"]:
        assert proc.stderr.startswith(b"rootfaq: no record 'e'")
