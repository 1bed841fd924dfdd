"""Which records go on a cheat sheet, grouped and in what order: filters in, a `Sheet` out. Pure.

    select_entries(index, factions, official, sources, query, rules) -> Sheet
"""

from __future__ import annotations

from ..errors import UsageError
from ..records import GRADE_LABELS, OFFICIAL_GRADES, SOURCES, Record, number_basis
from ..refs import section_sort_key
from .sheet import GENERAL, GRADE_BADGES, Entry, Group, IndexLine, LegendItem, RuleLine, Sheet, SourceInfo

# Rulings come from the FAQ and the Law excerpts; Outsiders sections are rules, printed with --rules.
DEFAULT_SOURCES = ("faq", "law")
SOURCE_ORDER = {name: i for i, name in enumerate(("law", "outsiders", "faq"))}

# With --query, a sheet wants more than the top five answers but not the tail that shares one word.
QUERY_LIMIT = 40
QUERY_MIN_SHARE = 0.4


def select_entries(
    index,
    factions: list[str],
    official: bool,
    sources: list[str] | None,
    query: str | None,
    rules: bool,
) -> Sheet:
    """The sheet for these filters: entries grouped per faction (or topic), each group in section order.

    Faction names may be keys or what players call them. Without factions every faction gets a group,
    and rulings about no faction go under their topic or "General". FAQ records without an answer
    never appear. With `rules`, the selected Outsiders factions (all of them, without factions) also
    get their rule sections; those sections are then not repeated as entries.
    """
    from ..search import resolve_faction

    model = index.query_model
    known: dict[str, dict] = model["factions"]
    topics: dict[str, str] = model.get("topics", {})
    keys = list(dict.fromkeys(resolve_faction(index, name) for name in factions or []))
    wanted = _check_sources(sources)
    if query is not None and not query.strip():
        raise UsageError("the query is empty", "give a few words with --query, or leave it out")

    rule_blocks = _rule_blocks(index, keys or list(known), known) if rules else {}
    covered = {line.section for lines, _ in rule_blocks.values() for line in lines}
    # A section heading without text of its own (its sub-items hold the rules) is no entry.
    records = [
        r for r in _candidates(index, keys, official, wanted, query)
        if r.text.strip() and not (r.source == "outsiders" and r.section in covered)
    ]
    records.sort(key=_entry_order)

    groups = _grouped(records, keys, known, topics)
    for key, (lines, version) in rule_blocks.items():
        group = groups.setdefault(key, _faction_group(key, known[key]))
        group.rules = lines
        group.rules_title = f"{known[key]['name']} rules" + (f" ({version})" if version else "")
    ordered = list(groups.values()) if keys else _ordered_groups(groups, known, topics)
    for number, entry in enumerate((e for g in ordered for e in g.entries), 1):
        entry.number = number

    return Sheet(
        title=_title(keys, known, query),
        filters=_filters(keys, known, official, sources, wanted, query, rules),
        sources=_sources(ordered, model),
        groups=ordered,
        legend=_legend(ordered),
        section_index=_section_index(index, ordered),
    )


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
        raise UsageError(f"unknown source '{unknown[0]}'", f"use one of: {', '.join(SOURCES)}")
    return list(dict.fromkeys(sources))


def _candidates(index, keys: list[str], official: bool, sources: list[str], query: str | None) -> list[Record]:
    if query is not None:
        from ..search import ask

        answer = ask(index, query, factions=keys or None, sources=sources, official=official, limit=QUERY_LIMIT)
        hits = [h for h in answer.hits if h.record.is_answer and h.record.source in sources]
        if not hits:
            return []
        floor = hits[0].score * QUERY_MIN_SHARE
        return [h.record for h in hits if h.score >= floor]
    return [
        r
        for r in index.records.values()
        if r.is_answer
        and r.source in sources
        and (not keys or set(keys) & set(r.factions))
        and (not official or r.official)
    ]


def _to_entry(record: Record) -> Entry:
    reconstructed = "reconstructed-question" in record.flags
    question = record.title or record.section_title
    if not question and record.source != "faq" and record.section:
        question = f"{'Law of Root' if record.source == 'law' else 'Outsiders rulebook'} {record.section}"
    return Entry(
        number=0,
        id=record.id,
        source=record.source,
        question=question,
        reconstructed=reconstructed and bool(record.title),
        answer=" ".join(record.text.split()),
        grade=record.grade if record.grade in GRADE_BADGES else "ungraded",
        official=record.official,
        year=record.year,
        section=record.section,
        section_title=record.section_title,
        number_basis=number_basis(record),
        xrefs=list(record.xrefs),
    )


