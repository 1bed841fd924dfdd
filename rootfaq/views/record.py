"""`rootfaq show`: one record in full, with its place in the rules and everything related to it.

A ruling: the text of each section it cites, the sections those refer to, other rulings citing them. A rule:
its sub-items, the sections it refers to, the rulings citing it, the rule text that refers to it, other
records printed under the same number. Then a few records on the same topic (rootfaq/search/related.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..corpus.library import Library
from ..corpus.records import (
    FLAG_QUOTES_LAW,
    FLAG_RECONSTRUCTED_QUESTION,
    Record,
    number_basis,
    section_label,
)
from ..search.related import related_records
from .common import SOURCE_LABELS, HitLine, Provenance, RefLine, heading, hit_line, missing_where, provenance

RELATED_TEXT_CHARS = 500  # a cited section's text in `ask`; `show` and `section` print it whole
NEARBY = 3  # "On the same topic" lines under a record: a few, never a list

if TYPE_CHECKING:  # a view reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex


@dataclass
class RuleText:
    """The text of a section that a ruling cites, where the corpus holds it."""

    ref: str
    label: str
    id: str | None
    where: str
    text: str | None
    cut: bool = False
    sub_items: list[RefLine] = field(default_factory=list)
    also_ids: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "ref": self.ref, "label": self.label, "id": self.id, "where": self.where, "text": self.text,
            "cut": self.cut, "sub_items": [s.to_json() for s in self.sub_items], "also_ids": self.also_ids,
        }


@dataclass
class SubItem:
    depth: int
    id: str
    label: str
    text: str

    def to_json(self) -> dict:
        return {"depth": self.depth, "id": self.id, "label": self.label, "text": self.text}


@dataclass
class Related:
    """What else bears on a record: the rules it rests on and what refers to the same sections."""

    rules: list[RuleText] = field(default_factory=list)  # sections a ruling cites, with their text
    cross_refs: list[RefLine] = field(default_factory=list)  # sections those (or this rule) refer to
    citing: list[HitLine] = field(default_factory=list)  # other rulings citing the same sections
    backlinks: list[RefLine] = field(default_factory=list)  # rule text that refers to this section
    same_number: list[str] = field(default_factory=list)  # other records printed under the same number
    fan_notes: list[HitLine] = field(default_factory=list)  # what The Outsiders adds to the Law text it quotes
    nearby: list[HitLine] = field(default_factory=list)  # rules and rulings on the same topic

    def __bool__(self) -> bool:
        return bool(self.rules or self.cross_refs or self.citing or self.backlinks or self.same_number
                    or self.fan_notes or self.nearby)

    def shown_ids(self) -> set[str]:
        """Every record this block names, so nothing else on the screen names it again."""
        lines = [*self.rules, *self.cross_refs, *self.citing, *self.backlinks, *self.fan_notes, *self.nearby]
        return {line.id for line in lines if line.id} | set(self.same_number)

    def to_json(self) -> dict:
        return {
            "rules": [r.to_json() for r in self.rules],
            "cross_refs": [r.to_json() for r in self.cross_refs],
            "citing": [c.to_json() for c in self.citing],
            "backlinks": [b.to_json() for b in self.backlinks],
            "same_number": self.same_number,
            "fan_notes": [n.to_json() for n in self.fan_notes],
            "nearby": [n.to_json() for n in self.nearby],
        }


@dataclass
class RecordView:
    """One record in full: heading, text, provenance, its place in the rules and what relates to it."""

    record: Record
    heading: str
    reconstructed: bool
    provenance: Provenance
    path: list[str] = field(default_factory=list)
    sub_items: list[SubItem] = field(default_factory=list)
    related: Related = field(default_factory=Related)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def text(self) -> str:
        return self.record.text

    @property
    def missing(self) -> bool:
        return not self.record.is_answer

    def to_json(self) -> dict:
        from .contract import record_json

        return {
            "record": record_json(self.record),
            "heading": self.heading,
            "provenance": self.provenance.to_json(),
            "path": self.path,
            "sub_items": [s.to_json() for s in self.sub_items],
            "related": self.related.to_json(),
        }


def _cut(text: str, limit: int) -> tuple[str, bool]:
    if limit <= 0 or len(text) <= limit:
        return text, False
    return text[:limit].rsplit(" ", 1)[0] + " …", True


def ref_line(library: Library, ref: str) -> RefLine:
    """A section number with its title and the record holding it (None when the corpus does not)."""
    held = library.tables.holders(ref)
    if held:
        return RefLine(ref, section_label(held[0]), held[0].id)
    return RefLine(ref, ref, None, missing_where(library, ref))


def path_of(library: Library, record: Record) -> list[str]:
    """Where a rule sits: source, part, the faction of a prefixed section, then its parent sections."""
    if record.source == "faq":
        return []
    if record.source == "law":
        return [library.info.law_title or "Law of Root"]
    chain = []
    parent = record.parent
    while parent and parent in library.records and len(chain) < 10:
        chain.append(library.records[parent])
        parent = library.records[parent].parent
    chain.reverse()
    path = [SOURCE_LABELS["outsiders"]]
    for ancestor in chain:
        path.append(section_label(ancestor) if ancestor.section else (ancestor.title or ancestor.id))
    faction = _prefix_faction(library, record.section)
    if faction and faction not in " ".join(path):
        path.insert(min(2, len(path)), faction)
    return path


def _prefix_faction(library: Library, section: str | None) -> str | None:
    if not section:
        return None
    prefix = section.split(".")[0]
    for info in library.query_model.factions.values():
        if info.prefix == prefix:
            return info.name
    return None


def sub_items(library: Library, record: Record) -> list[SubItem]:
    """A rule's sub-items, depth first, in printed order."""
    items: list[SubItem] = []

    def walk(rec: Record, depth: int) -> None:
        for child_id in rec.children:
            child = library.records.get(child_id)
            if child is None or depth > 6:
                continue
            items.append(SubItem(depth, child.id, heading(child), child.text))
            walk(child, depth + 1)

    walk(record, 0)
    return items


