"""What each screen shows, gathered as plain data: no rich, no typer, no printing.

A view holds display-ready strings (faction names, section labels, grade badges) so the renderer only
lays them out, and `to_json()` gives the same content to scripts. Views sit above search and below
render: they read records and the query model of an opened index, and never rank anything themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..corpus import refs
from ..corpus.records import (
    FLAG_DUPLICATE_NUMBER,
    FLAG_MISSING_ANSWER,
    FLAG_QUOTES_LAW,
    FLAG_RECONSTRUCTED_QUESTION,
    FLAG_TRUNCATED,
    FLAG_UNOFFICIAL_RULE,
    FLAG_UNTITLED,
    GRADE_LABELS,
    OFFICIAL_GRADES,
    SOURCES,
    Record,
    number_basis,
    section_label,
)
from ..errors import NotFound, UsageError

SOURCE_LABELS = {"faq": "FAQ", "law": "Law of Root excerpts", "outsiders": "The Outsiders (fan expansion)"}

# What each grade means, for `rootfaq grades` and the help text. Order: strongest provenance first.
GRADE_MEANINGS: dict[str, str] = {
    "law": "The Law of Root itself, quoted word for word (with its section number and how it was found).",
    "rulebook": "The FAQ answers from a numbered section of the rules (number and title shown).",
    "designer": "The game's designer ruled on it on BoardGameGeek (year shown).",
    "publisher": "The publisher answered on BoardGameGeek (year shown).",
    "consensus": "Several experienced players agree; there is no official ruling.",
    "best-reading": "The best reading of the rules and forum discussion; no official ruling.",
    "community": "A single community answer; no official ruling.",
    "disputed": "Players read it this way, but the reading is disputed; no official ruling.",
    "ungraded": "The FAQ gives no source for this answer.",
    "fan-rule": "A rule of The Outsiders, a fan expansion: not an official Root rule.",
}

# Grades whose verbatim sentence says more than the badge does.
_SENTENCE_WORTH_SHOWING = {"consensus", "best-reading", "community", "disputed", "publisher"}

FLAG_NOTES = {
    FLAG_RECONSTRUCTED_QUESTION: "question reconstructed (the FAQ lost its questions)",
    FLAG_MISSING_ANSWER: "the FAQ lost this answer: never shown as an answer",
    FLAG_DUPLICATE_NUMBER: "this number is printed more than once in the rulebook",
    FLAG_TRUNCATED: "the printed text stops short here",
    FLAG_UNOFFICIAL_RULE: "marked (Unofficial Rule) in the rulebook",
    FLAG_UNTITLED: "printed without a title",
}

RELATED_TEXT_CHARS = 500  # a cited section's text in `ask`; `show` and `section` print it whole
NEARBY = 3  # "On the same topic" lines under a record: a few, never a list


# --- small building blocks ---------------------------------------------------------------------------------


@dataclass
class Badge:
    """A grade as shown: its key (for colour), its label and the detail that goes with it."""

    grade: str
    label: str
    detail: str = ""

    def to_json(self) -> dict:
        return {"grade": self.grade, "label": self.label, "detail": self.detail}


@dataclass
class Provenance:
    """Who says so and when: the badge, the grade sentence when it adds nuance, source, date, factions."""

    badge: Badge
    source: str
    date: str | None = None
    sentence: str | None = None
    factions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "badge": self.badge.to_json(),
            "source": self.source,
            "date": self.date,
            "sentence": self.sentence,
            "factions": self.factions,
            "notes": self.notes,
        }


@dataclass
class HitLine:
    """One record on one line: id, badge and its question or heading."""

    id: str
    badge: Badge
    title: str
    score: float | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "grade": self.badge.grade, "title": self.title, "score": self.score}


@dataclass
class RefLine:
    """A section number with its title, and the record that holds it (None: the corpus does not, and
    `where` says which rulebook prints it)."""

    ref: str
    label: str
    id: str | None
    where: str | None = None

    def to_json(self) -> dict:
        return {"ref": self.ref, "label": self.label, "id": self.id, "where": self.where}


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
    nearby: list[HitLine] = field(default_factory=list)  # rules and rulings on the same topic

    def __bool__(self) -> bool:
        return bool(self.rules or self.cross_refs or self.citing or self.backlinks or self.same_number
                    or self.nearby)

    def shown_ids(self) -> set[str]:
        """Every record this block names, so nothing else on the screen names it again."""
        lines = [*self.rules, *self.cross_refs, *self.citing, *self.backlinks, *self.nearby]
        return {line.id for line in lines if line.id} | set(self.same_number)

    def to_json(self) -> dict:
        return {
            "rules": [r.to_json() for r in self.rules],
            "cross_refs": [r.to_json() for r in self.cross_refs],
            "citing": [c.to_json() for c in self.citing],
            "backlinks": [b.to_json() for b in self.backlinks],
            "same_number": self.same_number,
            "nearby": [n.to_json() for n in self.nearby],
        }


# --- records ------------------------------------------------------------------------------------------------


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


def faction_display(index, keys: list[str]) -> list[str]:
    """Faction keys as their full names, in the same order."""
    factions = index.query_model.get("factions", {})
    return [factions.get(k, {}).get("name", k) for k in keys if k and k != "-"]


def badge(record: Record) -> Badge:
    """The grade badge: label plus the detail a player checks first (section, or BGG year)."""
    label = GRADE_LABELS.get(record.grade, record.grade)
    detail = ""
    if record.grade == "rulebook":
        detail = section_label(record)
    elif record.grade in ("designer", "publisher") and record.year:
        detail = str(record.year)
    elif record.source != "faq" and record.section:
        detail = section_label(record)
    return Badge(record.grade, label, detail)


def provenance(index, record: Record) -> Provenance:
    """Where a record comes from, ready to show."""
    qm = index.query_model
    b = badge(record)
    if record.source == "faq":
        source = "FAQ"
        date = record.date or qm.get("faq", {}).get("date")
    elif record.source == "law":
        source = qm.get("law_title") or "Law of Root"
        date = None
        basis = number_basis(record)
        if basis:
            b.detail = f"{b.detail} ({basis})" if b.detail else basis
    else:
        source = SOURCE_LABELS["outsiders"]
        if FLAG_QUOTES_LAW in record.flags:
            source = "quoted in The Outsiders' Golden Reminders"
        date = None
    sentence = record.grade_sentence if record.grade in _SENTENCE_WORTH_SHOWING else None
    notes = [FLAG_NOTES[f] for f in record.flags if f in FLAG_NOTES]
    return Provenance(b, source, date, sentence, faction_display(index, record.factions), notes)


def heading(record: Record) -> str:
    """The line a record is known by: its question, else its section and title, else its first words."""
    if record.source == "faq":
        if record.title:
            return record.title
        return _first_words(record.text) if record.text else "(answer missing)"
    label = section_label(record)
    if label:
        return label
    return record.title or _first_words(record.text)


def hit_line(index, record: Record, score: float | None = None) -> HitLine:
    """A record as one line: id, badge, question or heading."""
    return HitLine(record.id, badge(record), heading(record), score)


def _first_words(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def _cut(text: str, limit: int) -> tuple[str, bool]:
    if limit <= 0 or len(text) <= limit:
        return text, False
    return text[:limit].rsplit(" ", 1)[0] + " …", True


def holders(index, ref: str) -> list[Record]:
    """Records that hold a section's text, Law excerpts first, in corpus order."""
    found = [r for r in index.records.values() if r.section == ref and r.source != "faq"]
    return sorted(found, key=lambda r: r.source != "law")


