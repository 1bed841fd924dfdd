"""Shared fixtures. The index is built once per session into a temporary directory, never into the
checkout, so tests do not depend on the working directory or on a previous run."""

from __future__ import annotations

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
    from rootfaq.corpus import build_corpus, read_corpus_files

    return build_corpus(read_corpus_files())


@pytest.fixture(scope="session")
def index(_isolated_index):
    from rootfaq import search

    return search.open_index()
