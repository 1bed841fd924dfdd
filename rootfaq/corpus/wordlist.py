"""English words, so typo fixing leaves real words alone ("blow" is not "below", "working" not "wording").

The list is pyspellchecker's English frequency dictionary, read as data (a gzipped JSON object of word ->
count) without importing the spell checker itself. It is read once, when the index is built, and stored
with the index as plain text; a question loads it only when one of its words looks like a typo.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources

# Words seen fewer times than this in pyspellchecker's corpus are mostly names and oddities ("aalst").
MIN_COUNT = 100


def english_words() -> list[str]:
    """Lower-case alphabetic English words, sorted; empty when pyspellchecker's list is unavailable."""
    try:
        data = resources.files("spellchecker").joinpath("resources/en.json.gz").read_bytes()
        counts = json.loads(gzip.decompress(data))
    except (ModuleNotFoundError, OSError, ValueError):
        return []
    return sorted(w for w, n in counts.items() if isinstance(n, int) and n >= MIN_COUNT and w.isalpha())
