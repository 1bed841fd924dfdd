"""Which records go on a cheat sheet, grouped and in what order: filters in, a `Sheet` out. Pure.

    select_entries(index, SheetFilters(factions=["cats"], official=True)) -> Sheet

A sheet holds rulings (FAQ answers and Law paragraphs) by default. Outsiders rule sections come only with
`rules` (or `sources` naming outsiders), and rulings about the Clockwork bots only with `bots` or when a
bot is named as the faction ("mechanical marquise", "bots").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..corpus.grades import GRADES
from ..corpus.library import CorpusInfo, Library
from ..corpus.query_model import FactionInfo
from ..corpus.records import FLAG_RECONSTRUCTED_QUESTION, SOURCES, Record, number_basis
from ..corpus.refs import section_sort_key
from ..errors import UsageError
from ..search.answers import ask
from .bots import BOTS, is_bot_ruling, known_bots
from .echo import shown
from .sheet import GENERAL, Entry, Group, IndexLine, LegendItem, RuleLine, Sheet, SheetFilters, SourceInfo

if TYPE_CHECKING:  # export reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex

# Rulings come from the FAQ and the Law excerpts; Outsiders sections are rules, printed with --rules.
DEFAULT_SOURCES = ("faq", "law")
SOURCE_ORDER = {name: i for i, name in enumerate(("law", "outsiders", "faq"))}

# With --query, a sheet wants more than the top five answers but not the tail that shares one word.
QUERY_LIMIT = 40
QUERY_MIN_SHARE = 0.4


@dataclass(frozen=True)
class Pick:
    """A group the user asked for: one faction's rulings, or the rulings about a bot (or every bot)."""

    key: str  # the group's key: "marquise", "bot:marquise", "clockwork"
    faction: str | None  # the faction its rulings concern; None: every bot
    bot: str | None = None  # the bot's name when the group holds bot rulings

    def takes(self, record: Record) -> bool:
        if self.bot is None:
            return self.faction in record.factions and not is_bot_ruling(record)
        # A bot's group also takes the rulings about every bot (tagged with no other faction).
        return is_bot_ruling(record) and (
            self.faction is None or self.faction in record.factions or set(record.factions) <= {BOTS}
        )


def select_entries(index: OpenIndex, filters: SheetFilters) -> Sheet:
    """The sheet for these filters: entries grouped per faction (or topic), each group in section order.

    Faction names may be keys, what players call them or a bot's name. Without factions every faction
    gets a group, and rulings about no faction go under their topic or "General". FAQ records without
    an answer never appear. With `rules`, the selected Outsiders factions (all of them, without factions)
    also get their rule sections; those sections are then not repeated as entries.
    """
    model = index.library.query_model
    known = model.factions
    topics = model.topics
    picks, name = _picks(index.library, filters.factions, filters.bots)
    wanted = _check_sources(filters.sources)
    if filters.query is not None and not filters.query.strip():
        raise UsageError("the query is empty", "give a few words with --query, or leave it out")

    plain = [p.faction for p in picks if p.bot is None]
    rule_blocks = _rule_blocks(index.library, plain if picks else list(known), known) if filters.rules else {}
    covered = {line.section for lines, _ in rule_blocks.values() for line in lines}
    # A section heading without text of its own (its sub-items hold the rules) is no entry.
    records = [
        r for r in _candidates(index, picks, filters, wanted)
        if r.text.strip() and not (r.source == "outsiders" and r.section in covered)
    ]
    records.sort(key=_entry_order)

    groups = _grouped_by_pick(records, picks, known) if picks else _grouped_by_home(records, known, topics)
    for key, (lines, version) in rule_blocks.items():
        group = groups.setdefault(key, _faction_group(key, known[key]))
        group.rules = lines
        group.rules_title = f"{known[key].name} rules" + (f" ({version})" if version else "")
    ordered = list(groups.values()) if picks else _ordered_groups(groups, known, topics)
    for number, entry in enumerate((e for g in ordered for e in g.entries), 1):
        entry.number = number

    titles = [groups[p.key].title for p in picks]
    return Sheet(
        title=_title(titles, filters.query),
        filters=_filters(titles, filters, wanted),
        sources=_sources(ordered, index.library.info),
        groups=ordered,
        legend=_legend(ordered),
        section_index=_section_index(index.library, ordered),
        name=name,
    )