def citing_records(index, refs_: list[str], exclude: str | None = None) -> list[Record]:
    """FAQ rulings that cite any of these sections, in FAQ order."""
    wanted = set(refs_)
    return [
        r for r in index.records.values()
        if r.source == "faq" and r.is_answer and r.id != exclude and wanted & set(r.xrefs)
    ]


def backlink_records(index, ref: str) -> list[Record]:
    """Rule text (not FAQ rulings) that refers to this section."""
    return [r for r in index.records.values() if r.source != "faq" and ref in r.xrefs and r.section != ref]


def ref_sort_key(ref: str) -> tuple:
    """Section numbers in reading order: 2.5 before 12.2.4, BP.2 before BP.10."""
    return refs.section_sort_key(ref)


def ref_line(index, ref: str) -> RefLine:
    """A section number with its title and the record holding it (None when the corpus does not)."""
    held = holders(index, ref)
    if held:
        return RefLine(ref, section_label(held[0]), held[0].id)
    return RefLine(ref, ref, None, missing_where(ref))


def missing_where(ref: str) -> str:
    """Where a section the corpus lacks is printed, said once in place of its text."""
    printing = refs.printing_of(ref)
    if printing == "the Law of Root":
        return "in the Law of Root, not in these sources"
    return f"in {printing}, but not in its text here"


