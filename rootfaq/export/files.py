"""Safe file writing for the cheat sheet.

    write_sheet(content, path, force=False) -> Path
    write_stream(content, stream)                      # `-o -`: standard output

A sheet goes to a temporary `.part` file beside its target, is flushed to disk, then renamed into place,
so a reader never sees half a sheet. An existing file is replaced only with `force`, and only when it is
a regular file or a symlink (the link is replaced, not what it points to); a device, FIFO, socket or
folder never is, whatever the options (as root, `-o /dev/null --force` would otherwise replace the null
device). A run killed while writing leaves its `.part` file; the next run in that folder removes it. The
`.part` name carries the writer's process id, so a writer still at work is never disturbed.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

from ..errors import UsageError
from .echo import shown

_PART_SUFFIX = ".rootfaq-{pid}.part"
_PART_NAME = re.compile(r"^\..+\.rootfaq-(\d+)\.part$")
_PART_MAX_AGE = 600.0  # seconds; where a process id cannot be checked, an older .part counts as left over


def write_sheet(content: str | bytes, path: Path | str, force: bool = False) -> Path:
    """Write text or bytes to `path` atomically; refuse to replace an existing file unless `force`."""
    path = Path(path)
    check_target(path, force)
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"the directory {shown(parent)} does not exist", "create it, or choose another path with -o")
    remove_left_over_parts(parent)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=_PART_SUFFIX.format(pid=os.getpid()))
    except OSError as exc:
        raise UsageError(f"cannot write in {shown(parent)}: {exc.strerror or exc}",
                         "choose another path with -o") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        if force:
            check_target(path, force)  # once more: the rename would replace whatever is there now
            os.replace(temp, path)
        else:
            _publish_new(temp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {shown(path)}: {exc.strerror or exc}", "choose another path with -o") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    return path


def write_stream(content: str | bytes, stream: BinaryIO) -> None:
    """Write a sheet to an open binary stream (standard output for `-o -`)."""
    stream.write(content.encode("utf-8") if isinstance(content, str) else content)
    stream.flush()


def check_target(path: Path, force: bool) -> None:
    """UsageError unless a sheet may be written at `path`: nothing there, or with `force` a regular file
    or a symlink to one (or to nothing)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"cannot use {shown(path)}: {exc.strerror or exc}", "choose another path with -o") from None
    kind = _kind(path, info)
    if kind == "directory":
        raise UsageError(f"{shown(path)} is a directory", "give a file name with -o")
    if kind != "file":
        raise UsageError(f"{shown(path)} is a {kind}, not a regular file: it is never replaced",
                         "choose a file name with -o, or write to standard output with -o -")
    if not force:
        raise UsageError(f"{shown(path)} already exists", "use --force to overwrite it")


def _kind(path: Path, info: os.stat_result) -> str:
    """What is at `path`, a symlink judged by what it points to ("file" when it points nowhere)."""
    if stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)
        except OSError:
            return "file"  # a dangling link: replacing the link harms nothing
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def remove_left_over_parts(folder: Path) -> list[str]:
    """Remove the `.part` files that runs killed while writing left in `folder`; return their names.
    Only our own regular files whose writer is gone are touched."""
    removed = []
    with contextlib.suppress(OSError), os.scandir(folder) as found:
        for item in found:
            match = _PART_NAME.match(item.name)
            if not match or _writer_alive(int(match[1]), item):
                continue
            with contextlib.suppress(OSError):
                info = item.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and _ours(info):
                    os.unlink(item.path)
                    removed.append(item.name)
    return removed


def _ours(info: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _writer_alive(pid: int, item: os.DirEntry) -> bool:
    if pid == os.getpid():
        return False  # an earlier process had our id; this one has not started writing yet
    if os.name == "nt":  # os.kill would end the process there: judge by age instead
        with contextlib.suppress(OSError):
            return time.time() - item.stat(follow_symlinks=False).st_mtime < _PART_MAX_AGE
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


def _publish_new(temp: str, path: Path) -> None:
    """Rename into place without replacing a file that appeared since we looked (link fails if it exists)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise UsageError(f"{shown(path)} already exists", "use --force to overwrite it") from None
    except OSError:
        os.replace(temp, path)  # a file system without hard links: the plain rename


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