def _picks(library: Library, names: list[str], bots: bool) -> tuple[list[Pick], str]:
    """The groups asked for, in the order given, and a short name for the sheet ("marquise", "all").

    A bot's name picks the rulings about that bot; with `bots`, each faction a bot plays also gets its
    bot's group, right after its own.
    """
    from ..views.factions import resolve_faction

    every_bot = known_bots(library)
    picks: list[Pick] = []
    slugs: list[str] = []
    for name in names:
        bot = every_bot.get(" ".join(name.lower().split()))
        if bot is None:
            key = resolve_faction(library, name)
            found = [Pick(key, key)]
            player = next((b for b in every_bot.values() if b.plays == key), None) if bots else None
            if player is not None:
                found.append(Pick(f"bot:{key}", key, player.name))
            slugs.append(key)
        else:
            found = [Pick(f"bot:{bot.plays}", bot.plays, bot.name) if bot.plays else Pick(BOTS, None, bot.name)]
            slugs.append(re.sub(r"[^a-z0-9]+", "-", bot.name.lower()).strip("-"))
        picks += [p for p in found if p.key not in {q.key for q in picks}]
    return picks, "-".join(dict.fromkeys(slugs)) or "all"


def _entry_order(record: Record) -> tuple:
    return (
        record.section is None,
        section_sort_key(record.section) if record.section else (),
        SOURCE_ORDER.get(record.source, 9),
        record.origin.line,
    )


def _check_sources(sources: list[str] | None) -> list[str]:
    if not sources:
        return list(DEFAULT_SOURCES)
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        raise UsageError(f"unknown source '{shown(unknown[0])}'", f"use one of: {', '.join(SOURCES)}")
    return list(dict.fromkeys(sources))


def _candidates(index: OpenIndex, picks: list[Pick], filters: SheetFilters, sources: list[str]) -> list[Record]:
    """The records the filters let through, in no particular order."""
    def wanted(record: Record) -> bool:
        if picks:
            return any(p.takes(record) for p in picks)
        return filters.bots or not is_bot_ruling(record)

    if filters.query is not None:
        keys = list(dict.fromkeys(p.faction or BOTS for p in picks))
        if any(p.bot for p in picks):
            keys.append(BOTS)  # the rulings about every bot are tagged with no other faction
        answer = ask(index, filters.query, factions=keys or None, sources=sources, official=filters.official,
                     limit=QUERY_LIMIT)
        hits = [h for h in answer.hits if h.record.is_answer and h.record.source in sources]
        if not hits:
            return []
        floor = hits[0].score * QUERY_MIN_SHARE
        return [h.record for h in hits if h.score >= floor and wanted(h.record)]
    return [
        r for r in index.library.records.values()
        if r.is_answer and r.source in sources and (not filters.official or r.official) and wanted(r)
    ]


def _to_entry(record: Record) -> Entry:
    if record.source == "faq":
        question: str | None = record.title or "(question not recorded)"
    else:  # a rule or Law paragraph: the section label names it, its title would only repeat it
        question = None if record.section else record.title
    return Entry(
        number=0,
        id=record.id,
        source=record.source,
        question=question,
        reconstructed=record.source == "faq" and bool(record.title)
        and FLAG_RECONSTRUCTED_QUESTION in record.flags,
        answer=" ".join(record.text.split()),
        grade=record.grade if record.grade in GRADES else "ungraded",
        official=record.official,
        year=record.year,
        section=record.section,
        section_title=record.section_title,
        number_basis=number_basis(record),
        xrefs=list(record.xrefs),
    )


def _rule_blocks(library: Library, keys: list[str], known: dict[str, FactionInfo]
                 ) -> dict[str, tuple[list[RuleLine], str | None]]:
    """For each Outsiders faction among `keys`: its rule sections and its version line."""
    blocks = {}
    for key in keys:
        info = known[key]
        if info.group == "outsiders" and info.prefix:
            blocks[key] = _rules_for(library, info.prefix)
    return blocks


def _rules_for(library: Library, prefix: str) -> tuple[list[RuleLine], str | None]:
    """An Outsiders faction's rule sections in section order, and its part heading's version line."""
    records = [
        r
        for r in library.records.values()
        if r.source == "outsiders" and r.is_answer and r.section and r.section.split(".")[0] == prefix
    ]
    records.sort(key=lambda r: section_sort_key(r.section))
    lines = [RuleLine(r.section, r.section_title, " ".join(r.text.split()), r.section.count(".") - 1)
             for r in records]
    version = None
    for r in records:
        parent = library.records.get(r.parent or "")
        if parent is not None and parent.section is None and 0 < len(parent.text) <= 60:
            version = " ".join(parent.text.split())
            break
    return lines, version


def _grouped_by_pick(records: list[Record], picks: list[Pick], known: dict[str, FactionInfo]) -> dict[str, Group]:
    """Each entry under the first group asked for that takes it."""
    groups = {p.key: _pick_group(p, known) for p in picks}
    for record in records:
        pick = next(p for p in picks if p.takes(record))
        groups[pick.key].entries.append(_to_entry(record))
    return groups