def path_of(index, record: Record) -> list[str]:
    """Where a rule sits: source, part, the faction of a prefixed section, then its parent sections."""
    if record.source == "faq":
        return []
    if record.source == "law":
        return [index.query_model.get("law_title") or "Law of Root"]
    chain = []
    parent = record.parent
    while parent and parent in index.records and len(chain) < 10:
        chain.append(index.records[parent])
        parent = index.records[parent].parent
    chain.reverse()
    path = [SOURCE_LABELS["outsiders"]]
    for ancestor in chain:
        path.append(section_label(ancestor) if ancestor.section else (ancestor.title or ancestor.id))
    faction = _prefix_faction(index, record.section)
    if faction and faction not in " ".join(path):
        path.insert(min(2, len(path)), faction)
    return path


def _prefix_faction(index, section: str | None) -> str | None:
    if not section:
        return None
    prefix = section.split(".")[0]
    for info in index.query_model.get("factions", {}).values():
        if info.get("prefix") == prefix:
            return info["name"]
    return None


def sub_items(index, record: Record) -> list[SubItem]:
    """A rule's sub-items, depth first, in printed order."""
    items: list[SubItem] = []

    def walk(rec: Record, depth: int) -> None:
        for child_id in rec.children:
            child = index.records.get(child_id)
            if child is None or depth > 6:
                continue
            items.append(SubItem(depth, child.id, heading(child), child.text))
            walk(child, depth + 1)

    walk(record, 0)
    return items


def rule_text(index, ref: str, limit: int, exclude: str | None = None) -> RuleText:
    """The text of a cited section, from the first record holding it; the others are named."""
    held = [r for r in holders(index, ref) if r.id != exclude]
    if not held:
        return RuleText(ref, ref, None, missing_where(ref), None)
    first = held[0]
    text, cut = _cut(first.text, limit)
    where = SOURCE_LABELS.get(first.source, first.source)
    if FLAG_QUOTES_LAW in first.flags:
        where = "Law of Root text, quoted in The Outsiders' Golden Reminders"
    elif first.source == "law" and first.section_basis:
        where = f"{where}, {number_basis(first)}"
    subs = [RefLine(c.section or c.id, heading(c), c.id)
            for c in (index.records.get(i) for i in first.children) if c is not None]
    return RuleText(ref, section_label(first), first.id, where, text, cut, subs, [r.id for r in held[1:]])


def related(index, record: Record, text_limit: int = RELATED_TEXT_CHARS, nearby: int = NEARBY,
            elsewhere: set[str] | frozenset[str] = frozenset()) -> Related:
    """Related rules for any record, then up to `nearby` records on the same topic that are not already
    named, here or `elsewhere` on the screen.

    A ruling: the text of each section it cites, the sections those refer to, other rulings citing them.
    A rule: the sections it refers to, the rulings citing it, the rule text that refers to it, and
    other records printed under the same number.
    """
    rel = _linked(index, record, text_limit)
    if nearby > 0:
        from ..search.related import related_records

        shown = rel.shown_ids() | set(elsewhere) | {record.id, *(item.id for item in sub_items(index, record))}
        rel.nearby = [hit_line(index, r) for r in related_records(index, record, nearby, exclude=shown)]
    return rel


