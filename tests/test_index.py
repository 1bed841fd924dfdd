"""The index on disk: built beside the live one and swapped in, checked before use, never trusted from a
location another user can write, and replaced by an index in memory whenever the location fails.

Several tests need a second user or a tmpfs: they run as root (CI runs as root on a fresh machine) and
skip, saying so, where the machine does not allow them.
"""

from __future__ import annotations

import json
import os
import pickle
import pwd
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rootfaq.corpus.build import build_corpus
from rootfaq.corpus.files import corpus_hash, read_corpus_files
from rootfaq.errors import IndexFailure
from rootfaq.search import answers as search
from rootfaq.search import dense, location, store
from rootfaq.search import index as index_module

ROOT = Path(__file__).resolve().parent.parent
# A look-up: its answer does not depend on ranking, so these tests are about the index alone.
ASK = [sys.executable, "-m", "rootfaq", "ask", "--json", "6.2.3"]
LOOKED_UP = "rule-6.2.3"


_CONTENT: dict[str, store.IndexContent] = {}


def content_of(texts) -> store.IndexContent:
    """What search.open_index builds from these texts, computed once per session (builds stay real)."""
    key = corpus_hash(texts)
    if key not in _CONTENT:
        corpus = build_corpus(texts)
        vectors = dense.build_vectors(corpus.records, [])
        _CONTENT[key] = store.index_content(corpus, vectors)
    return _CONTENT[key]


def loader(texts):
    return lambda: content_of(texts)


def open_at(base: Path, texts=None, **kwargs):
    texts = texts or read_corpus_files()
    return store.open_or_build(corpus_hash(texts), loader(texts), base=base, **kwargs)


def live_dir(base: Path) -> Path:
    return base / (base / location.CURRENT).read_text().strip()


def index_folders(base: Path) -> list[str]:
    return sorted(n for n in os.listdir(base) if n != location.CURRENT)


def run_ask(base: Path, *args: str, **popen) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(base), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(list(args) or ASK, env=env, capture_output=True, text=True, timeout=120, **popen)


def answered(proc: subprocess.CompletedProcess) -> bool:
    return proc.returncode == 0 and json.loads(proc.stdout)["hits"][0]["id"] == LOOKED_UP


@pytest.fixture(scope="module")
def built_files():
    """The files of one build (in memory), for tests that lay out an index by hand."""
    content = content_of(read_corpus_files())
    return store.build_files(content), len(content.records)


@pytest.fixture
def installed(tmp_path, built_files) -> Path:
    """tmp_path holding a current index, installed from files built once (tests about what comes next)."""
    return plant(tmp_path, *built_files)


def plant(base: Path, files: dict[str, bytes], records: int) -> Path:
    """Install an index made of these files, with a manifest that matches them (as a careful attacker would)."""
    base.mkdir(parents=True, exist_ok=True)
    key = store.index_key(corpus_hash(read_corpus_files()))
    return store._install(base, files, store.make_manifest(key, files, records))


# --- building, stale, damaged -------------------------------------------------------------------------------


def test_first_build_writes_a_complete_index_beside_a_current_pointer(tmp_path):
    opened = open_at(tmp_path)
    assert opened.path == live_dir(tmp_path) and opened.notices == [] and opened.build_seconds > 0
    manifest = json.loads((opened.path / store.MANIFEST).read_text())
    assert manifest["schema"] == store.SCHEMA_VERSION and manifest["records"] == len(opened.library.records)
    assert manifest["code"] == store.code_digest()
    listed = {f["name"] for f in manifest["files"]}
    assert listed == set(os.listdir(opened.path)) - {store.MANIFEST}  # every file the build wrote
    assert index_folders(tmp_path) == [opened.path.name]  # no .build-* left behind
    again = open_at(tmp_path)
    assert again.path == opened.path and again.build_seconds is None and again.notices == []


def test_document_numbers_follow_the_records_order_as_whoosh_stored_them(tmp_path):
    """docnum_ids reads the order from records.json instead of unpickling every stored document."""
    opened = open_at(tmp_path)
    stored = {docnum: fields["id"] for docnum, fields in opened.reader().iter_docs()}
    assert opened.docnum_ids() == [stored[n] for n in range(len(stored))]