def _grouped_by_home(records: list[Record], known: dict[str, FactionInfo], topics: dict[str, str]) -> dict[str, Group]:
    """Without factions: bot rulings under the bots, others under their first faction, else their first
    topic, else "General"."""
    groups: dict[str, Group] = {}
    for record in records:
        if is_bot_ruling(record):
            key = BOTS
        elif record.factions and record.factions[0] in known:
            key = record.factions[0]
        elif record.topics and record.topics[0] in topics:
            key = f"topic:{record.topics[0]}"
        else:
            key = "general"
        if key not in groups:
            groups[key] = _other_group(key, known, topics)
        groups[key].entries.append(_to_entry(record))
    return groups


def _pick_group(pick: Pick, known: dict[str, FactionInfo]) -> Group:
    if pick.bot is None:
        return _faction_group(pick.key, known[pick.key])
    if pick.faction is None:
        return _faction_group(BOTS, known[BOTS])
    return Group(pick.key, pick.bot, "faction", subtitle=f"Clockwork bot playing the {known[pick.faction].name}")


def _faction_group(key: str, info: FactionInfo) -> Group:
    group = info.group
    if key == BOTS:
        return Group(key, info.name, "faction", subtitle="rulings about the Clockwork bots")
    subtitle = "base game" if group == "base" else f"{group} (fan expansion)" if group == "outsiders" else group
    return Group(key, info.name, "faction", subtitle=subtitle)


def _other_group(key: str, known: dict[str, FactionInfo], topics: dict[str, str]) -> Group:
    if key in known:
        return _faction_group(key, known[key])
    if key.startswith("topic:"):
        return Group(key, f"{GENERAL}: {topics[key[6:]]}", "topic")
    return Group(key, GENERAL, "general")


def _ordered_groups(groups: dict[str, Group], known: dict[str, FactionInfo], topics: dict[str, str]) -> list[Group]:
    order = list(known) + [f"topic:{t}" for t in topics] + ["general"]
    return [groups[k] for k in order if k in groups]


def _title(titles: list[str], query: str | None) -> str:
    title = f"Root rules cheat sheet: {', '.join(titles) or 'all factions'}"
    return f"{title}, \u201c{shown(query.strip())}\u201d" if query else title


def _filters(titles: list[str], filters: SheetFilters, wanted: list[str]) -> list[str]:
    used = []
    if titles:
        used.append("factions: " + ", ".join(titles))
    if filters.official:
        used.append("official rulings only")
    if filters.sources:
        used.append("sources: " + ", ".join(wanted))
    if filters.query:
        used.append(f"query: \u201c{shown(filters.query.strip())}\u201d")
    if filters.rules:
        used.append("Outsiders rule sections included")
    if filters.bots:
        used.append("Clockwork bot rulings included")
    return used or ["none: every ruling"]


def _sources(groups: list[Group], info: CorpusInfo) -> list[SourceInfo]:
    used = {e.source for g in groups for e in g.entries}
    if any(g.rules for g in groups):
        used.add("outsiders")
    titles = {
        "faq": (f"{info.faq.title or 'Root'} FAQ", info.faq.date),
        "law": (f"{info.law_title or 'Law of Root'} excerpts", None),
        "outsiders": (info.outsiders_title or "Outsiders rulebook", None),
    }
    return [SourceInfo(key, *titles[key]) for key in SOURCES if key in used]


def _legend(groups: list[Group]) -> list[LegendItem]:
    used = {e.grade for g in groups for e in g.entries}
    if any(g.rules for g in groups):
        used.add("fan-rule")
    return [
        LegendItem(grade.key, f"[{grade.code}]", grade.word, grade.label, grade.official)
        for grade in GRADES.values()
        if grade.key in used
    ]


def _section_index(library: Library, groups: list[Group]) -> list[IndexLine]:
    """Every section an entry concerns or cites, with the entries' numbers. A bare chapter or appendix
    number without a title ("5", cited as "(5 - Setup)") is too broad to look anything up by: left out."""
    titles: dict[str, str] = {}
    for record in library.records.values():
        if record.section and record.section_title and record.source != "faq":
            titles.setdefault(record.section, record.section_title)
    by_section: dict[str, list[int]] = {}
    for group in groups:
        for entry in group.entries:
            for ref in dict.fromkeys(filter(None, [entry.section, *entry.xrefs])):
                by_section.setdefault(ref, []).append(entry.number)
                if ref == entry.section and entry.section_title:
                    titles.setdefault(ref, entry.section_title)
    ordered = sorted(by_section.items(), key=lambda kv: section_sort_key(kv[0]))
    return [IndexLine(ref, titles.get(ref), numbers) for ref, numbers in ordered if "." in ref or ref in titles]