def _linked(index, record: Record, text_limit: int) -> Related:
    """What the corpus links to a record: cited sections, cross-references, citing rulings, backlinks."""
    rel = Related()
    if record.source == "faq":
        cited = list(dict.fromkeys(record.xrefs))
        rel.rules = [rule_text(index, ref, text_limit) for ref in cited]
        for rule in rel.rules:
            if rule.id is None and rule.ref == record.section and record.section_title:
                rule.label = section_label(record)  # the title the FAQ's citation gives
        onward: list[str] = []
        for rule in rel.rules:
            if rule.id:
                onward.extend(index.records[rule.id].xrefs)
        rel.cross_refs = [ref_line(index, r) for r in dict.fromkeys(onward) if r not in cited]
        rel.citing = [hit_line(index, r) for r in citing_records(index, cited, exclude=record.id)]
        return rel
    subs = [index.records[item.id] for item in sub_items(index, record)]
    refs_here = [r.section for r in [record, *subs] if r.section]
    onward = [x for r in [record, *subs] for x in r.xrefs]
    rel.cross_refs = [ref_line(index, r) for r in dict.fromkeys(onward) if r not in refs_here]
    if record.section:
        family = {record.id} | {r.id for r in subs}
        rel.citing = [hit_line(index, r) for r in citing_records(index, refs_here)]
        rel.backlinks = [
            RefLine(r.section or r.id, heading(r), r.id)
            for r in _unique(b for ref in refs_here for b in backlink_records(index, ref))
            if r.id not in family
        ]
        rel.same_number = [r.id for r in holders(index, record.section) if r.id != record.id]
    return rel


def _unique(records) -> list[Record]:
    seen: dict[str, Record] = {}
    for r in records:
        seen.setdefault(r.id, r)
    return list(seen.values())


def record_view(index, record: Record, text_limit: int = 0, nearby: int = NEARBY,
                elsewhere: set[str] | frozenset[str] = frozenset()) -> RecordView:
    """A record in full. `text_limit` caps the text of cited sections (0: no cap); `nearby` is how many
    records on the same topic follow its related rules (none of the ids `elsewhere` on the screen)."""
    return RecordView(
        record=record,
        heading=heading(record),
        reconstructed=FLAG_RECONSTRUCTED_QUESTION in record.flags,
        provenance=provenance(index, record),
        path=path_of(index, record),
        sub_items=sub_items(index, record),
        related=related(index, record, text_limit, nearby, elsewhere),
    )


# --- ask ----------------------------------------------------------------------------------------------------


@dataclass
class AskView:
    """An answer as `rootfaq ask` shows it: the best record in full, then the next few, one line each."""

    query: str
    confident: bool
    best: RecordView | None
    others: list[HitLine]
    notices: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    asked_about: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    reference: str | None = None
    used: int = 0  # hits this view went through (the best, the others, those already named above them)
    probability: float | None = None  # how likely the best is right (calibrated); None for a look-up
    guesses: list[RecordView] = field(default_factory=list)  # when not sure: the next candidates in full
    parts: list[AskView] = field(default_factory=list)  # a post asking several questions: one view each

    @property
    def found(self) -> bool:
        return self.best is not None

    def to_json(self) -> dict:
        return {
            "query": self.query,
            "confident": self.confident,
            "best": self.best.to_json() if self.best else None,
            "others": [o.to_json() for o in self.others],
            "notices": self.notices,
            "corrections": self.corrections,
            "filters": self.filters,
            "probability": self.probability,
            "guesses": [g.to_json() for g in self.guesses],
            "parts": [p.to_json() for p in self.parts],
        }


