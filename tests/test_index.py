"""The index on disk: built atomically, rebuilt when stale or damaged, safe with several processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rootfaq import index as index_mod
from rootfaq import search
from rootfaq.corpus import build_corpus, corpus_hash, query_model, read_corpus_files


def loader(texts):
    def load():
        corpus = build_corpus(texts)
        return corpus.records, query_model(corpus)

    return load


def open_at(base: Path, texts=None, **kwargs):
    texts = texts or read_corpus_files()
    return index_mod.open_or_build(corpus_hash(texts), loader(texts), base=base, **kwargs)


def test_first_build_writes_a_complete_index(tmp_path):
    opened = open_at(tmp_path)
    assert opened.path.parent == tmp_path and (opened.path / index_mod.MANIFEST).is_file()
    manifest = json.loads((opened.path / index_mod.MANIFEST).read_text())
    assert manifest["schema"] == index_mod.SCHEMA_VERSION and manifest["records"] == len(opened.records)
    assert not list(tmp_path.glob(".build-*"))  # the temporary build directory is gone
    assert opened.notices == []


def test_a_stale_index_is_rebuilt_automatically(tmp_path):
    texts = read_corpus_files()
    first = open_at(tmp_path, texts)
    changed = dict(texts)
    changed["vocabulary.yaml"] = texts["vocabulary.yaml"] + "\n"
    second = open_at(tmp_path, changed)
    assert second.path != first.path and "rebuilt" in second.notices[0]
    assert not first.path.exists()  # the stale one is cleaned up


@pytest.mark.parametrize("damage", ["manifest", "records", "segment"])
def test_a_damaged_index_is_rebuilt_with_a_notice(tmp_path, damage):
    opened = open_at(tmp_path)
    opened.close()
    if damage == "manifest":
        (opened.path / index_mod.MANIFEST).write_text("{not json")
    elif damage == "records":
        (opened.path / index_mod.RECORDS).write_text("[]")
    else:
        for toc in opened.path.glob("_MAIN_*.toc"):
            toc.write_bytes(b"garbage")
    again = open_at(tmp_path)
    assert len(again.notices) == 1 and "damaged" in again.notices[0]
    assert search.ask(again, "ambush").hits


def test_rebuild_on_request(tmp_path):
    first = open_at(tmp_path)
    first.close()
    stamp = (first.path / index_mod.MANIFEST).stat().st_mtime_ns
    again = open_at(tmp_path, rebuild=True)
    assert (again.path / index_mod.MANIFEST).stat().st_mtime_ns != stamp


def test_a_build_never_removes_another_process_build_in_progress(tmp_path):
    in_progress = tmp_path / ".build-s1x2y3"  # a temporary name that happens to contain "-s"
    in_progress.mkdir()
    (in_progress / "segment").write_text("half written")
    open_at(tmp_path)
    assert (in_progress / "segment").exists()


def test_several_processes_building_at_once(tmp_path):
    script = (
        "import sys; from rootfaq import search; ix = search.open_index(); "
        "print(search.ask(ix, 'ambush no warriors').hits[0].record.id)"
    )
    env = dict(os.environ, ROOTFAQ_INDEX_DIR=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [o[1] for o in outputs]
    assert len({o[0] for o in outputs}) == 1 and outputs[0][0].startswith("faq-")
    assert len([p for p in tmp_path.iterdir() if not p.name.startswith(".")]) == 1
    assert not list(tmp_path.glob(".build-*"))


def test_unwritable_location_builds_in_memory(tmp_path, monkeypatch):
    # Works as root too: the location is a file, so nothing can be created under it.
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setattr(index_mod, "_fallback_base", lambda: blocker / "cache")
    opened = open_at(blocker / "index")
    assert opened.path is None and "memory" in opened.notices[0]
    assert search.ask(opened, "field hospitals").hits


def test_non_editable_install_searches_from_another_directory(tmp_path):
    """`pip install .` (not editable) finds its corpus inside the package and builds its index in the cache."""
    root = Path(__file__).resolve().parent.parent
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(root)], check=True, cwd=tmp_path, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "ROOTFAQ_INDEX_DIR"}
    env.update(PYTHONPATH=str(target), XDG_CACHE_HOME=str(tmp_path / "cache"))
    work = tmp_path / "elsewhere"
    work.mkdir()
    script = ("import rootfaq, sys; print(rootfaq.__file__); "
              "sys.argv = ['rootfaq', 'ask', '--json', 'field hospitals']; from rootfaq.cli import main; main()")
    out = subprocess.run([sys.executable, "-c", script], cwd=work, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    location, payload = out.stdout.split("\n", 1)
    assert location.startswith(str(target))
    assert json.loads(payload)["hits"][0]["text"]
    assert list((tmp_path / "cache" / "rootfaq").glob("*-s*"))