def _rule_blocks(index, keys: list[str], known: dict) -> dict[str, tuple[list[RuleLine], str | None]]:
    """For each Outsiders faction among `keys`: its rule sections and its version line."""
    blocks = {}
    for key in keys:
        info = known[key]
        if info.get("group") == "outsiders" and info.get("prefix"):
            blocks[key] = _rules_for(index, info["prefix"])
    return blocks


def _rules_for(index, prefix: str) -> tuple[list[RuleLine], str | None]:
    """An Outsiders faction's rule sections in section order, and its part heading's version line."""
    records = [
        r
        for r in index.records.values()
        if r.source == "outsiders" and r.is_answer and r.section and r.section.split(".")[0] == prefix
    ]
    records.sort(key=lambda r: section_sort_key(r.section))
    lines = [RuleLine(r.section, r.section_title, " ".join(r.text.split()), r.section.count(".") - 1)
             for r in records]
    version = None
    for r in records:
        parent = index.records.get(r.parent or "")
        if parent is not None and parent.section is None and 0 < len(parent.text) <= 60:
            version = " ".join(parent.text.split())
            break
    return lines, version


def _grouped(records: list[Record], keys: list[str], known: dict, topics: dict) -> dict[str, Group]:
    """Entries under the first selected faction they concern; without factions, under their own first
    faction, else their first topic, else "General"."""
    groups: dict[str, Group] = {key: _faction_group(key, known[key]) for key in keys}
    for record in records:
        if keys:
            key = next((f for f in record.factions if f in keys), keys[0])
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


def _faction_group(key: str, info: dict) -> Group:
    group = info.get("group") or ""
    subtitle = "base game" if group == "base" else f"{group} (fan expansion)" if group == "outsiders" else group
    return Group(key, info["name"], "faction", subtitle=subtitle)


def _other_group(key: str, known: dict, topics: dict) -> Group:
    if key in known:
        return _faction_group(key, known[key])
    if key.startswith("topic:"):
        return Group(key, f"{GENERAL}: {topics[key[6:]]}", "topic")
    return Group(key, GENERAL, "general")


def _ordered_groups(groups: dict[str, Group], known: dict, topics: dict) -> list[Group]:
    order = list(known) + [f"topic:{t}" for t in topics] + ["general"]
    return [groups[k] for k in order if k in groups]


def _title(keys: list[str], known: dict, query: str | None) -> str:
    who = ", ".join(known[k]["name"] for k in keys) if keys else "all factions"
    title = f"Root rules cheat sheet: {who}"
    return f"{title}, \u201c{query.strip()}\u201d" if query else title


def _filters(keys, known, official, sources, wanted, query, rules) -> list[str]:
    used = []
    if keys:
        used.append("factions: " + ", ".join(known[k]["name"] for k in keys))
    if official:
        used.append("official rulings only")
    if sources:
        used.append("sources: " + ", ".join(wanted))
    if query:
        used.append(f"query: \u201c{query.strip()}\u201d")
    if rules:
        used.append("Outsiders rule sections included")
    return used or ["none: every ruling"]


def _sources(groups: list[Group], model: dict) -> list[SourceInfo]:
    used = {e.source for g in groups for e in g.entries}
    if any(g.rules for g in groups):
        used.add("outsiders")
    faq = model.get("faq") or {}
    titles = {
        "faq": (f"{faq.get('title') or 'Root'} FAQ", faq.get("date")),
        "law": (f"{model.get('law_title') or 'Law of Root'} excerpts", None),
        "outsiders": (model.get("outsiders_title") or "Outsiders rulebook", None),
    }
    return [SourceInfo(key, *titles[key]) for key in SOURCES if key in used]


def _legend(groups: list[Group]) -> list[LegendItem]:
    used = {e.grade for g in groups for e in g.entries}
    if any(g.rules for g in groups):
        used.add("fan-rule")
    return [
        LegendItem(grade, f"[{GRADE_BADGES[grade][0]}]", GRADE_BADGES[grade][1], GRADE_LABELS[grade],
                   grade in OFFICIAL_GRADES)
        for grade in GRADE_LABELS
        if grade in used
    ]


def _section_index(index, groups: list[Group]) -> list[IndexLine]:
    titles: dict[str, str] = {}
    for record in index.records.values():
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
    return [IndexLine(ref, titles.get(ref), numbers) for ref, numbers in ordered]