def filter_labels(index, factions: list[str] | None, sources: list[str] | None, official: bool) -> list[str]:
    """The active filters in words, for the line above an answer."""
    labels = []
    if factions:
        labels.append("faction: " + ", ".join(faction_display(index, factions)))
    if sources:
        labels.append("source: " + ", ".join(SOURCE_LABELS.get(s, s) for s in sources))
    if official:
        labels.append("official rulings only")
    return labels


GUESSES_IN_FULL = 2  # when not sure, the candidates after the first shown in full (the right one is often 2nd)
PART_OTHERS = 2  # further hits, one line each, under each question of a multi-question post


def ask_view(index, answer, others: int = 4, filters: list[str] | None = None, skip: int = 0,
             guesses_in_full: int = GUESSES_IN_FULL) -> AskView:
    """The view of a search answer; `others` is how many further hits get one line each.

    When the search is not sure, the next candidates are shown in full too. No record is named twice: a
    hit already under the answer's related rules (a ruling citing the same section) is not repeated among
    the others, and the records on the same topic are neither. A post asking several questions gets one
    view per question in `parts`.
    """
    hits = answer.hits[skip:]
    best = None
    rest: list[HitLine] = []
    guesses: list[RecordView] = []
    used = 0
    if hits and not answer.confident and answer.reference is None:
        guesses = [record_view(index, h.record) for h in hits[1 : 1 + guesses_in_full]]
        used = len(guesses)
        hits = [hits[0]] + hits[1 + len(guesses) :]
    if hits:
        linked = _linked(index, hits[0].record, RELATED_TEXT_CHARS).shown_ids()
        used += 1
        for hit in hits[1:]:
            if len(rest) == others:
                break
            used += 1
            if hit.record.id not in linked:
                rest.append(hit_line(index, hit.record, hit.score))
        best = record_view(index, hits[0].record, RELATED_TEXT_CHARS, elsewhere={h.id for h in rest})
    return AskView(
        query=answer.query,
        confident=answer.confident,
        best=best,
        others=rest,
        notices=list(answer.notices),
        corrections=dict(answer.corrections),
        asked_about=faction_display(index, answer.factions),
        filters=filters or [],
        reference=answer.reference,
        used=used,
        probability=answer.probability,
        guesses=guesses,
        parts=[ask_view(index, part, others=PART_OTHERS, guesses_in_full=1) for part in answer.parts],
    )


# --- section ------------------------------------------------------------------------------------------------


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


def parse_section(text: str) -> str:
    """A section number in any form the search understands, canonical; UsageError when there is none."""
    raw = text.strip()
    if raw.lower().startswith("rule-"):
        raw = raw[5:]
    ref = refs.parse_query_ref(raw)
    if ref is None and re.fullmatch(r"[A-Za-z]{1,3}", raw) and raw.upper() in refs.PREFIXES:
        ref = raw.upper()
    if ref is None:
        found = refs.refs_in_query(raw)
        if len(found) == 1:
            ref = found[0]
    if ref is None:
        raise UsageError(f"'{text}' is not a section number", f"try one of: {SECTION_EXAMPLES}")
    return ref


def section_view(index, text: str, nearest_refs=None) -> SectionView:
    """A section with its sub-items and path, the rulings citing it and the rules referring to it.

    `nearest_refs(index, ref)` suggests existing numbers when nothing holds or cites the section.
    """
    ref = parse_section(text)
    held = holders(index, ref)
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
    family = list(dict.fromkeys([ref] + [index.records[i].section for i in sub_ids if index.records[i].section]))
    citing = [hit_line(index, r) for r in citing_records(index, family)]
    backlinks = [
        RefLine(r.section or r.id, heading(r), r.id)
        for r in _unique(b for f in family for b in backlink_records(index, f))
        if r.id not in sub_ids
    ]
    view = SectionView(ref, shown, citing, backlinks)
    if not shown:
        view.cited_title = next((r.section_title for r in index.records.values()
                                 if r.source == "faq" and r.section == ref and r.section_title), None)
    if not view.found and nearest_refs is not None:
        view.nearest = nearest_refs(index, ref)
    return view


