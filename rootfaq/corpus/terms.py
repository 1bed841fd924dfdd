"""Find known terms (one or more words) in text by looking up word n-grams: fast and exact."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")


def words(text: str) -> list[str]:
    """Lower-case words; apostrophes and inner dots stay ("r.s.i", "cat's")."""
    return _WORD.findall(text.lower())


class TermMatcher:
    """Maps multi-word terms to keys; `find` returns the keys in order of first appearance."""

    def __init__(self, entries: dict[str, list[str]] | None = None):
        self.table: dict[tuple[str, ...], list[str]] = {}
        # first word -> the most words a term opening with it has: most words open none, and are skipped
        self.longest_from: dict[str, int] = {}
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

    def spans(self, tokens: list[str]) -> list[tuple[int, int, list[str]]]:
        """(start, end, keys) of every longest match, left to right, without overlaps."""
        found = []
        i = 0
        while i < len(tokens):
            # a one-word possessive is looked up without its "'s" below, whatever its first word
            most = max(self.longest_from.get(tokens[i], 0), tokens[i].endswith("'s"))
            for size in range(min(most, len(tokens) - i), 0, -1):
                gram = tuple(tokens[i : i + size])
                keys = self.table.get(gram)
                if not keys and gram[-1].endswith("'s"):  # "the Mechanical Marquise's Expand"
                    keys = self.table.get((*gram[:-1], gram[-1][:-2]))
                if keys:
                    found.append((i, i + size, keys))
                    i += size
                    break
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
