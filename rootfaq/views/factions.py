"""Faction names as the command line and the chat read them: completions, follow-ups, --faction values."""

from __future__ import annotations

from ..corpus.factions import FactionReading
from ..corpus.factions import read_factions as read
from ..corpus.library import Library
from ..corpus.query_model import NOT_A_FACTION


def faction_words(library: Library) -> dict[str, str]:
    """Every name and nickname (lower case) that means exactly one faction first: name -> key."""
    table = {}
    for name, keys in library.query_model.faction_names.items():
        keys = [k for k in keys if k and k != NOT_A_FACTION]
        if keys:
            table[name] = keys[0]
    return table


def faction_completions(library: Library, incomplete: str = "") -> list[tuple[str, str]]:
    """(word, faction name) pairs for shell completion: keys and one-word nicknames."""
    names = {k: info.name for k, info in library.query_model.factions.items()}
    words = {**{k: k for k in names}, **{w: k for w, k in faction_words(library).items() if " " not in w}}
    start = incomplete.lower()
    return sorted((w, names.get(k, k)) for w, k in words.items() if w.startswith(start))


def read_factions(library: Library, names: list[str]) -> list[FactionReading]:
    """What each typed faction name was taken as; UsageError for a mistake (rootfaq/corpus/factions.py)."""
    return read(library.query_model.factions, names)


def resolve_faction(library: Library, name: str) -> str:
    """A faction key from a name or nickname ("cats", "Eyrie", "vaga"); UsageError when it names none."""
    return read_factions(library, [name])[0].key


def resolve_factions(library: Library, names: list[str]) -> list[str]:
    """Faction keys for names or nicknames, without repeats; UsageError for one that is no faction."""
    return [reading.key for reading in read_factions(library, names)]