# --- show ---------------------------------------------------------------------------------------------------

_FAQ_NUMBER = re.compile(r"^(?:faq)?[\s#:-]*(\d{1,3})$", re.I)
_LAW_NUMBER = re.compile(r"^law[\s#:-]*(\d{1,2})$", re.I)
# Any number of digits, for suggestions: "faq-0108" is no id, but it is next to faq-108.
_NUMBERED_ID = re.compile(r"^(?P<kind>faq|law)?[\s#:-]*(?P<number>\d+)$", re.I)
ID_NEAR = 2  # an id this close in number to what was typed is worth suggesting


def resolve_id(index, text: str) -> Record:
    """A record from its id, loosely typed ("faq-108", "faq108", "108", "law-1", "rule-BP.2.5", "BP.2.5")."""
    raw = text.strip()
    if raw in index.records:
        return index.records[raw]
    lowered = {k.lower(): k for k in index.records}
    if raw.lower() in lowered:
        return index.records[lowered[raw.lower()]]
    m = _FAQ_NUMBER.match(raw)
    if m:
        key = f"faq-{int(m[1]):03d}"
        if key in index.records:
            return index.records[key]
    m = _LAW_NUMBER.match(raw)
    if m:
        key = f"law-{int(m[1]):02d}"
        if key in index.records:
            return index.records[key]
    try:
        ref = parse_section(raw)
    except UsageError:
        ref = None
    if ref:
        held = holders(index, ref)
        if held:
            return held[0]
    raise NotFound(f"no record '{text}'", _id_hint(index, raw, ref))


def _id_hint(index, raw: str, ref: str | None) -> str:
    """Ids near a mistyped one: the same kind with the closest numbers, or the nearest sections."""
    m = _NUMBERED_ID.match(raw)
    if m:
        kind = (m["kind"] or "faq").lower()
        close = nearest_numbered_ids(index, kind, int(m["number"]))
        if close:
            return "did you mean: " + ", ".join(close)
        ids = sorted(k for k in index.records if k.startswith(f"{kind}-"))
        name = "FAQ" if kind == "faq" else "Law"
        return f"{name} ids run from {ids[0]} to {ids[-1]}" if ids else "ids look like faq-108, law-01, rule-BP.2.5"
    if ref:
        from ..search.answers import nearest_refs

        close = [holders(index, s)[0].id for s in nearest_refs(index, ref, limit=3)]
        if close:
            return "did you mean: " + ", ".join(close)
        return f"no section near {ref} in these sources"
    close = nearest_ids(index, raw)
    return ("did you mean: " + ", ".join(close)) if close else "ids look like faq-108, law-01, rule-BP.2.5"


def nearest_numbered_ids(index, kind: str, number: int, limit: int = 3) -> list[str]:
    """faq-/law- ids whose number is within ID_NEAR of `number`, the closest first."""
    found = []
    for key in index.records:
        head, _, digits = key.partition("-")
        if head == kind and digits.isdigit() and abs(int(digits) - number) <= ID_NEAR:
            found.append((abs(int(digits) - number), int(digits), key))
    return [key for *_, key in sorted(found)[:limit]]


def nearest_ids(index, text: str, limit: int = 5) -> list[str]:
    """Ids sharing the longest beginning with what was typed ("faq-108x", "rule-part-bone")."""
    wanted = text.strip().lower()
    scored = []
    for key in index.records:
        k = key.lower()
        common = 0
        while common < min(len(k), len(wanted)) and k[common] == wanted[common]:
            common += 1
        if common >= 3:
            scored.append((-common, abs(len(k) - len(wanted)), key))
    return [key for *_, key in sorted(scored)[:limit]]


