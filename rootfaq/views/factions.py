"""Faction names as the command line and the chat read them: completions, follow-ups, --faction values."""

from __future__ import annotations


def faction_words(index) -> dict[str, str]:
    """Every name and nickname (lower case) that means exactly one faction first: name -> key."""
    table = {}
    for name, keys in index.query_model.get("faction_names", {}).items():
        keys = [k for k in keys if k and k != "-"]
        if keys:
            table[name] = keys[0]
    return table


def faction_completions(index, incomplete: str = "") -> list[tuple[str, str]]:
    """(word, faction name) pairs for shell completion: keys and one-word nicknames."""
    names = {k: v["name"] for k, v in index.query_model.get("factions", {}).items()}
    words = {**{k: k for k in names}, **{w: k for w, k in faction_words(index).items() if " " not in w}}
    start = incomplete.lower()
    return sorted((w, names.get(k, k)) for w, k in words.items() if w.startswith(start))


def read_factions(index, names: list[str]):
    """What each typed faction name was taken as (factions.FactionReading); UsageError for a mistake."""
    from ..corpus.factions import read_factions as read

    return read(index.query_model.get("factions", {}), names)


def resolve_factions(index, names: list[str]) -> list[str]:
    """Faction keys for names or nicknames, without repeats; UsageError for one that is no faction."""
    return [reading.key for reading in read_factions(index, names)]
