"""`rootfaq ask --json ...` read without typer: typer 0.29 imports pydantic (about 100 ms) to coerce any
option value, which would more than double the cold start of the call scripts and bots make most.

`parse_fast` takes only command lines it understands completely and leaves everything else (--help,
--debug, an unknown option, a --limit out of range) to the typer app, which then says what is wrong in its
own words. tests/test_cli.py checks that both paths print the same thing and exit with the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .shell import LIMIT_DEFAULT, read_limit


@dataclass
class FastAsk:
    words: list[str] = field(default_factory=list)
    factions: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    official: bool = False
    limit: int = LIMIT_DEFAULT
    json: bool = False


_VALUED = {"--faction": "factions", "-f": "factions", "--source": "sources", "-s": "sources",
           "--limit": "limit", "-n": "limit"}


def parse_fast(argv: list[str]) -> FastAsk | None:
    """`ask --json ...` as the typer command would read it, or None for anything else or anything unsure.
    --no-pager may stand anywhere (JSON is never paged); --debug, -V and --version go to typer."""
    while argv and argv[0] == "--no-pager":
        argv = argv[1:]
    if not argv or argv[0] != "ask":
        return None
    parsed = FastAsk()
    args = iter(argv[1:])
    only_words = False
    for arg in args:
        if only_words or arg == "-" or not arg.startswith("-"):
            parsed.words.append(arg)
        elif arg == "--":
            only_words = True
        elif arg == "--json":
            parsed.json = True
        elif arg == "--official":
            parsed.official = True
        elif arg == "--no-pager":
            continue
        else:
            name, eq, value = arg.partition("=")
            if name not in _VALUED or (eq and not name.startswith("--")):
                return None  # help, debug, bundled short options, typos: typer says what is wrong
            if not eq:
                value = next(args, None)
                if value is None:
                    return None
            target = _VALUED[name]
            if target == "limit":
                try:
                    parsed.limit = read_limit(value)
                except UsageError:
                    return None  # typer's path says what is wrong, in the same words
            else:
                getattr(parsed, target).append(value)
    return parsed if parsed.json else None