@pytest.mark.slow
def test_a_stale_index_is_rebuilt_automatically(tmp_path):
    texts = read_corpus_files()
    first = open_at(tmp_path, texts)
    changed = dict(texts)
    changed["vocabulary.yaml"] = texts["vocabulary.yaml"] + "\n"
    second = open_at(tmp_path, changed)
    assert second.path != first.path and second.notices == ["the corpus changed since the index was built; rebuilt it"]
    assert not first.path.exists()  # the stale one is cleaned up


def test_an_index_built_by_other_parsing_code_is_rebuilt(tmp_path, installed, monkeypatch):
    monkeypatch.setattr(store, "code_digest", lambda: "0" * 64)  # what a parser fix does to the key
    second = open_at(tmp_path)
    assert second.path != installed and not installed.exists()
    assert second.notices == ["rootfaq's parsing or indexing code changed since the index was built; rebuilt it"]


def test_a_change_to_a_parser_changes_the_code_digest(tmp_path):
    package = ROOT / "rootfaq"
    copy = tmp_path / "rootfaq"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert store.source_digest(copy) == store.code_digest()
    source = copy / "corpus" / "faq.py"
    source.write_text(source.read_text() + "\n# a one-line fix\n")
    assert store.source_digest(copy) != store.code_digest()


def test_the_code_digest_lists_exactly_the_modules_a_build_runs(tmp_path):
    """A module a build runs but the digest skips would let a parser change keep an old index; a module the
    digest lists but no build runs (ranking, say) would make every edit to it cost a rebuild."""
    code = ("import json, sys; from pathlib import Path\n"
            "from rootfaq.search import store\n"
            "store.open_index()\n"
            "package = Path(store.__file__).resolve().parents[1]\n"
            "print(json.dumps(sorted(Path(module.__file__).resolve().relative_to(package).as_posix() "
            "for name, module in list(sys.modules.items()) "
            "if name.startswith('rootfaq') and not name.endswith('_data'))))")
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                          check=True)
    ran = json.loads(proc.stdout)
    assert "corpus/build.py" in ran and "search/dense.py" in ran  # a real build ran, vectors included
    assert sorted(store.BUILD_SOURCES) == ran


def _edit_records(path: Path) -> None:
    text = (path / store.RECORDS).read_text("utf-8")
    assert "Yes, you can ambush with no warriors" in text
    (path / store.RECORDS).write_text(text.replace("Yes, you can ambush", "No, you cannot ambush"), "utf-8")


def _flip_segment_byte(path: Path) -> None:
    segment = next(path.glob("*.seg"))
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0x01
    segment.write_bytes(bytes(data))


def _link_manifest(path: Path) -> None:
    """The manifest replaced by a link to a copy of itself: valid content, but never followed."""
    copy = path.parent.parent / f"{path.name}.json"
    copy.write_bytes((path / store.MANIFEST).read_bytes())
    (path / store.MANIFEST).unlink()
    (path / store.MANIFEST).symlink_to(copy)


DAMAGE = {
    "records edited": _edit_records,
    "segment byte flipped": _flip_segment_byte,
    "toc garbage": lambda p: next(p.glob("_MAIN_*.toc")).write_bytes(b"garbage"),
    "manifest garbage": lambda p: (p / store.MANIFEST).write_text("{not json"),
    "file missing": lambda p: (p / store.QUERY_MODEL).unlink(),
    "records replaced by a symlink": lambda p: ((p / store.RECORDS).unlink(),
                                                (p / store.RECORDS).symlink_to("/etc/hostname")),
    # A FIFO would make an ordinary open wait forever for a writer; a manifest past its bound once made
    # reading it return a mapping instead of bytes (AttributeError: 'mmap.mmap' object has no 'decode').
    "manifest a FIFO": lambda p: ((p / store.MANIFEST).unlink(), os.mkfifo(p / store.MANIFEST)),
    "records a FIFO": lambda p: ((p / store.RECORDS).unlink(), os.mkfifo(p / store.RECORDS)),
    "manifest of 2 MB": lambda p: (p / store.MANIFEST).write_bytes(b" " * 2_000_000),
    "records a folder": lambda p: ((p / store.RECORDS).unlink(), (p / store.RECORDS).mkdir()),
    "manifest a symlink": lambda p: _link_manifest(p),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_index_is_rebuilt_with_a_notice_and_never_served(tmp_path, installed, damage):
    assert open_at(tmp_path).path == installed  # intact, it is used as it is
    DAMAGE[damage](installed)
    again = open_at(tmp_path)
    assert len(again.notices) == 1 and again.notices[0].startswith("the index was damaged"), again.notices
    assert again.path != installed and index_folders(tmp_path) == [again.path.name]
    assert again.library.records["faq-071"].text.startswith("Yes, you can ambush")  # what is served is the source


def test_a_valid_manifest_past_the_mapping_size_is_read_as_text(tmp_path, installed):
    manifest = installed / store.MANIFEST
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "pad": "x" * 300_000}))
    assert manifest.stat().st_size >= location.MAP_AT_BYTES
    again = open_at(tmp_path)
    assert again.path == installed and again.notices == []


