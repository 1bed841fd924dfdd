"""Find known terms (one or more words) in text by looking up word n-grams: fast and exact."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")


def words(text: str) -> list[str]:
    """Lower-case words; apostrophes and inner dots stay ("r.s.i", "cat's")."""
    return _WORD.findall(text.lower())


class TermMatcher:
    """Maps multi-word terms to keys; `find` returns the keys in order of first appearance. A match whose keys
    are all `yielding` (a phrase that only says what a word is not, "the order of") gives way to a longer
    term that starts inside it and ends past it ("the order of the forest": the Order of the Forest)."""

    def __init__(self, entries: dict[str, list[str]] | None = None, yielding: frozenset[str] = frozenset()):
        self.table: dict[tuple[str, ...], list[str]] = {}
        # first word -> the most words a term opening with it has: most words open none, and are skipped
        self.longest_from: dict[str, int] = {}
        self.yielding = yielding
        for term, keys in (entries or {}).items():
            for key in keys:
                self.add(term, key)

    def add(self, term: str, key: str) -> None:
        gram = tuple(words(term))
        if not gram:
            return
        keys = self.table.setdefault(gram, [])
        if key not in keys:
            keys.append(key)
        self.longest_from[gram[0]] = max(self.longest_from.get(gram[0], 0), len(gram))

    def _longest_at(self, tokens: list[str], i: int) -> tuple[int, list[str]]:
        """(words, keys) of the longest term starting at tokens[i]; (0, []) when none does."""
        # a one-word possessive is looked up without its "'s" below, whatever its first word
        most = max(self.longest_from.get(tokens[i], 0), tokens[i].endswith("'s"))
        for size in range(min(most, len(tokens) - i), 0, -1):
            gram = tuple(tokens[i : i + size])
            keys = self.table.get(gram)
            if not keys and gram[-1].endswith("'s"):  # "the Mechanical Marquise's Expand"
                keys = self.table.get((*gram[:-1], gram[-1][:-2]))
            if keys:
                return size, keys
        return 0, []

    def _gives_way(self, tokens: list[str], start: int, end: int, keys: list[str]) -> bool:
        if not self.yielding or not set(keys) <= self.yielding:
            return False
        for j in range(start + 1, end):
            size, inner = self._longest_at(tokens, j)
            if j + size > end and not set(inner) <= self.yielding:
                return True
        return False

    def spans(self, tokens: list[str]) -> list[tuple[int, int, list[str]]]:
        """(start, end, keys) of every longest match, left to right, without overlaps."""
        found = []
        i = 0
        while i < len(tokens):
            size, keys = self._longest_at(tokens, i)
            if size and not self._gives_way(tokens, i, i + size, keys):
                found.append((i, i + size, keys))
                i += size
            else:
                i += 1
        return found

    def find(self, text: str) -> list[str]:
        result: list[str] = []
        for _, _, keys in self.spans(words(text)):
            for key in keys:
                if key not in result:
                    result.append(key)
        return result