# --- list ---------------------------------------------------------------------------------------------------


# Where factions come from, as `rootfaq list` heads them (corpus/factions.yaml's `group`).
GROUP_NAMES = {
    "base": "Base game", "riverfolk": "Riverfolk expansion", "underworld": "Underworld expansion",
    "marauder": "Marauder expansion", "homeland": "Homeland expansion", "clockwork": "Clockwork bots",
    "outsiders": "The Outsiders (fan expansion)",
}


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


def _is_section(record: Record) -> bool:
    """A numbered rule or a Law paragraph (sub-items are listed under their section, not here)."""
    if record.source == "law":
        return True
    return record.source == "outsiders" and bool(record.section) and refs.base_ref(record.section) == record.section


def list_view(
    index,
    faction: str | None = None,
    topic: str | None = None,
    sources: list[str] | None = None,
    official: bool = False,
) -> ListView:
    """Browse: a faction's or topic's records, or (no filter) the factions and topics with counts."""
    qm = index.query_model
    records = [r for r in index.records.values() if r.is_answer]
    if sources:
        records = [r for r in records if r.source in sources]
    if official:
        records = [r for r in records if r.grade in OFFICIAL_GRADES]
    if faction is None and topic is None:
        lines = []
        for key, info in qm.get("factions", {}).items():
            mine = [r for r in records if key in r.factions]
            group = info.get("group") or ""
            lines.append(FactionLine(key, info["name"], group, sum(r.source == "faq" for r in mine),
                                     sum(_is_section(r) for r in mine), GROUP_NAMES.get(group, group),
                                     info.get("bot_of")))
        first_seen = {g: i for i, g in reversed(list(enumerate(line.group for line in lines)))}
        lines.sort(key=lambda line: first_seen[line.group])  # each group together (bots under Clockwork)
        topics = [(k, n, sum(k in r.topics for r in records)) for k, n in qm.get("topics", {}).items()]
        return ListView("Factions and topics", factions=lines, topics=topics)
    if topic is not None:
        names = qm.get("topics", {})
        key = topic.strip().lower()
        if key not in names:
            match = [k for k, n in names.items() if n.lower() == key]
            if not match:
                raise UsageError(f"unknown topic '{topic}'", "try one of: " + ", ".join(names))
            key = match[0]
        title = names[key]
        chosen = [r for r in records if key in r.topics]
    else:
        title = faction_display(index, [faction])[0]
        # The faction a record is mainly about comes first in its tags: list those before passing mentions.
        chosen = sorted((r for r in records if faction in r.factions), key=lambda r: r.factions.index(faction) > 0)
    rulings = [hit_line(index, r) for r in chosen if r.source == "faq"]
    sections = [hit_line(index, r) for r in chosen if _is_section(r)]
    return ListView(title, rulings, sections)


# --- grades and sources -------------------------------------------------------------------------------------


@dataclass
class GradeLine:
    grade: str
    label: str
    meaning: str
    official: bool

    def to_json(self) -> dict:
        return {"grade": self.grade, "label": self.label, "meaning": self.meaning, "official": self.official}


def grade_legend() -> list[GradeLine]:
    """Every grade with its badge label, what it means, and whether --official keeps it."""
    return [GradeLine(g, GRADE_LABELS[g], GRADE_MEANINGS.get(g, ""), g in OFFICIAL_GRADES) for g in GRADE_LABELS]


@dataclass
class SourceSummary:
    source: str
    title: str
    records: int
    answers: int
    grades: dict[str, int]
    flags: dict[str, list[str]]
    detail: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"source": self.source, "title": self.title, "records": self.records, "answers": self.answers,
                "grades": self.grades, "flags": {k: {"count": len(v), "ids": v} for k, v in self.flags.items()},
                "detail": self.detail}


