"""Lookups over the records, built once per index instead of a scan of every record per question:
what is printed under a section number, the rulings citing it, the rule text referring to it, and the
Outsiders' notes on a record.

    tables = record_tables(records)
    tables.holders("6.2.3")          # the records holding 6.2.3's text, Law excerpts first
    tables.citing(["6.2.3"])         # FAQ rulings citing it, in FAQ order
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .records import FLAG_FAN_NOTE, Record


@dataclass
class RecordTables:
    under_number: dict[str, list[Record]] = field(default_factory=dict)  # every non-FAQ record, by section
    citing_by_ref: dict[str, list[Record]] = field(default_factory=dict)  # FAQ answers, by section they cite
    referring_by_ref: dict[str, list[Record]] = field(default_factory=dict)  # rule text, by section it cites
    notes_by_record: dict[str, list[str]] = field(default_factory=dict)  # fan-note ids, by record annotated
    position: dict[str, int] = field(default_factory=dict)  # corpus order

    def holders(self, ref: str) -> list[Record]:
        """Records that hold a section's text, Law excerpts first, in corpus order (a fan note printed
        under the number annotates the section: it holds none of its text)."""
        found = [r for r in self.under_number.get(ref, []) if FLAG_FAN_NOTE not in r.flags]
        return sorted(found, key=lambda r: r.source != "law")

    def printed_under(self, ref: str) -> list[Record]:
        """Every answer printed under this number (notes included), in corpus order."""
        return [r for r in self.under_number.get(ref, []) if r.is_answer]

    def citing(self, refs: Iterable[str], exclude: str | None = None) -> list[Record]:
        """FAQ rulings that cite any of these sections, in FAQ order."""
        found = {r.id: r for ref in refs for r in self.citing_by_ref.get(ref, []) if r.id != exclude}
        return sorted(found.values(), key=lambda r: self.position[r.id])

    def referring(self, ref: str) -> list[Record]:
        """Rule text (not FAQ rulings) that refers to this section, from outside it."""
        return list(self.referring_by_ref.get(ref, []))

    def fan_notes(self, record_id: str) -> list[str]:
        return list(self.notes_by_record.get(record_id, []))

    def sections(self) -> list[str]:
        """Every section number a rule or Law paragraph is printed under, sorted."""
        return sorted(self.under_number)


def record_tables(records: Iterable[Record]) -> RecordTables:
    tables = RecordTables()
    for number, record in enumerate(records):
        tables.position[record.id] = number
        if record.source == "faq":
            if record.is_answer:
                for ref in dict.fromkeys(record.xrefs):
                    tables.citing_by_ref.setdefault(ref, []).append(record)
            continue
        if record.section:
            tables.under_number.setdefault(record.section, []).append(record)
        for ref in dict.fromkeys(record.xrefs):
            if ref != record.section:
                tables.referring_by_ref.setdefault(ref, []).append(record)
        if FLAG_FAN_NOTE in record.flags and record.parent:
            tables.notes_by_record.setdefault(record.parent, []).append(record.id)
    return tables
