"""One exception family. Each error carries a message, a hint and the exit code the CLI uses."""

from __future__ import annotations

EXIT_FOUND = 0
EXIT_NOTHING_FOUND = 1
EXIT_USAGE = 2
EXIT_DATA = 3
EXIT_SYSTEM = 4  # the operating system refused: a full disk, no memory, an output that cannot be written


class RootfaqError(Exception):
    """Base of every error rootfaq shows to a person."""

    exit_code = EXIT_DATA

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint


class CorpusError(RootfaqError):
    """A source or curated YAML file is missing or malformed; names file and line."""

    def __init__(self, file: str, line: int | None, problem: str, hint: str = ""):
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {problem}", hint or "fix the file, then run `rootfaq index --rebuild`")
        self.file = file
        self.line = line


class IndexFailure(RootfaqError):
    """The search index cannot be built or read."""


class UsageError(RootfaqError):
    exit_code = EXIT_USAGE


class NotFound(RootfaqError):
    exit_code = EXIT_NOTHING_FOUND
