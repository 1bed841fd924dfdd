"""Shared fixtures. The index is built once per session into a temporary directory, never into the
checkout, so tests do not depend on the working directory or on a previous run."""

from __future__ import annotations

import subprocess

import pytest


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
