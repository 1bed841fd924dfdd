"""Faction names as typed after --faction and :faction: exactly, a clear misspelling, or a usage error.

Accepted, case-insensitively: a faction's key, its printed name, a name the rules use for it, or a listed
nickname (corpus/factions.yaml). A misspelling is taken only when it is one or two edits from the words of
exactly one faction, and the reading says what it was taken as. A nickname two factions share ("frogs",
"bats") names neither; a list in one value ("cats,birds") and an empty value are mistakes too. Every
mistake is a UsageError whose hint lists the valid keys.

Pure Python over the query model stored in the index (no rapidfuzz): `ask --json` resolves --faction
without loading the search layer's heavier imports.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import OSA

from ..errors import UsageError
from .query_model import FactionInfo


@dataclass(frozen=True)
class FactionReading:
    """What one typed name was taken as."""

    typed: str
    key: str
    name: str
    exact: bool

    @property
    def note(self) -> str | None:
        """The line that says what a misspelling was taken as (None for an exact name)."""
        return None if self.exact else f"read faction '{self.typed}' as {self.name}"


def accepted_words(factions: dict[str, FactionInfo]) -> dict[str, list[str]]:
    """Every word or phrase accepted for a faction (lower case) -> the keys it names."""
    table: dict[str, list[str]] = {}
    for key, info in factions.items():
        for word in [key, info.name, *info.names, *info.nicknames]:
            listed = table.setdefault(_normal(word), [])
            if key not in listed:
                listed.append(key)
    return table


def read_faction(factions: dict[str, FactionInfo], typed: str) -> FactionReading:
    """The faction a typed name means; UsageError when it means none, or more than one."""
    wanted = _normal(typed)
    hint = valid_names_hint(factions)
    if not wanted:
        raise UsageError("empty faction name", hint)
    if "," in wanted or ";" in wanted:
        parts = [p.strip() for p in typed.replace(";", ",").split(",") if p.strip()]
        example = " ".join(f'--faction "{p}"' if " " in p else f"--faction {p}" for p in parts) or "--faction cats"
        raise UsageError(f"'{typed}' is a list; name one faction per --faction", f"for several: {example}; {hint}")
    table = accepted_words(factions)
    keys = table.get(wanted)
    exact = keys is not None
    if keys is None:
        keys = _misspelt(wanted, table)
    if not keys:
        close = suggestions(factions, wanted)
        guess = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise UsageError(f"unknown faction '{typed}'{guess}", hint)
    if len(keys) > 1:
        names = " or ".join(f"{factions[k].name} ({k})" for k in keys)
        raise UsageError(f"'{typed}' could be {names}: name one", hint)
    key = keys[0]
    return FactionReading(typed, key, factions[key].name, exact)


def read_factions(factions: dict[str, FactionInfo], typed: list[str]) -> list[FactionReading]:
    """Each typed name read (see read_faction), without repeating a faction."""
    readings: list[FactionReading] = []
    for name in typed:
        reading = read_faction(factions, name)
        if reading.key not in {r.key for r in readings}:
            readings.append(reading)
    return readings


def valid_names_hint(factions: dict[str, FactionInfo]) -> str:
    """The hint of every faction mistake: the keys, the bots apart, and where the other names are."""
    plain = [k for k, info in factions.items() if not info.is_bot]
    bots = [k for k, info in factions.items() if info.is_bot]
    hint = "factions: " + ", ".join(plain)
    if bots:
        hint += "; bots: " + ", ".join(bots)
    return hint + " (names and nicknames such as cats, birds, WA work too)"


def suggestions(factions: dict[str, FactionInfo], wanted: str, limit: int = 2) -> list[str]:
    """Printed names of factions a mistaken name may have meant: a name it begins, or one two edits away."""
    scored: dict[str, int] = {}
    for word, keys in accepted_words(factions).items():
        if len(wanted) >= 4 and word.startswith(wanted):
            distance = 0
        elif abs(len(word) - len(wanted)) > 2:  # never two edits away: skip the O(n*m) distance (long input)
            continue
        else:
            distance = osa_distance(wanted, word)
        if distance <= 2:
            for key in keys:
                scored[key] = min(scored.get(key, distance), distance)
    ranked = sorted(scored, key=lambda k: (scored[k], k))[:limit]
    return [factions[k].name for k in ranked]


def _misspelt(wanted: str, table: dict[str, list[str]]) -> list[str]:
    """The factions a misspelling is closest to, when it is close enough (one edit, two for long names)."""
    if len(wanted) < 4:
        return []
    allowed = 1 if len(wanted) < 8 else 2
    best: dict[str, int] = {}
    for word, keys in table.items():
        if abs(len(word) - len(wanted)) > allowed:
            continue
        distance = osa_distance(wanted, word)
        if distance <= allowed:
            for key in keys:
                best[key] = min(best.get(key, distance), distance)
    if not best:
        return []
    nearest = min(best.values())
    return [k for k, d in best.items() if d == nearest]


def osa_distance(a: str, b: str) -> int:
    """Edits (insert, delete, substitute, swap two neighbours) from a to b: "eyire" is one from "eyrie"."""
    return OSA.distance(a, b)


def _normal(text: str) -> str:
    """Lower case, single spaces, and no leading article: "the cats" is "cats", "The Eyrie" "eyrie"."""
    words = text.lower().split()
    if len(words) > 1 and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words)
