"""Damaged shipped vectors, end to end: the question answered by words at once, the vectors encoded in the
background from a terminal, a killed encoding resumed, and nothing started behind a script."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rootfaq
from rootfaq.search import dense, vector_cache

pexpect = pytest.importorskip("pexpect")
PACKAGE = Path(rootfaq.__file__).resolve().parent


@pytest.fixture
def damaged(tmp_path):
    """A copy of the package whose shipped record vectors have one flipped byte, and its index folder."""
    copy = tmp_path / "site"
    shutil.copytree(PACKAGE, copy / "rootfaq", ignore=shutil.ignore_patterns("__pycache__"))
    vectors = copy / "rootfaq" / "model_data" / dense.SHIPPED_VECTORS
    data = bytearray(vectors.read_bytes())
    data[5000] ^= 0xFF
    vectors.write_bytes(bytes(data))
    env = {**os.environ, "PYTHONPATH": str(copy), "ROOTFAQ_INDEX_DIR": str(tmp_path / "index"), "NO_COLOR": "1",
           "PAGER": "cat", "TERM": "xterm"}
    started: list[int] = []
    yield env, tmp_path / "index" / vector_cache.FOLDER, started
    for pid in started:  # never leave an encoder running after the test
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _ask_on_a_terminal(env) -> str:
    child = pexpect.spawn(sys.executable, ["-m", "rootfaq", "ask", "hand limit"], env=env, encoding="utf-8",
                          timeout=60, dimensions=(40, 200), cwd=env["PYTHONPATH"])  # not the checkout's rootfaq
    child.expect(pexpect.EOF)
    return " ".join(child.before.split())


def _progress(folder: Path, other_than: int | None = None, seconds: float = 60) -> dict:
    """The background encoder's progress once it has written a chunk (an encoder other than a killed one)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            progress = json.loads((folder / vector_cache.PROGRESS).read_text())
            if progress["pid"] != other_than and progress["done"] > 0:
                return progress
        except (FileNotFoundError, ValueError):
            pass
        time.sleep(0.2)
    raise AssertionError("the background encoding wrote no progress")


@pytest.mark.slow
def test_a_terminal_gets_words_at_once_then_vectors_encoded_behind_it_and_resumed_after_a_kill(damaged):
    env, folder, started = damaged
    shown = _ask_on_a_terminal(env)
    assert "searching by words only" in shown and "encoding the record vectors in the background" in shown
    assert "Hand" in shown or "hand" in shown  # answered now, by its words
    first = _progress(folder)
    started.append(first["pid"])
    shown = _ask_on_a_terminal(env)
    assert "record vectors are being encoded in the background (" in shown, "one encoder, and it says how far"
    os.killpg(first["pid"], signal.SIGKILL)  # killed midway: the chunks it wrote are kept
    time.sleep(0.5)
    kept = len(vector_cache.cached_vectors(folder, dense.MODEL_SHA256))
    assert kept >= vector_cache.CHUNK_TEXTS
    assert "encoding the record vectors in the background" in _ask_on_a_terminal(env)
    resumed = _progress(folder, other_than=first["pid"])
    started.append(resumed["pid"])
    assert resumed["pid"] != first["pid"] and resumed["total"] == first["total"] - kept


@pytest.mark.slow
def test_a_script_gets_the_hint_and_nothing_starts_behind_it(damaged):
    env, folder, _ = damaged
    result = subprocess.run([sys.executable, "-m", "rootfaq", "ask", "--json", "hand limit"], env=env,
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                            cwd=env["PYTHONPATH"])
    answer = json.loads(result.stdout)
    assert answer["hits"] and result.returncode == (0 if answer["confident"] else 1)
    assert "rootfaq index --vectors" in result.stderr and "background" not in result.stderr
    time.sleep(1)
    assert not folder.exists()
