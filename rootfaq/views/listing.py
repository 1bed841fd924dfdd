"""`rootfaq list`: a faction's or a topic's rulings and sections; without a filter, the factions and topics."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..corpus import refs
from ..corpus.library import Library
from ..corpus.query_model import FACTION_GROUPS
from ..corpus.records import Record, RecordFilter
from ..errors import UsageError
from .common import HitLine, faction_display, hit_line


@dataclass
class FactionLine:
    key: str
    name: str
    group: str
    rulings: int
    sections: int
    group_name: str = ""
    bot_of: str | None = None

    def to_json(self) -> dict:
        return {"key": self.key, "name": self.name, "group": self.group, "group_name": self.group_name,
                "bot_of": self.bot_of, "rulings": self.rulings, "sections": self.sections}


@dataclass
class ListView:
    """A faction's (or topic's) rulings and sections; with no filter, the factions and topics to pick from."""

    title: str
    rulings: list[HitLine] = field(default_factory=list)
    sections: list[HitLine] = field(default_factory=list)
    factions: list[FactionLine] = field(default_factory=list)
    topics: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.rulings or self.sections or self.factions)

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "rulings": [r.to_json() for r in self.rulings],
            "sections": [s.to_json() for s in self.sections],
            "factions": [f.to_json() for f in self.factions],
            "topics": [{"key": k, "name": n, "records": c} for k, n, c in self.topics],
        }


def is_section(record: Record) -> bool:
    """A numbered rule or a Law paragraph (sub-items are listed under their section, not here)."""
    if record.source == "law":
        return True
    return record.source == "outsiders" and bool(record.section) and refs.base_ref(record.section) == record.section


def read_topic(topics: dict[str, str], typed: str) -> str:
    """A topic key from its key or name, any case ("battle", "Ruling clearings"); UsageError with the
    closest topic for a misspelling ("battel")."""
    import difflib

    wanted = " ".join(typed.lower().split())
    by_word = {**{k: k for k in topics}, **{name.lower(): k for k, name in topics.items()}}
    if wanted in by_word:
        return by_word[wanted]
    close = difflib.get_close_matches(wanted, list(by_word), n=1, cutoff=0.75)
    guess = f" (did you mean '{by_word[close[0]]}'?)" if close else ""
    raise UsageError(f"unknown topic '{typed}'{guess}", "topics: " + ", ".join(topics))


def list_view(
    library: Library,
    factions: list[str] | None = None,
    topic: str | None = None,
    sources: list[str] | None = None,
    official: bool = False,
) -> ListView:
    """Browse: the records about any of `factions` and on `topic` (both filters hold together), or (no
    filter) the factions and topics with counts."""
    qm = library.query_model
    admitted = RecordFilter(sources=sources, official=official)
    records = [r for r in library.records.values() if r.is_answer and admitted.admits(r)]
    if not factions and topic is None:
        lines = []
        for key, info in qm.factions.items():
            mine = [r for r in records if key in r.factions]
            lines.append(FactionLine(key, info.name, info.group, sum(r.source == "faq" for r in mine),
                                     sum(is_section(r) for r in mine), FACTION_GROUPS.get(info.group, info.group),
                                     info.bot_of))
        first_seen = {g: i for i, g in reversed(list(enumerate(line.group for line in lines)))}
        lines.sort(key=lambda line: first_seen[line.group])  # each group together (bots under Clockwork)
        topics = [(k, n, sum(k in r.topics for r in records)) for k, n in qm.topics.items()]
        return ListView("Factions and topics", factions=lines, topics=topics)
    titles = []
    chosen = records
    if factions:
        titles.append(", ".join(faction_display(library, factions)))
        # The faction a record is mainly about comes first in its tags: list those before passing mentions.
        chosen = sorted((r for r in chosen if set(factions) & set(r.factions)),
                        key=lambda r: min(r.factions.index(f) for f in factions if f in r.factions) > 0)
    if topic is not None:
        key = read_topic(qm.topics, topic)
        titles.append(qm.topics[key])
        chosen = [r for r in chosen if key in r.topics]
    title = " · ".join(titles)
    rulings = [hit_line(r) for r in chosen if r.source == "faq"]
    sections = [hit_line(r) for r in chosen if is_section(r)]
    return ListView(title, rulings, sections)