@pytest.mark.parametrize("pointer", ["fifo", "300 KB", "2 MB of a name", "folder"])
def test_a_current_pointer_that_is_no_pointer_is_replaced_by_a_build_never_a_hang(tmp_path, installed, pointer):
    current = tmp_path / location.CURRENT
    current.unlink()
    if pointer == "fifo":
        os.mkfifo(current)
    elif pointer == "folder":
        current.mkdir()
    else:
        current.write_bytes(b"x" * (300_000 if pointer == "300 KB" else 2_000_000))
    proc = run_ask(tmp_path)  # a timeout of 120 s: a hang fails the test
    assert answered(proc), proc.stderr
    assert current.is_file() and current.stat().st_size < 100, "the pointer was written anew"
    again = run_ask(tmp_path)
    assert answered(again) and again.stderr == "", "then served from disk"
    assert index_folders(tmp_path) == [live_dir(tmp_path).name], "what stood in its place is gone"


def test_files_other_users_could_write_inside_the_index_are_not_read(tmp_path, installed):
    (installed / store.RECORDS).chmod(0o666)
    again = open_at(tmp_path)
    assert again.notices == ["the index was not safe to read (records.json is writable by other users (mode 666)); "
                             "rebuilt it"]


def test_rebuild_on_request_swaps_in_a_new_folder_and_removes_the_old(tmp_path, installed):
    again = open_at(tmp_path, rebuild=True)
    assert again.path != installed and not installed.exists() and again.notices == []
    assert live_dir(tmp_path) == again.path and again.build_seconds is not None


def test_an_open_index_keeps_answering_after_a_rebuild_removed_its_folder(tmp_path, installed):
    reader = open_at(tmp_path)
    open_at(tmp_path, rebuild=True)
    assert not installed.exists()
    assert search.ask(reader, "field hospitals").hits  # whoosh, the records and the vectors: all still there
    assert reader.vectors.matrix.shape[0] == len(reader.vectors.record_ids) > 0


def test_the_old_layout_is_replaced_and_removed(tmp_path):
    old = tmp_path / "1c1aa30b4e617499-s8"  # rootfaq before CURRENT: a folder named after the key
    old.mkdir()
    (old / "manifest.json").write_text("{}")
    opened = open_at(tmp_path)
    assert not old.exists() and opened.notices == []


# --- no code from the index folder --------------------------------------------------------------------------


