"""Finding a record from an id as players type it ("faq108", "108", "law-1", "BP.2.5"), with suggestions."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..corpus.library import Library
from ..corpus.records import Record
from ..errors import NotFound, UsageError
from ..search.answers import nearest_refs
from .section import parse_section

if TYPE_CHECKING:  # a view reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex

_FAQ_NUMBER = re.compile(r"^(?:faq)?[\s#:-]*(\d{1,3})$", re.I)
_LAW_NUMBER = re.compile(r"^law[\s#:-]*(\d{1,2})$", re.I)
# Any number of digits, for suggestions: "faq-0108" is no id, but it is next to faq-108.
_NUMBERED_ID = re.compile(r"^(?P<kind>faq|law)?[\s#:-]*(?P<number>\d+)$", re.I)
ID_NEAR = 2  # an id this close in number to what was typed is worth suggesting


def resolve_id(index: OpenIndex, text: str) -> Record:
    """A record from its id, loosely typed ("faq-108", "faq108", "108", "law-1", "rule-BP.2.5", "BP.2.5")."""
    raw = text.strip()
    if not raw:
        raise UsageError("no record id given", "ids look like faq-108, law-01, rule-BP.2.5")
    records = index.library.records
    if raw in records:
        return records[raw]
    lowered = {k.lower(): k for k in records}
    if raw.lower() in lowered:
        return records[lowered[raw.lower()]]
    m = _FAQ_NUMBER.match(raw)
    if m:
        key = f"faq-{int(m[1]):03d}"
        if key in records:
            return records[key]
    m = _LAW_NUMBER.match(raw)
    if m:
        key = f"law-{int(m[1]):02d}"
        if key in records:
            return records[key]
    try:
        ref = parse_section(index, raw)
    except UsageError:
        ref = None
    if ref:
        held = index.library.tables.holders(ref)
        if held:
            return held[0]
    raise NotFound(f"no record '{text}'", _id_hint(index, raw, ref))


def _id_hint(index: OpenIndex, raw: str, ref: str | None) -> str:
    """Ids near a mistyped one: the same kind with the closest numbers, or the nearest sections."""
    library = index.library
    m = _NUMBERED_ID.match(raw)
    if m:
        kind = (m["kind"] or "faq").lower()
        close = nearest_numbered_ids(library, kind, int(m["number"]))
        if close:
            return "did you mean: " + ", ".join(close)
        ids = sorted(k for k in library.records if k.startswith(f"{kind}-"))
        name = "FAQ" if kind == "faq" else "Law"
        return f"{name} ids run from {ids[0]} to {ids[-1]}" if ids else "ids look like faq-108, law-01, rule-BP.2.5"
    if ref:
        close = [library.tables.holders(s)[0].id for s in nearest_refs(index, ref, limit=3)]
        if close:
            return "did you mean: " + ", ".join(close)
        return f"no section near {ref} in these sources"
    close = nearest_ids(library, raw)
    return ("did you mean: " + ", ".join(close)) if close else "ids look like faq-108, law-01, rule-BP.2.5"


def nearest_numbered_ids(library: Library, kind: str, number: int, limit: int = 3) -> list[str]:
    """faq-/law- ids whose number is within ID_NEAR of `number`, the closest first."""
    found = []
    for key in library.records:
        head, _, digits = key.partition("-")
        if head == kind and digits.isdigit() and abs(int(digits) - number) <= ID_NEAR:
            found.append((abs(int(digits) - number), int(digits), key))
    return [key for *_, key in sorted(found)[:limit]]


def nearest_ids(library: Library, text: str, limit: int = 5) -> list[str]:
    """Ids sharing the longest beginning with what was typed ("faq-108x", "rule-part-bone")."""
    wanted = text.strip().lower()
    scored = []
    for key in library.records:
        k = key.lower()
        common = 0
        while common < min(len(k), len(wanted)) and k[common] == wanted[common]:
            common += 1
        if common >= 3:
            scored.append((-common, abs(len(k) - len(wanted)), key))
    return [key for *_, key in sorted(scored)[:limit]]
