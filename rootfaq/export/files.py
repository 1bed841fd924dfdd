"""Safe file writing for the cheat sheet: atomic, and never over an existing file without `force`.

    write_sheet(content, path, force=False) -> Path
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ..errors import UsageError


def write_sheet(content: str | bytes, path: Path | str, force: bool = False) -> Path:
    """Write text or bytes to `path` atomically; refuse to replace an existing file unless `force`."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a directory", "give a file name with -o")
    if path.exists() and not force:
        raise UsageError(f"{path} already exists", "use --force to overwrite it")
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"the directory {parent} does not exist", "create it, or choose another path with -o")
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise UsageError(f"cannot write in {parent}: {exc.strerror or exc}", "choose another path with -o") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        if force:
            os.replace(temp, path)
        else:
            _publish_new(temp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}", "choose another path with -o") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    return path


def _publish_new(temp: str, path: Path) -> None:
    """Rename into place without replacing a file that appeared since we looked (link fails if it exists)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise UsageError(f"{path} already exists", "use --force to overwrite it") from None
    except OSError:
        os.replace(temp, path)  # a file system without hard links: the plain rename


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
