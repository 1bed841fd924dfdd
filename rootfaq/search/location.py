"""Where indexes live on disk and whether this process may trust what is there (no whoosh here).

Layout of the folder (`index_base_dir()`: `index/` in a checkout, the user cache when installed):

    CURRENT            the name of the live index folder, replaced in one step by a rebuild
    ix-XXXXXXXX/       a finished index (rootfaq/search/store.py says what it holds)
    .build-XXXXXXXX/   a build in progress, or what a killed one left (removed on a later start)

Whoosh keeps pickles in its files, and unpickling runs code. So nothing is read from a location another
user could have written: the folder, its parents and every file must belong to this user (or root) and
not be writable by others, as ssh and git require. One builder at a time holds a lock on the folder.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import shutil
import stat
import time
from pathlib import Path

CURRENT = "CURRENT"
BUILDING = ".build-"
FINISHED = "ix-"
POINTER_TEMP = ".CURRENT-"
MAP_AT_BYTES = 256 * 1024  # files this large are mapped, not read (read_trusted)
INDEX_FILE_LIMIT = 256 * 1024 * 1024  # no index file is near this: a larger one is damage, not data
POINTER_LIMIT = 4096  # CURRENT holds one folder name
MANIFEST_LIMIT = 1024 * 1024  # the manifest lists a dozen files
LOCK_WAIT_SECONDS = 120.0  # how long a process waits for another one's build before building in memory

_FINISHED_NAME = re.compile(r"^ix-[A-Za-z0-9_]+$")
_OLD_LAYOUT = re.compile(r"^[0-9a-f]{16}-s\d+$")  # folders of rootfaq before CURRENT (schema 10 and older)


def index_base_dir() -> Path:
    """Where indexes live: $ROOTFAQ_INDEX_DIR, else `index/` in a checkout, else the user cache."""
    override = os.environ.get("ROOTFAQ_INDEX_DIR")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "index").is_dir():
        return checkout / "index"
    import platformdirs

    return Path(platformdirs.user_cache_dir("rootfaq", appauthor=False))


# --- what can be wrong with a location ----------------------------------------------------------------------


class Problem(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Unusable(Problem):
    """The location cannot hold an index for this user (not a folder, not trusted, not readable)."""


class Stale(Problem):
    """The index was built from another corpus or by other code."""


class Damaged(Problem):
    """The index's files are missing, changed or unreadable."""


class Unsafe(Problem):
    """Files inside a trusted location that another user could have written."""


# --- trust ---------------------------------------------------------------------------------------------------


def check_location(base: Path) -> None:
    """The index folder exists (created private when missing) and no other user can write it or its parents.

    As ssh does for ~/.ssh: the folder must belong to this user (or root) and not be writable by group
    or others; each parent must belong to this user or root, and be writable by others only when sticky
    (/tmp). A group of this user's own (Debian's user private groups, umask 002) counts as private.
    """
    try:
        if os.path.lexists(base) and not os.path.exists(base):
            raise Unusable("it is a broken symbolic link")
        try:
            base.mkdir(parents=True, mode=0o700)
        except FileExistsError:
            pass
        if not stat.S_ISDIR(os.stat(base).st_mode):
            raise Unusable("it is not a folder")
        if not hasattr(os, "geteuid"):
            return  # no POSIX owners (Windows): the user's profile folder is private already
        real = Path(os.path.realpath(base))
        check_owner(os.stat(real), "it", Unusable)
        for parent in real.parents:
            info = os.stat(parent)
            if info.st_uid not in (os.geteuid(), 0):
                raise Unusable(f"{parent} belongs to another user (uid {info.st_uid})")
            if _writable_by_others(info) and not info.st_mode & stat.S_ISVTX:
                raise Unusable(f"{parent} is writable by other users")
    except OSError as exc:
        raise Unusable(reason_of(exc)) from None


def check_owner(info: os.stat_result, what: str, problem: type[Problem]) -> None:
    if not hasattr(os, "geteuid"):
        return
    if info.st_uid not in (os.geteuid(), 0):
        raise problem(f"{what} belongs to another user (uid {info.st_uid})")
    if _writable_by_others(info):
        raise problem(f"{what} is writable by other users (mode {stat.S_IMODE(info.st_mode):o})")


def _writable_by_others(info: os.stat_result) -> bool:
    return bool(info.st_mode & stat.S_IWOTH) or bool(info.st_mode & stat.S_IWGRP and not _own_group(info.st_gid))