@dataclass
class SourcesView:
    sources: list[SourceSummary]
    unresolved_refs: dict[str, list[str]]
    question_problems: list[str]
    index_path: str | None
    index_notices: list[str]

    def to_json(self) -> dict:
        return {
            "sources": [s.to_json() for s in self.sources],
            "unresolved_refs": self.unresolved_refs,
            "question_problems": self.question_problems,
            "index": {"path": self.index_path, "notices": self.index_notices},
        }


def sources_view(index) -> SourcesView:
    """Per source: counts, the grade histogram and the flags; then cited sections no record holds."""
    qm = index.query_model
    titles = {
        "faq": " ".join(filter(None, [qm.get("faq", {}).get("title"), "FAQ", _dated(qm)])),
        "law": qm.get("law_title") or SOURCE_LABELS["law"],
        "outsiders": qm.get("outsiders_title") or SOURCE_LABELS["outsiders"],
    }
    summaries = []
    for source in SOURCES:
        mine = [r for r in index.records.values() if r.source == source]
        grades: dict[str, int] = {}
        for r in mine:
            grades[r.grade] = grades.get(r.grade, 0) + 1
        grades = dict(sorted(grades.items(), key=lambda kv: (-kv[1], kv[0])))
        flags: dict[str, list[str]] = {}
        for r in mine:
            for f in r.flags:
                flags.setdefault(f, []).append(r.id)
        detail: dict[str, object] = {}
        answered = [r for r in mine if r.is_answer and (r.source == "faq" or r.section)]
        if source == "faq":
            asked = sum(FLAG_RECONSTRUCTED_QUESTION in r.flags for r in answered)
            detail["reconstructed questions"] = f"{asked} of {len(answered)} answers"
        else:
            phrased = sum(bool(r.phrasings) for r in answered)
            detail["curated phrasings"] = f"{phrased} of {len(answered)} numbered records"
        if source == "law":
            basis: dict[str, int] = {}
            for r in mine:
                basis[r.section_basis or "none"] = basis.get(r.section_basis or "none", 0) + 1
            detail["numbers"] = basis
        if source == "outsiders":
            detail["parts"] = sum(1 for r in mine if not r.section)
            detail["sections"] = sum(1 for r in mine if _is_section(r))
            detail["sub_items"] = sum(1 for r in mine if r.section and not _is_section(r))
        summaries.append(SourceSummary(source, titles[source], len(mine), sum(r.is_answer for r in mine),
                                       grades, flags, detail))
    path = str(index.path) if getattr(index, "path", None) else None
    return SourcesView(summaries, dict(qm.get("unresolved_refs", {})), list(qm.get("question_problems", [])),
                       path, list(getattr(index, "notices", [])))


def _dated(qm: dict) -> str:
    date = qm.get("faq", {}).get("date")
    return f"({date})" if date else ""


# --- factions -----------------------------------------------------------------------------------------------


def faction_words(index) -> dict[str, str]:
    """Every name and nickname (lower case) that means exactly one faction first: name -> key."""
    table = {}
    for name, keys in index.query_model.get("faction_names", {}).items():
        keys = [k for k in keys if k and k != "-"]
        if keys:
            table[name] = keys[0]
    return table


def faction_completions(index, incomplete: str = "") -> list[tuple[str, str]]:
    """(word, faction name) pairs for shell completion: keys and one-word nicknames."""
    names = {k: v["name"] for k, v in index.query_model.get("factions", {}).items()}
    words = {**{k: k for k in names}, **{w: k for w, k in faction_words(index).items() if " " not in w}}
    start = incomplete.lower()
    return sorted((w, names.get(k, k)) for w, k in words.items() if w.startswith(start))


def read_factions(index, names: list[str]):
    """What each typed faction name was taken as (factions.FactionReading); UsageError for a mistake."""
    from ..corpus.factions import read_factions as read

    return read(index.query_model.get("factions", {}), names)


def resolve_factions(index, names: list[str]) -> list[str]:
    """Faction keys for names or nicknames, without repeats; UsageError for one that is no faction."""
    return [reading.key for reading in read_factions(index, names)]
