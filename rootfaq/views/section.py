"""`rootfaq section REF`: every record printed under a number, the rulings citing it, the rules referring to it."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..search.answers import named_section, nearest_refs
from .common import HitLine, RefLine, heading, hit_line
from .record import RecordView, Related, record_view, unique_records

if TYPE_CHECKING:  # a view reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex


@dataclass
class SectionView:
    """`rootfaq section REF`: every record printed under the number, the rulings citing it, backlinks."""

    ref: str
    holders: list[RecordView]
    citing: list[HitLine]
    backlinks: list[RefLine]
    nearest: list[str] = field(default_factory=list)
    cited_title: str | None = None  # the title FAQ citations give a section the corpus does not hold

    @property
    def found(self) -> bool:
        return bool(self.holders or self.citing)

    def to_json(self) -> dict:
        return {
            "ref": self.ref,
            "found": self.found,
            "holders": [h.to_json() for h in self.holders],
            "citing": [c.to_json() for c in self.citing],
            "backlinks": [b.to_json() for b in self.backlinks],
            "nearest": self.nearest,
            "cited_title": self.cited_title,
        }


SECTION_EXAMPLES = '4.3.2, "bp 2.5 iv", BP.2.5iv, "section 8.2.6", §7.2.2, G.1.22'


def parse_section(index: OpenIndex, text: str) -> str:
    """A section number in any form the search understands, canonical; UsageError when there is none."""
    raw = text.strip()
    if raw.lower().startswith("rule-"):
        raw = raw[5:]
    numbers = index.library.query_model.section_numbers()
    ref = numbers.parse_query(raw)
    if ref is None and re.fullmatch(r"[A-Za-z]{1,3}", raw) and raw.upper() in numbers.prefixes:
        ref = raw.upper()
    if ref is None:
        found = numbers.in_query(raw)
        if len(found) == 1:
            ref = found[0]
    if ref is None:
        ref = named_section(index, raw)  # a section's printed title: "lords of the forest" is 7.2.2
    if ref is None:
        raise UsageError(f"'{text}' is neither a section number nor a section's title",
                         f"try one of: {SECTION_EXAMPLES}; to search by words: rootfaq ask {shell_quoted(text)}")
    return ref


def shell_quoted(text: str) -> str:
    return shlex.quote(" ".join(text.split()))


def section_view(index: OpenIndex, text: str) -> SectionView:
    """A section with its sub-items and path, the rulings citing it and the rules referring to it; the
    nearest existing numbers when nothing holds or cites it."""
    library = index.library
    ref = parse_section(index, text)
    held = library.tables.holders(ref)
    shown: list[RecordView] = []
    for record in held:
        view = record_view(index, record, nearby=0)  # the section screen lists who cites it instead
        # Citing rulings and backlinks are listed once for the whole section, below its records.
        view.related = Related(cross_refs=view.related.cross_refs,
                               same_number=[i for i in view.related.same_number if i not in {r.id for r in held}])
        twin = next((s for s in shown if s.text == record.text), None)
        if twin is not None and not record.children:
            twin.related.same_number.append(record.id)  # the same words printed twice: say so once
            continue
        shown.append(view)
    sub_ids = [s.id for v in shown for s in v.sub_items]  # in printed order: the backlinks keep it
    family = list(dict.fromkeys([ref] + [library.records[i].section for i in sub_ids if library.records[i].section]))
    citing = [hit_line(r) for r in library.tables.citing(family)]
    backlinks = [
        RefLine(r.section or r.id, heading(r), r.id)
        for r in unique_records(b for f in family for b in library.tables.referring(f))
        if r.id not in sub_ids
    ]
    view = SectionView(ref, shown, citing, backlinks)
    if not shown:
        view.cited_title = next((r.section_title for r in library.records.values()
                                 if r.source == "faq" and r.section == ref and r.section_title), None)
    if not view.found:
        view.nearest = nearest_refs(index, ref)
    return view