def rule_text(library: Library, ref: str, limit: int, exclude: str | None = None) -> RuleText:
    """The text of a cited section, from the first record holding it; the others are named."""
    held = [r for r in library.tables.holders(ref) if r.id != exclude]
    if not held:
        return RuleText(ref, ref, None, missing_where(library, ref), None)
    first = held[0]
    text, cut = _cut(first.text, limit)
    where = SOURCE_LABELS.get(first.source, first.source)
    if FLAG_QUOTES_LAW in first.flags:
        where = "Law of Root text, quoted in The Outsiders' Golden Reminders"
    elif first.source == "law" and first.section_basis:
        where = f"{where}, {number_basis(first)}"
    subs = [RefLine(c.section or c.id, heading(c), c.id)
            for c in (library.records.get(i) for i in first.children) if c is not None]
    return RuleText(ref, section_label(first), first.id, where, text, cut, subs, [r.id for r in held[1:]])


def related(index: OpenIndex, record: Record, text_limit: int = RELATED_TEXT_CHARS, nearby: int = NEARBY,
            elsewhere: set[str] | frozenset[str] = frozenset()) -> Related:
    """Related rules for any record, then up to `nearby` records on the same topic that are not already
    named, here or `elsewhere` on the screen.

    A ruling: the text of each section it cites, the sections those refer to, other rulings citing them.
    A rule: the sections it refers to, the rulings citing it, the rule text that refers to it, and
    other records printed under the same number.
    """
    rel = linked_records(index.library, record, text_limit)
    if nearby > 0:
        shown = rel.shown_ids() | set(elsewhere) | {record.id, *(item.id for item in sub_items(index.library, record))}
        rel.nearby = [hit_line(r) for r in related_records(index, record, nearby, exclude=shown)]
    return rel


def linked_records(library: Library, record: Record, text_limit: int) -> Related:
    """What the corpus links to a record: cited sections, cross-references, citing rulings, backlinks."""
    rel = Related()
    if record.source == "faq":
        cited = list(dict.fromkeys(record.xrefs))
        rel.rules = [rule_text(library, ref, text_limit) for ref in cited]
        for rule in rel.rules:
            if rule.id is None and rule.ref == record.section and record.section_title:
                rule.label = section_label(record)  # the title the FAQ's citation gives
        onward: list[str] = []
        for rule in rel.rules:
            if rule.id:
                onward.extend(library.records[rule.id].xrefs)
        rel.cross_refs = [ref_line(library, r) for r in dict.fromkeys(onward) if r not in cited]
        rel.citing = [hit_line(r) for r in library.tables.citing(cited, exclude=record.id)]
        return rel
    subs = [library.records[item.id] for item in sub_items(library, record)]
    refs_here = [r.section for r in [record, *subs] if r.section]
    onward = [x for r in [record, *subs] for x in r.xrefs]
    rel.cross_refs = [ref_line(library, r) for r in dict.fromkeys(onward) if r not in refs_here]
    if record.section:
        family = {record.id} | {r.id for r in subs}
        rel.citing = [hit_line(r) for r in library.tables.citing(refs_here)]
        rel.backlinks = [
            RefLine(r.section or r.id, heading(r), r.id)
            for r in unique_records(b for ref in refs_here for b in library.tables.referring(ref))
            if r.id not in family
        ]
        rel.same_number = [r.id for r in library.tables.holders(record.section) if r.id != record.id]
    rel.fan_notes = [hit_line(library.records[i]) for i in library.tables.fan_notes(record.id)]
    return rel


def unique_records(records) -> list[Record]:
    seen: dict[str, Record] = {}
    for r in records:
        seen.setdefault(r.id, r)
    return list(seen.values())


def record_view(index: OpenIndex, record: Record, text_limit: int = 0, nearby: int = NEARBY,
                elsewhere: set[str] | frozenset[str] = frozenset()) -> RecordView:
    """A record in full. `text_limit` caps the text of cited sections (0: no cap); `nearby` is how many
    records on the same topic follow its related rules (none of the ids `elsewhere` on the screen)."""
    return RecordView(
        record=record,
        heading=heading(record),
        reconstructed=FLAG_RECONSTRUCTED_QUESTION in record.flags,
        provenance=provenance(index.library, record),
        path=path_of(index.library, record),
        sub_items=sub_items(index.library, record),
        related=related(index, record, text_limit, nearby, elsewhere),
    )