class _Payload:
    """A pickle that runs a command when loaded: what an attacker would put into whoosh's TOC."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch '{self.marker}'",))


def _poisoned_toc(marker: Path) -> bytes:
    """A whoosh TOC whose pickled schema and segment list both run a command when unpickled."""
    import io

    from whoosh import __version__ as whoosh_version
    from whoosh import index as whoosh_index
    from whoosh.filedb.structfile import StructFile

    buffer = io.BytesIO()
    out = StructFile(buffer)
    for size in (whoosh_index._INT_SIZE, whoosh_index._LONG_SIZE, whoosh_index._FLOAT_SIZE):
        out.write_varint(size)
    out.write_int(-12345)
    out.write_int(whoosh_index._CURRENT_TOC_VERSION)
    for number in whoosh_version[:3]:
        out.write_varint(number)
    out.write_string(pickle.dumps(_Payload(marker), 2))
    out.write_int(1)
    out.write_int(0)
    out.write_pickle(_Payload(marker))
    return buffer.getvalue()


def _poisoned_index(base: Path, built_files, marker: Path) -> Path:
    """An index whose manifest matches its files, with a TOC that runs a command; checks that it is live."""
    files, records = built_files
    files = {**files, "_MAIN_1.toc": _poisoned_toc(marker)}
    path = plant(base, files, records)
    from whoosh import index as whoosh_index

    with pytest.raises(Exception):  # noqa: B017  (whoosh fails after the pickle ran: any error will do)
        whoosh_index.open_dir(str(path))
    assert marker.exists(), "the planted pickle runs when whoosh opens the folder its own way"
    marker.unlink()
    return path


def _second_user() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return nobody.pw_uid, nobody.pw_gid


def test_a_pickle_in_a_folder_another_user_owns_never_runs(tmp_path, built_files):
    user = _second_user()
    if user is None:
        pytest.skip("giving a folder to another user needs root and a 'nobody' user (CI runs as root)")
    shared = tmp_path / "tmp"  # a world-writable sticky folder, like /tmp
    shared.mkdir(mode=0o1777)
    shared.chmod(0o1777)
    base = shared / "rootfaq-index"  # created first by the other user, as the old help suggested
    marker = tmp_path / "pwned"
    _poisoned_index(base, built_files, marker)
    for path in [base, *base.rglob("*")]:
        os.chown(path, *user, follow_symlinks=False)
    proc = run_ask(base)
    assert not marker.exists(), "the planted pickle ran"
    assert answered(proc), proc.stderr
    assert proc.stderr == (f"rootfaq: note: cannot use the index at {base} (it belongs to another user (uid "
                           f"{user[0]})); using one built in memory for this run\n")


def test_a_pickle_in_a_folder_others_can_write_never_runs(tmp_path, built_files):
    base = tmp_path / "rootfaq-index"
    marker = tmp_path / "pwned"
    _poisoned_index(base, built_files, marker)
    base.chmod(0o777)
    proc = run_ask(base)
    assert not marker.exists(), "the planted pickle ran"
    assert answered(proc), proc.stderr
    assert "is writable by other users (mode 777)" in proc.stderr and "built in memory" in proc.stderr


def test_a_parent_others_can_write_makes_the_location_untrusted(tmp_path):
    parent = tmp_path / "open"
    parent.mkdir()
    parent.chmod(0o777)  # not sticky: anyone could rename the index folder away and put another in its place
    opened = open_at(parent / "index")
    assert opened.path is None and f"{parent} is writable by other users" in opened.notices[0]
    parent.chmod(0o1777)  # sticky, like /tmp: only the owner may rename or remove what it created
    location.check_location(parent / "index")


def _stat(mode: int, uid: int, gid: int = 4242) -> os.stat_result:
    return os.stat_result((mode, 0, 0, 1, uid, gid, 0, 0, 0, 0))


@pytest.mark.parametrize("mode, uid, own_group, problem", [
    (0o40700, "me", False, None),
    (0o40755, "root", False, None),
    (0o40775, "me", True, None),  # a user private group (umask 002): still only this user
    (0o40775, "me", False, "writable by other users (mode 775)"),
    (0o40757, "me", True, "writable by other users (mode 757)"),
    (0o40700, "other", False, "belongs to another user (uid 4243)"),
])
def test_the_ownership_rule_as_git_and_ssh_apply_it(monkeypatch, mode, uid, own_group, problem):
    """The rule alone, with stat results this test controls (the end-to-end tests need root for some cases)."""
    me = os.geteuid() or 4242
    monkeypatch.setattr(os, "geteuid", lambda: me)
    monkeypatch.setattr(location, "_own_group", lambda gid: own_group)
    owner = {"me": me, "root": 0, "other": me + 1}[uid]
    if problem is None:
        location.check_owner(_stat(mode, owner), "it", location.Unusable)
    else:
        with pytest.raises(location.Unusable, match=problem.replace("(", r"\(").replace(")", r"\)")):
            location.check_owner(_stat(mode, owner), "it", location.Unusable)


def test_the_help_no_longer_suggests_a_world_writable_folder():
    from typer.testing import CliRunner

    from rootfaq.cli import app as cli

    help_text = CliRunner().invoke(cli.app, ["index", "--help"]).stdout
    assert "ROOTFAQ_INDEX_DIR" in help_text and "/tmp" not in help_text


# --- a location that fails: an index in memory, with a notice -----------------------------------------------


def _broken_link(tmp_path):
    link = tmp_path / "index"
    link.symlink_to(tmp_path / "gone")
    return link, "it is a broken symbolic link"


def _a_file(tmp_path):
    path = tmp_path / "index"
    path.write_text("x")
    return path, "it is not a folder"


def _under_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    return tmp_path / "file" / "index", "not a directory"


@pytest.mark.parametrize("location", [_broken_link, _a_file, _under_a_file])
def test_a_location_that_is_not_a_folder_builds_in_memory(tmp_path, location):
    base, reason = location(tmp_path)
    opened = open_at(base)
    assert opened.path is None
    assert opened.notices == [f"cannot use the index at {base} ({reason}); using one built in memory for this run"]
    assert search.ask(opened, "field hospitals").hits


# Root reads any folder through two capabilities; without them (setpriv drops them from the bounding set,
# so the command it starts never has them) a mode-000 folder is closed to root as to anyone.
_WITHOUT_FOLDER_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_a_folder_this_user_cannot_enter_builds_in_memory(tmp_path):
    base = tmp_path / "index"
    base.mkdir(mode=0o000)
    try:
        prefix = _WITHOUT_FOLDER_OVERRIDE if os.geteuid() == 0 else []
        proc = run_ask(base, *prefix, *ASK)
        assert answered(proc), proc.stderr
        assert proc.stderr == (f"rootfaq: note: cannot use the index at {base} (permission denied); "
                               "using one built in memory for this run\n")
    finally:
        base.chmod(0o700)


def _limit_file_size(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_write_that_fails_midway_builds_in_memory_and_leaves_nothing(tmp_path):
    """Runs for any user: a file size limit makes the 1.2 MB segment fail to write, as a full disk would."""
    base = tmp_path / "index"
    proc = run_ask(base, preexec_fn=_limit_file_size(200_000))
    assert answered(proc), proc.stderr
    assert proc.stderr == (f"rootfaq: note: cannot write the index at {base} (file too large); "
                           "using one built in memory for this run\n")
    assert index_folders(base) == []  # the half-written build folder is removed


def _remount_read_only(point: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)


def test_a_full_disk_builds_in_memory_and_leaves_nothing(tmpfs):
    point = tmpfs("256k")
    proc = run_ask(point)
    assert answered(proc), proc.stderr
    assert proc.stderr == (f"rootfaq: note: cannot write the index at {point} (no space left on device); "
                           "using one built in memory for this run\n")
    assert os.listdir(point) == []


@pytest.mark.parametrize("args", [["index"], ["index", "--rebuild"]])
def test_the_index_command_fails_when_it_could_not_write_the_index(tmpfs, args):
    point = tmpfs("256k")
    proc = run_ask(point, sys.executable, "-m", "rootfaq", *args)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "index: memory (for this run only)" in proc.stdout
    assert "cannot write the index at" in proc.stderr and "no space left on device" in proc.stderr


def test_a_rebuild_on_a_full_disk_keeps_the_index_it_had(tmpfs):
    point = tmpfs("20m")  # room for one index (15 MB with the record vectors), not for two
    first = run_ask(point)
    assert answered(first) and first.stderr == ""
    live = live_dir(point)
    proc = run_ask(point, sys.executable, "-m", "rootfaq", "index", "--rebuild")
    assert proc.returncode == 3 and "no space left on device" in proc.stderr  # it could not write: a failure
    assert "index: memory" in proc.stdout and live_dir(point) == live and index_folders(point) == [live.name]
    again = run_ask(point)
    assert answered(again) and again.stderr == ""


def test_a_valid_index_on_a_read_only_mount_is_used_not_rebuilt(tmpfs):
    point = tmpfs("20m")
    assert run_ask(point).returncode == 0
    live = live_dir(point)
    _remount_read_only(point)
    proc = run_ask(point)
    assert answered(proc) and proc.stderr == ""
    assert live_dir(point) == live


def test_an_empty_read_only_mount_builds_in_memory(tmpfs):
    point = tmpfs("20m")
    _remount_read_only(point)
    proc = run_ask(point)
    assert answered(proc), proc.stderr
    assert proc.stderr == (f"rootfaq: note: cannot write the index at {point} (read-only file system); "
                           "using one built in memory for this run\n")


# --- rebuilds while others read, killed builds --------------------------------------------------------------

REBUILD = [sys.executable, "-c", "from rootfaq.search import store; store.open_index(rebuild=True)"]


def test_asks_during_rebuilds_all_get_real_answers(tmp_path, installed):
    """Three rebuilds in a row while three processes keep asking (JSON and text): every ask is answered."""
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(tmp_path)}
    loop = [sys.executable, "-c", "from rootfaq.search import store\nfor _ in range(3): store.open_index(rebuild=True)"]
    rebuilder = subprocess.Popen(loop, env=env, stderr=subprocess.PIPE, text=True)
    commands = [ASK, [sys.executable, "-m", "rootfaq", "ask", "6.2.3"]]
    results = []
    running: list[subprocess.Popen] = []
    started = 0
    while rebuilder.poll() is None and started < 120:
        while len(running) < 3:
            running.append(subprocess.Popen(commands[started % 2], env=env, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True))
            started += 1
        done = running.pop(0)
        results.append((done.args, done.wait(timeout=120), *done.communicate()))
    for proc in running:
        results.append((proc.args, proc.wait(timeout=120), *proc.communicate()))
    assert rebuilder.wait(timeout=120) == 0, rebuilder.stderr.read()
    assert len(results) >= 6
    failures = [r for r in results if r[1] != 0 or r[3] or LOOKED_UP not in r[2]]
    assert failures == [], failures[:3]
    assert index_folders(tmp_path) == [live_dir(tmp_path).name]


@pytest.mark.parametrize("moment", ["starting", "writing", "swapping"])
def test_a_build_killed_at_any_moment_leaves_a_working_index_and_its_leftovers_go(tmp_path, installed, moment):
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(tmp_path)}
    for attempt in range(3):
        before = live_dir(tmp_path)
        proc = subprocess.Popen(REBUILD, env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            names = os.listdir(tmp_path)
            writing = any(n.startswith(location.BUILDING) for n in names)
            finished = [n for n in names if n.startswith(location.FINISHED)]
            if (moment == "starting" and time.monotonic() > deadline - 60 + 0.2 + 0.1 * attempt
                    or moment == "writing" and writing or moment == "swapping" and len(finished) > 1):
                break
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        opened = open_at(tmp_path)  # the next start
        assert opened.notices == [] and opened.path in (before, live_dir(tmp_path))
        assert search.ask(opened, "6.2.3").hits[0].record.id == LOOKED_UP
        assert index_folders(tmp_path) == [live_dir(tmp_path).name], "leftovers of the killed build stay"


def test_leftovers_are_kept_while_another_process_is_building(tmp_path, installed):
    import fcntl

    in_progress = tmp_path / ".build-s1x2y3"
    in_progress.mkdir()
    (in_progress / "segment").write_text("half written")
    holder = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # what a running build holds
        open_at(tmp_path)
        assert (in_progress / "segment").exists()
    finally:
        os.close(holder)
    open_at(tmp_path)
    assert not in_progress.exists()  # no build running any more: a leftover


@pytest.mark.slow
def test_several_processes_building_at_once(tmp_path):
    script = (
        "import sys; from rootfaq.search import answers, store; ix = store.open_index(); "
        "print(answers.ask(ix, 'ambush no warriors').hits[0].record.id)"
    )
    env = dict(os.environ, ROOTFAQ_INDEX_DIR=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [o[1] for o in outputs]
    assert len({o[0] for o in outputs}) == 1 and outputs[0][0].startswith("faq-")
    assert index_folders(tmp_path) == [live_dir(tmp_path).name]


# --- damage only searching finds ----------------------------------------------------------------------------


def _postings_damaged(built_files):
    """Files whose postings of "hand", "limit" and "ambush" are corrupt but whose manifest matches them: only a search
    reading those words notices (the first byte of each postings block is its tag)."""
    from whoosh.filedb.compound import CompoundStorage
    from whoosh.filedb.filestore import RamStorage

    files, records = built_files
    segment = next(name for name in files if name.endswith(".seg"))
    storage = RamStorage()
    storage.files = {segment: files[segment]}
    postings = next(v["offset"] for k, v in CompoundStorage(storage.open_file(segment), use_mmap=False)._dir.items()
                    if k.endswith(".pst"))
    reader = index_module.open_whoosh(files).reader()
    data = bytearray(files[segment])
    for field_name in ("question", "title", "phrasings", "text", "cited_by"):
        for word in ("hand", "limit", "ambush"):
            if (field_name, word) in reader:
                data[postings + reader.term_info(field_name, word)._offset] ^= 0xFF
    return {**files, segment: bytes(data)}, records


def test_whoosh_failing_while_searching_rebuilds_once_and_answers(tmp_path, built_files):
    plant(tmp_path, *_postings_damaged(built_files))
    opened = open_at(tmp_path)
    assert opened.notices == []  # the checksums match: nothing to see before searching
    damaged = opened.path
    answer = search.ask_repairing(opened, "hand limit")  # words, not a number: the search reads whoosh
    assert answer.hits
    assert answer.notices == ["searching the index failed (whoosh.reading.CorruptIndexError); rebuilt it"]
    assert opened.path != damaged and not damaged.exists()
    assert search.ask_repairing(opened, "field hospitals").notices == []


def test_whoosh_failing_again_after_the_rebuild_is_a_clean_error(tmp_path, built_files, monkeypatch):
    plant(tmp_path, *_postings_damaged(built_files))
    opened = open_at(tmp_path)
    still_damaged, _ = _postings_damaged(built_files)
    monkeypatch.setattr(opened, "rebuild", lambda: store.load_index(still_damaged, opened.manifest, None, []))
    with pytest.raises(IndexFailure, match="searching the index failed even after a rebuild"):
        search.ask_repairing(opened, "hand limit")


def test_a_batch_on_an_index_damaged_inside_is_repaired_for_every_line(tmp_path, built_files):
    plant(tmp_path, *_postings_damaged(built_files))
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "rootfaq", "ask", "--json", "-"], env=env, capture_output=True,
                          input="hand limit\nfield hospitals\n", text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["hits"] and "rebuilt it" in first["notices"][0]
    assert second["hits"] and second["notices"] == []


def test_show_and_chat_show_on_an_index_damaged_inside_are_repaired(tmp_path, built_files, monkeypatch):
    """Their "on the same topic" lines search the index too (rootfaq/search/related.py)."""
    from typer.testing import CliRunner

    from rootfaq.cli import app as cli
    from rootfaq.views import chat

    monkeypatch.setenv("ROOTFAQ_INDEX_DIR", str(tmp_path))
    plant(tmp_path, *_postings_damaged(built_files))
    result = CliRunner().invoke(cli.app, ["show", "faq-071"], catch_exceptions=False)
    assert result.exit_code == 0 and "On the same topic" in result.stdout
    assert result.stderr == "rootfaq: note: searching the index failed (whoosh.reading.CorruptIndexError); rebuilt it\n"
    plant(tmp_path, *_postings_damaged(built_files))
    _, output = chat.handle_line(chat.new_state(store.open_index()), ":show faq-071")
    assert output[0].text == "note: searching the index failed (whoosh.reading.CorruptIndexError); rebuilt it"
    assert output[1].id == "faq-071"


# --- installs -----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_non_editable_install_searches_from_another_directory(tmp_path):
    """`pip install .` (not editable) finds its corpus inside the package and builds its index in the cache."""
    target = tmp_path / "site"
    source = tmp_path / "source"  # a copy: building in place would write build/ and *.egg-info into the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "index", "build", "*.egg-info",
                                                                 "__pycache__", ".*cache", ".fit-cache"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(source)], check=True, cwd=tmp_path, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "ROOTFAQ_INDEX_DIR"}
    env.update(PYTHONPATH=str(target), XDG_CACHE_HOME=str(tmp_path / "cache"))
    work = tmp_path / "elsewhere"
    work.mkdir()
    script = ("import rootfaq, sys; print(rootfaq.__file__); "
              "sys.argv = ['rootfaq', 'ask', '--json', '6.2.3']; from rootfaq.cli import main; sys.exit(main())")
    out = subprocess.run([sys.executable, "-c", script], cwd=work, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    imported_from, payload = out.stdout.split("\n", 1)
    assert imported_from.startswith(str(target))
    assert json.loads(payload)["hits"][0]["text"]
    assert (tmp_path / "cache" / "rootfaq" / location.CURRENT).is_file()


def test_query_analysis_gives_the_index_analyzers_stems(corpus):
    """`analyze` (questions, ranking) re-implements whoosh's StemmingAnalyzer for speed: on every record's
    text and on awkward input it must give the stems the index was built with, or words stop matching."""
    from whoosh.analysis import StemmingAnalyzer

    analyzer = StemmingAnalyzer(stoplist=None, minsize=1)
    texts = [" ".join(filter(None, [r.title, r.section_title, r.text, *r.phrasings])) for r in corpus.records]
    texts += ["Can the CATS' Keep be REMOVED?!", "İstanbul ŞEHİR", "3.2.1 bp2.5 a*b x.y.z", "", "—…\x00"]
    for text in texts:
        assert index_module.analyze(text) == [t.text for t in analyzer(text)], text
