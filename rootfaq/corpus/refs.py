"""Section numbers: one canonical spelling, found in text and in what players type.

Canonical form: an optional upper-case prefix, the dotted number, then an optional lower-case roman
sub-item and letter, each after a dot: "4.3.2", "BP.2.5.iv", "9.2.9.iii.a", "G.1.22", "C".
Matching is always on the whole canonical string, so 9.2.1 never matches 9.2.10.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The Law of Root's appendix letters, and the prefix of The Outsiders' Slugface maps. The Outsiders factions'
# prefixes are curated data (corpus/factions.yaml): a `SectionNumbers` is made with them.
LAW_APPENDICES = ("A", "B", "C", "D", "E", "F", "G")
MAP_PREFIXES = ("S",)
_SECTION_WORDS = r"(?:section|sect|sec|rule|law|ref|§)"
# A whole chapter cited as "(5 - Setup)".
_CHAPTER_IN_TEXT = re.compile(r"\((?P<num>\d{1,2}) - [A-Z]")

_ROMAN = {"i": 1, "v": 5, "x": 10}


def roman_to_int(roman: str) -> int:
    """'iv' -> 4. Assumes a well-formed numeral."""
    values = [_ROMAN[c] for c in roman.lower()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def section_sort_key(ref: str) -> tuple:
    """Sort key for section numbers in reading order: 2.10 after 2.9, BP.2 before BP.10, sub-items by
    roman value (BP.2.5.v before BP.2.5.ix), unprefixed Law numbers before prefixed sections."""
    key = []
    for i, part in enumerate(ref.split(".")):
        if part.isdigit():
            key.append((1, int(part), ""))
        elif re.fullmatch(r"[ivx]+", part):
            key.append((2, roman_to_int(part), ""))
        else:  # a prefix (after every bare number) or a letter sub-item
            key.append((3 if i == 0 else 2, 0, part))
    return tuple(key)


def canonical(prefix: str | None, number: str, roman: str | None = None, letter: str | None = None) -> str:
    """Join the parts of a reference into its canonical spelling."""
    parts = [prefix.upper()] if prefix else []
    if number:
        parts.append(re.sub(r"\s+", "", number))
    if roman:
        parts.append(roman.lower())
    if letter:
        parts.append(letter.lower())
    return ".".join(parts)


def parent_ref(ref: str) -> str | None:
    """'BP.2.5.iv' -> 'BP.2.5'; 'BP.2' -> None; '4.3.2' -> '4.3'."""
    parts = ref.split(".")
    if len(parts) <= 1:
        return None
    if len(parts) == 2 and parts[0].isalpha():
        return None
    return ".".join(parts[:-1])


def base_ref(ref: str) -> str:
    """The numbered section a sub-item belongs to: 'BP.2.5.iv' -> 'BP.2.5', '9.2.9.iii.a' -> '9.2.9'."""
    parts = ref.split(".")
    while len(parts) > 1 and parts[-1].isalpha() and parts[-1].islower():
        parts.pop()
    return ".".join(parts)


def chapter_of(ref: str) -> int | None:
    """The Law chapter of a bare Law number ('6.2.3' -> 6); None for prefixed references."""
    head = ref.split(".")[0]
    return int(head) if head.isdigit() else None


TOP_LEVEL_REACH = 3  # "BP.9" is near BP.6; further apart, top-level numbers of a prefix are not near


def nearest(ref: str, existing: list[str], limit: int = 5) -> list[str]:
    """Existing section numbers near a missing one, in reading order; [] when nothing is near.

    Near means the same prefix and numbering: the missing number's own sections ("4" -> 4.1.1, 4.3.2), else
    its siblings and then cousins, closest number first (4.3.9 -> 4.3.4, 4.3.3, 4.3.2), never another
    chapter of the Law (99.9 has no neighbours) and sub-items only for a sub-item.
    """
    prefix, parts = _numbered(ref)
    known = [(s, *_numbered(s)) for s in dict.fromkeys(existing) if s != ref]
    known = [(s, p, n) for s, p, n in known if p == prefix and n]
    below = [(len(n), s) for s, _, n in known if s.startswith(ref + ".")]
    if below:
        shallowest = min(depth for depth, _ in below)
        return sorted([s for depth, s in below if depth == shallowest][:limit], key=_reading_order)
    if not parts:
        return []
    sub_item = base_ref(ref) != ref
    floor = 0 if prefix else 1  # a bare number's chapter is a different part of the Law
    for shared in range(len(parts) - 1, floor - 1, -1):
        scored = []
        for s, _, numbers in known:
            if numbers[:shared] != parts[:shared] or len(numbers) <= shared or (base_ref(s) != s) != sub_item:
                continue
            gap = abs(numbers[shared] - parts[shared])
            if shared == 0 and gap > TOP_LEVEL_REACH:
                continue
            scored.append((gap, abs(len(numbers) - len(parts)), _reading_order(s), s))
        if scored:
            level = min(depth for _, depth, _, _ in scored)  # as deep as the missing number, where there are any
            closest = sorted(item for item in scored if item[1] == level)[:limit]
            return sorted([s for *_, s in closest], key=_reading_order)
    return []


def _numbered(ref: str) -> tuple[str, list[int]]:
    """('BP', [2, 5, 4]) for 'BP.2.5.iv': the prefix and every part as a number (roman and letters too)."""
    pieces = ref.split(".")
    prefix = pieces.pop(0) if pieces and pieces[0].isalpha() and pieces[0].isupper() else ""
    numbers = []
    for piece in pieces:
        if piece.isdigit():
            numbers.append(int(piece))
        elif re.fullmatch(r"[ivx]+", piece):
            numbers.append(roman_to_int(piece))
        elif re.fullmatch(r"[a-z]", piece):
            numbers.append(ord(piece) - ord("a") + 1)
        else:
            break
    return prefix, numbers


def _reading_order(ref: str) -> tuple:
    prefix, numbers = _numbered(ref)
    return (prefix, numbers, ref)


class SectionNumbers:
    """Section numbers found in text and in what players type. They need the prefixes, and some of those
    are curated (the Outsiders factions' in corpus/factions.yaml): the parsers get one made from the YAML,
    search one made from the query model stored with the index (QueryModel.section_numbers)."""

    def __init__(self, faction_prefixes: Iterable[str]):
        # Numbers only The Outsiders prints: its factions' prefixes and its maps'. Every other number, bare
        # or with an appendix letter, is the Law of Root's (the Outsiders quotes some of them).
        self.outsiders_prefixes = (*dict.fromkeys(faction_prefixes), *MAP_PREFIXES)
        # Longest first, so "BP" is tried before "B" and "CC" before "C".
        self.prefixes = tuple(sorted({*self.outsiders_prefixes, *LAW_APPENDICES}, key=lambda p: (-len(p), p)))
        either = "|".join(self.prefixes)
        # A reference inside prose: prefixed ("BP.2.5iv", "(G.1.19 - Place.)") or bare and dotted ("(7.2.2)").
        self._in_text = re.compile(
            rf"(?<![A-Za-z0-9.])(?:(?P<prefix>{either})\.(?P<pnum>\d+(?:\.\d+)*)|(?P<bnum>\d{{1,2}}(?:\.\d+)+))"
            r"(?:\.?(?P<roman>[ivx]+)(?P<letter>[a-z])?)?(?![A-Za-z0-9])"
        )
        # What a player types as a whole query: "bp 2.5 iv", "§7.2.2", "section 8.2.6", "of2.10", "g1.31".
        self._query = re.compile(
            rf"^\s*(?:{_SECTION_WORDS}\s*\.?\s*)?"
            rf"(?:(?P<prefix>{either})\s*\.?\s*)?(?P<num>\d{{1,2}}(?:\s*\.\s*\d+)*)"
            r"(?:\s*\.?\s*(?P<roman>[ivx]+|[IVX]+)(?P<letter>[a-z])?\b)?(?:\s*\.\s*(?P<letter2>[a-z])\b)?\s*\.?\s*$",
            re.IGNORECASE,
        )
        # Inside a longer question: a prefix glued or dotted ("bp2.5", "bp.2.5") or spaced before a dotted number.
        self._in_query = re.compile(
            rf"(?<![A-Za-z0-9.])(?:(?P<prefix>{either})(?:\s*\.\s*|\s+(?=\d+\.\d)|(?=\d)))?"
            r"(?P<num>\d{1,2}(?:\.\d+)+|(?<=[A-Za-z.])\d{1,2}|(?<=[A-Za-z]\s)\d{1,2}(?=\.\d))"
            r"(?:\.?(?P<roman>[ivx]+)(?P<letter>[a-z])?)?(?![A-Za-z0-9])",
            re.IGNORECASE,
        )
        # A numbered heading line of the Outsiders rulebook: "BP.2.5 Bone Tokens. text", "6.2.3 Field Hospitals".
        self.heading_line = re.compile(
            rf"^(?P<num>(?:{either})\.\d+(?:\.\d+)*|\d+(?:\.\d+)+)\s+(?P<rest>\S.*)$"
        )

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, canonical reference) of each section number printed in a passage, in order, repeats
        included: where a page puts the link on the number it shows."""
        return [(m.start(), m.end(), canonical(m["prefix"], m["pnum"] or m["bnum"], m["roman"], m["letter"]))
                for m in self._in_text.finditer(text)]

    def in_text(self, text: str) -> list[str]:
        """Every section reference printed in a passage, canonical, in order, without repeats."""
        found: list[str] = []
        for _, _, ref in self.spans(text):
            if ref not in found:
                found.append(ref)
        for m in _CHAPTER_IN_TEXT.finditer(text):
            if m["num"] not in found:
                found.append(m["num"])
        return found

    def parse_query(self, query: str) -> str | None:
        """The canonical reference when the whole query is one ("bp 2.5 iv" -> "BP.2.5.iv"), else None.
        Hyphens, underscores and brackets separate like spaces ("bp-2.5-iv", "BP 2.5 (iv)")."""
        query = re.sub(r"[-_()\[\]]", " ", query)
        m = self._query.match(query)
        if not m:
            return None
        number = m["num"]
        if not m["prefix"] and "." not in number and not re.match(rf"^\s*{_SECTION_WORDS}", query, re.I):
            return None  # a bare "3" is a number, not a section
        return canonical(m["prefix"], number, m["roman"], m["letter"] or m["letter2"])

    def in_query(self, query: str) -> list[str]:
        """References inside a longer question ("does bp2.5 let me ...")."""
        found: list[str] = []
        for m in self._in_query.finditer(query):
            if not m["prefix"] and "." not in m["num"]:
                continue
            ref = canonical(m["prefix"], m["num"], m["roman"], m["letter"])
            if ref not in found:
                found.append(ref)
        return found

    def printing_of(self, ref: str) -> str:
        """The rulebook a section number belongs to: "The Outsiders" or "the Law of Root"."""
        return "The Outsiders" if ref.split(".")[0] in self.outsiders_prefixes else "the Law of Root"