@functools.lru_cache(maxsize=8)
def _own_group(gid: int) -> bool:
    """A user private group: this user's primary group, named after the user, with nobody else in it."""
    try:
        import grp
        import pwd

        user = pwd.getpwuid(os.geteuid())
        group = grp.getgrgid(gid)
    except (ImportError, KeyError):
        return False
    return gid == user.pw_gid and group.gr_name == user.pw_name and set(group.gr_mem) <= {user.pw_name}


def read_trusted(path: Path, limit: int = INDEX_FILE_LIMIT):
    """A regular file's bytes (a read-only buffer: bytes, or a mapping for a large file), after checking
    on the open file that it is a regular file of at most `limit` bytes that no other user could have
    written.

    Opened without following a link and without blocking, so a FIFO or device in its place is refused
    at once instead of waiting forever. A large file is mapped rather than read: copying six megabytes
    into fresh memory costs a cold start about 5 ms, mapping them 0.2 ms. The mapping stays valid when a
    rebuild removes the file. Text is read through `read_trusted_text`, whatever the size.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)  # before fdopen, which refuses a folder with its own error
        if not stat.S_ISREG(info.st_mode):
            raise Damaged(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise Damaged(f"{path.name} is {info.st_size:,} bytes, more than such a file can be ({limit:,})")
        check_owner(info, path.name, Unsafe)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        if info.st_size >= MAP_AT_BYTES:
            import mmap

            return mmap.mmap(fd, info.st_size, access=mmap.ACCESS_READ)
        return handle.read()


def read_trusted_text(path: Path, limit: int) -> str:
    """A small trusted file (CURRENT, the manifest) as text: checked as `read_trusted` does."""
    return bytes(read_trusted(path, limit)).decode("utf-8", "replace")


# --- the CURRENT pointer, leftovers, the builders' lock -------------------------------------------------------


def read_current(base: Path) -> str | None:
    """The live index directory's name, from CURRENT; None when there is none."""
    try:
        name = read_trusted_text(base / CURRENT, POINTER_LIMIT).strip()
    except FileNotFoundError:
        return None
    except Problem:
        return None  # a CURRENT this process cannot trust is as good as none: a build replaces it
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None
        raise Unusable(reason_of(exc)) from None
    return name if _FINISHED_NAME.match(name) else None


def write_current(base: Path, name: str) -> None:
    temp = base / f"{POINTER_TEMP}{os.getpid()}"
    pointer = base / CURRENT
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISDIR(os.lstat(pointer).st_mode):  # a folder where the pointer belongs: moved aside, and
            os.rename(pointer, base / f"{POINTER_TEMP}folder-{os.getpid()}")  # removed as a leftover
    try:
        write_synced(temp, (name + "\n").encode(), replace=True)
        os.replace(temp, base / CURRENT)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    sync_dir(base)


def tidy(base: Path, locked: bool = False) -> None:
    """Remove what killed or superseded builds left: never while another process is building."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    live = read_current_quietly(base)
    leftovers = [n for n in names if (n.startswith((BUILDING, POINTER_TEMP)) or _OLD_LAYOUT.match(n)
                                      or (_FINISHED_NAME.match(n) and n != live))]
    if not leftovers:
        return
    with contextlib.ExitStack() as stack:
        if not locked and not stack.enter_context(builder_lock(base, wait=0)):
            return  # a build is running: its folder is not a leftover
        live = read_current_quietly(base)  # read again under the lock
        for name in leftovers:
            if name == live:
                continue
            path = base / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()


def read_current_quietly(base: Path) -> str | None:
    try:
        return read_current(base)
    except Unusable:
        return None


@contextlib.contextmanager
def builder_lock(base: Path, wait: float = LOCK_WAIT_SECONDS):
    """One builder per location at a time: flock on the folder, released by the system if a builder dies.

    Yields False when another process held it for longer than `wait` seconds.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): builds still never overwrite each other's folders
        yield True
        return
    try:
        fd = os.open(base, os.O_RDONLY)
    except OSError as exc:
        raise Unusable(reason_of(exc)) from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.02)
            except OSError:  # a file system without locks: build without one
                break
        yield True
    finally:
        os.close(fd)


# --- small file helpers -------------------------------------------------------------------------------------


def write_synced(path: Path, data: bytes, replace: bool = False) -> None:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if replace else os.O_EXCL) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(fd)


def sync_dir(path: Path) -> None:
    """Make a rename or a new file in `path` durable (where the system allows syncing a directory)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def reason_of(exc: OSError) -> str:
    """'no space left on device', 'permission denied', 'read-only file system', ..."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[0].lower() + text[1:]
