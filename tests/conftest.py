"""Shared fixtures. The index is built once per session into a temporary directory, never into the
checkout, so tests do not depend on the working directory or on a previous run."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis keeps its caches out of the checkout (not in .hypothesis/) and no example database: every run
# starts from its seed, on CI as here.
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="rootfaq-hypothesis-")
set_hypothesis_home_dir(_HYPOTHESIS_HOME)
settings.register_profile("rootfaq", database=None)
settings.load_profile("rootfaq")


def _checkout_files() -> set[str] | None:
    """Every path git reports in the checkout, ignored ones included; None outside a git checkout."""
    try:
        proc = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    # Bytecode caches are Python's own (imports write them wherever PYTHONDONTWRITEBYTECODE is unset).
    return {line for line in proc.stdout.splitlines() if "__pycache__/" not in line}


# The fast loop is `pytest -m "not slow"`; CI and README's test command run everything. Slow: a test that
# drives a real terminal, an install, a browser or a tmpfs mount (by the fixture it takes), or is marked.
SLOW_FIXTURES = {"spawn", "installed", "tmpfs", "server", "browser"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: seconds rather than milliseconds; left out of the fast loop")
    config.addinivalue_line("markers", "ranking: pins which record comes first (tests/test_ranking_regression.py)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def pytest_sessionstart(session):
    session.config.stash[_BEFORE] = _checkout_files()


def pytest_sessionfinish(session, exitstatus):
    """The tests leave the checkout as they found it: nothing written into it (build/, *.egg-info, caches)."""
    shutil.rmtree(_HYPOTHESIS_HOME, ignore_errors=True)
    before = session.config.stash.get(_BEFORE, None)
    after = _checkout_files()
    if before is None or after is None:
        return
    left = sorted(after - before)
    if left:
        session.config.get_terminal_writer().line(f"the tests wrote into the checkout: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_BEFORE = pytest.StashKey[set[str] | None]()


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("index")


@pytest.fixture(scope="session", autouse=True)
def _isolated_index(index_dir):
    mp = pytest.MonkeyPatch()
    mp.setenv("ROOTFAQ_INDEX_DIR", str(index_dir))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def corpus():
    from rootfaq.corpus.build import build_corpus
    from rootfaq.corpus.files import read_corpus_files

    return build_corpus(read_corpus_files())


@pytest.fixture(scope="session")
def bench():
    """scripts/bench.py as a module: it names the check sets and holds the repeat check and the printers."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    return bench


@pytest.fixture(scope="session")
def index(_isolated_index):
    from rootfaq.search import store

    return store.open_index()


@pytest.fixture
def tmpfs(tmp_path):
    """Mount a small tmpfs (a disk that fills up, or is remounted read-only); unmounted after the test.

    Needs root: CI runs as root on a fresh machine. Elsewhere the test says why it skipped."""
    mounted = []

    def mount(size: str, name: str = "mnt"):
        point = tmp_path / name
        point.mkdir()
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(point)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"mounting a tmpfs needs root with CAP_SYS_ADMIN (CI runs as root): {proc.stderr.strip()}")
        mounted.append(point)
        return point

    yield mount
    for point in mounted:
        subprocess.run(["umount", "-l", str(point)], check=False)
