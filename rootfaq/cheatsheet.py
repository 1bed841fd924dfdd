"""Printable cheat sheet: the rulings that matter for the factions at the table, as HTML, PDF or Markdown.

`select_entries` is pure: filters in, a `Sheet` out. The renderers turn a sheet into text or bytes, and
`write_sheet` puts them on disk atomically. `run_cheatsheet` is what the command calls:

    run_cheatsheet(index, factions: list[str], official: bool, sources: list[str] | None,
                   query: str | None, rules: bool, fmt: str | None, output: Path | str, force: bool,
                   paper: str = "a4", progress: Callable[[str], None] | None = None) -> tuple[Path, int]

    $ rootfaq cheatsheet --faction cats --official --format pdf -o cats.pdf

It returns the path written and how many items the sheet holds (rulings plus Outsiders rule sections).
`fmt` is "html", "pdf" or "md" (None: from the file suffix); `paper` is "a4" or "letter"; `progress`, when
given, is called with a short phrase before each slow step. Errors are `UsageError` (bad option, file
exists: "use --force") and `NotFound` (nothing matches the filters).

PDF without a browser: fpdf2. It is pure Python (no Cairo, no system libraries), maintained, and draws
text with the PDF core fonts, so the file is small and its text extracts cleanly. The core fonts only
know Latin-1; `to_latin1` maps the corpus's dashes and quotes to their nearest Latin-1 spelling.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import NotFound, UsageError
from .records import GRADE_LABELS, OFFICIAL_GRADES, SOURCES, Record, number_basis
from .refs import roman_to_int

# Rulings come from the FAQ and the Law excerpts; Outsiders sections are rules, printed with --rules.
DEFAULT_SOURCES = ("faq", "law")
SOURCE_ORDER = {name: i for i, name in enumerate(("law", "outsiders", "faq"))}

# With --query, a sheet wants more than the top five answers but not the tail that shares one word.
QUERY_LIMIT = 40
QUERY_MIN_SHARE = 0.4

FORMATS = {"html": ".html", "pdf": ".pdf", "md": ".md"}
FORMAT_ALIASES = {"markdown": "md", "htm": "html"}
# Paper: width and height in mm, and the CSS name.
PAPERS = {"a4": (210.0, 297.0, "A4"), "letter": (215.9, 279.4, "letter")}

# The layout's promise: one faction's official rulings, section index included, fit on this many pages,
# A4 or Letter, printed from the HTML by Chromium or drawn by fpdf2. Measured on the shipped corpus: at most
# 4 (Vagabond, 46 rulings, Chromium; fpdf2 3), Marquise 3 (42); one page of headroom for a growing FAQ.
# tests/test_cheatsheet.py holds us to it.
MAX_PAGES_ONE_FACTION_OFFICIAL = 5

# A grade's badge: a letter code and a short word. Printed as "[D] Designer 2019", so it reads the same in
# grayscale or on a photocopy; official grades are also drawn solid, the others outlined and dashed.
GRADE_BADGES: dict[str, tuple[str, str]] = {
    "law": ("L", "Law"),
    "rulebook": ("R", "Rulebook"),
    "designer": ("D", "Designer"),
    "publisher": ("P", "Publisher"),
    "consensus": ("C", "Consensus"),
    "best-reading": ("B", "Best reading"),
    "community": ("1", "One answer"),
    "disputed": ("!", "Disputed"),
    "ungraded": ("?", "Ungraded"),
    "fan-rule": ("F", "Fan rule"),
}
RECONSTRUCTED = "(reconstructed)"
GENERAL = "General"


@dataclass
class Entry:
    """One ruling as printed: question, answer, grade badge and the section it concerns."""

    number: int
    id: str
    source: str
    question: str | None
    reconstructed: bool
    answer: str
    grade: str
    official: bool
    year: int | None = None
    section: str | None = None
    section_title: str | None = None
    number_basis: str | None = None  # for a Law paragraph, how its number was found
    xrefs: list[str] = field(default_factory=list)

    @property
    def badge_code(self) -> str:
        return f"[{GRADE_BADGES[self.grade][0]}]"

    @property
    def badge_text(self) -> str:
        """'Designer 2019', 'Rulebook'."""
        word = GRADE_BADGES[self.grade][1]
        return f"{word} {self.year}" if self.year else word

    @property
    def badge(self) -> str:
        return f"{self.badge_code} {self.badge_text}"

    @property
    def section_label(self) -> str:
        """'4.3.2 Step 2: Roll Dice', '1.3.2 (number inferred from the Law's order)', or ''."""
        if not self.section:
            return ""
        label = f"{self.section} {self.section_title}" if self.section_title else self.section
        return f"{label} ({self.number_basis})" if self.number_basis else label



@dataclass
class RuleLine:
    """One Outsiders rule section in compact form; depth 0 for BP.2, 1 for BP.2.1, 2 for BP.2.5.i."""

    section: str
    title: str | None
    text: str
    depth: int


@dataclass
class Group:
    """A faction's or topic's entries, ordered by section, and for Outsiders factions their rules."""

    key: str
    title: str
    kind: str  # "faction", "topic" or "general"
    subtitle: str = ""
    entries: list[Entry] = field(default_factory=list)
    rules_title: str | None = None
    rules: list[RuleLine] = field(default_factory=list)


@dataclass
class SourceInfo:
    key: str
    title: str
    date: str | None


@dataclass
class LegendItem:
    grade: str
    code: str
    word: str
    label: str
    official: bool


@dataclass
class IndexLine:
    """A section number, its title, and the numbers of the entries that concern or cite it."""

    section: str
    title: str | None
    entries: list[int]


@dataclass
class Sheet:
    title: str
    filters: list[str]
    sources: list[SourceInfo]
    groups: list[Group]
    legend: list[LegendItem]
    section_index: list[IndexLine]

    @property
    def entry_count(self) -> int:
        return sum(len(g.entries) for g in self.groups)

    @property
    def rule_count(self) -> int:
        return sum(len(g.rules) for g in self.groups)

    def entries(self) -> list[Entry]:
        return [e for g in self.groups for e in g.entries]


# ---------------------------------------------------------------------------------------------- selection


def section_key(section: str) -> tuple:
    """Sort key for section numbers: 2.10 after 2.9, sub-items by roman value, Law appendices after chapters."""
    key = []
    for i, part in enumerate(section.split(".")):
        if part.isdigit():
            key.append((1, int(part), ""))
        elif re.fullmatch(r"[ivx]+", part):
            key.append((2, roman_to_int(part), ""))
        else:
            key.append((3 if i == 0 else 2, 0, part))
    return tuple(key)


def _entry_order(record: Record) -> tuple:
    return (
        record.section is None,
        section_key(record.section) if record.section else (),
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
        from .search import ask

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



def _rules_for(index, prefix: str) -> tuple[list[RuleLine], str | None]:
    """An Outsiders faction's rule sections in section order, and its part heading's version line."""
    records = [
        r
        for r in index.records.values()
        if r.source == "outsiders" and r.is_answer and r.section and r.section.split(".")[0] == prefix
    ]
    records.sort(key=lambda r: section_key(r.section))
    lines = [RuleLine(r.section, r.section_title, " ".join(r.text.split()), r.section.count(".") - 1)
             for r in records]
    version = None
    for r in records:
        parent = index.records.get(r.parent or "")
        if parent is not None and parent.section is None and 0 < len(parent.text) <= 60:
            version = " ".join(parent.text.split())
            break
    return lines, version


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
    from .search import resolve_faction

    model = index.query_model
    known: dict[str, dict] = model["factions"]
    topics: dict[str, str] = model.get("topics", {})
    keys = list(dict.fromkeys(resolve_faction(index, name) for name in factions or []))
    wanted = _check_sources(sources)
    if query is not None and not query.strip():
        raise UsageError("the query is empty", "give a few words with --query, or leave it out")

    rule_blocks: dict[str, tuple[list[RuleLine], str | None]] = {}
    if rules:
        for key in keys or list(known):
            info = known[key]
            if info.get("group") == "outsiders" and info.get("prefix"):
                rule_blocks[key] = _rules_for(index, info["prefix"])
    covered = {line.section for lines, _ in rule_blocks.values() for line in lines}

    # A section heading without text of its own (its sub-items hold the rules) is no entry.
    records = [
        r for r in _candidates(index, keys, official, wanted, query)
        if r.text.strip() and not (r.source == "outsiders" and r.section in covered)
    ]
    records.sort(key=_entry_order)

    groups: dict[str, Group] = {}
    for key in keys:
        groups[key] = _faction_group(key, known[key])
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
    for key, (lines, version) in rule_blocks.items():
        group = groups.setdefault(key, _faction_group(key, known[key]))
        group.rules = lines
        group.rules_title = f"{known[key]['name']} rules" + (f" ({version})" if version else "")

    ordered = list(groups.values()) if keys else _ordered_groups(groups, known, topics)
    number = 0
    for group in ordered:
        for entry in group.entries:
            number += 1
            entry.number = number

    return Sheet(
        title=_title(keys, known, query),
        filters=_filters(keys, known, official, sources, wanted, query, rules),
        sources=_sources(ordered, model),
        groups=ordered,
        legend=_legend(ordered),
        section_index=_section_index(index, ordered),
    )


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
    return [IndexLine(ref, titles.get(ref), nums) for ref, nums in sorted(by_section.items(),
                                                                         key=lambda kv: section_key(kv[0]))]


# ---------------------------------------------------------------------------------------------- HTML


def _paper(paper: str) -> tuple[float, float, str]:
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise UsageError(f"unknown paper '{paper}'", f"use one of: {', '.join(PAPERS)}") from None


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


_CSS = """
@page {
  size: %(size)s;
  margin: 12mm 11mm 14mm 11mm;
  @bottom-left { content: %(footer)s; font: 7pt Helvetica, Arial, sans-serif; color: #000; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7pt Helvetica, Arial, sans-serif;
                  color: #000; }
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #000; background: #fff;
       font: 8.4pt/1.28 "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; }
@media screen { body { max-width: %(width)smm; margin: 8mm auto; padding: 0 11mm; } }
header.sheet { border-bottom: 1.2pt solid #000; padding-bottom: 1.6mm; margin-bottom: 2.4mm; }
h1 { font-size: 13pt; margin: 0 0 1mm; }
header.sheet p { margin: 0.4mm 0; }
.label { font-weight: bold; }
.legend span.item { white-space: nowrap; margin-right: 2.4mm; }
.columns { column-count: 2; column-gap: 6mm; column-rule: 0.4pt solid #777; column-fill: auto; }
@media screen { .columns { column-fill: balance; } }
h2 { font-size: 10.2pt; margin: 0 0 1.2mm; padding: 0.6mm 0 0.4mm; border-bottom: 1pt solid #000;
     break-after: avoid; }
h2 .sub { font-weight: normal; font-size: 7.4pt; }
.keep { break-inside: avoid; page-break-inside: avoid; }
.group { margin-bottom: 3mm; }
.entry { break-inside: avoid; page-break-inside: avoid; margin: 0 0 1.6mm; padding-bottom: 1.3mm;
         border-bottom: 0.4pt dotted #888; }
.meta { font-size: 7.2pt; margin-bottom: 0.4mm; }
.num { font-weight: bold; margin-right: 1mm; }
.badge { display: inline-block; font: bold 6.8pt/1.25 Helvetica, Arial, sans-serif; padding: 0 1mm;
         border: 0.8pt solid #000; border-radius: 0.8mm; margin-right: 1mm; white-space: nowrap; }
.badge.official { background: #000; color: #fff; }
.badge.unofficial { background: #fff; color: #000; border-style: dashed; }
.sec { font-style: italic; }
.q { font-weight: bold; margin: 0; }
.recon { font-weight: normal; font-style: italic; font-size: 7.2pt; }
.a { margin: 0.3mm 0 0; }
.none { font-style: italic; }
.rules h3 { font-size: 8.6pt; margin: 1.4mm 0 0.8mm; break-after: avoid; }
.rule { font-size: 7.4pt; line-height: 1.22; margin: 0 0 0.7mm; break-inside: avoid; }
.rule .rs { font-weight: bold; }
.d1 { margin-left: 2.5mm; } .d2 { margin-left: 5mm; } .d3 { margin-left: 7.5mm; }
.index { font-size: 7.2pt; }
.index p { margin: 0 0 0.3mm; break-inside: avoid; }
"""


def _badge_html(code: str, text: str, official: bool, title: str) -> str:
    kind = "official" if official else "unofficial"
    return f'<span class="badge {kind}" title="{html.escape(title)}">{html.escape(code)} {html.escape(text)}</span>'


def _entry_html(entry: Entry) -> str:
    esc = html.escape
    meta = [f'<span class="num">{entry.number}</span>',
            _badge_html(entry.badge_code, entry.badge_text, entry.official, GRADE_LABELS[entry.grade])]
    if entry.section:
        meta.append(f'<span class="sec">\u00a7\u202f{esc(entry.section_label)}</span>')
    question = esc(entry.question) if entry.question else '<span class="none">(question not recorded)</span>'
    if entry.reconstructed:
        question += f' <span class="recon">{RECONSTRUCTED}</span>'
    return (f'<article class="entry" id="e{entry.number}"><div class="meta">{" ".join(meta)}</div>'
            f'<p class="q">{question}</p><p class="a">{esc(entry.answer)}</p></article>')


def _group_html(group: Group) -> list[str]:
    esc = html.escape
    sub = f' <span class="sub">{esc(group.subtitle)}</span>' if group.subtitle else ""
    heading = f"<h2>{esc(group.title)}{sub}</h2>"
    parts = [f'<section class="group" id="g-{esc(group.key)}">']
    if group.entries:
        # The heading travels with the first entry: never alone at the foot of a column.
        parts.append(f'<div class="keep">{heading}{_entry_html(group.entries[0])}</div>')
        parts.extend(_entry_html(e) for e in group.entries[1:])
    else:
        parts.append(heading)
        if not group.rules:
            parts.append('<p class="none">No ruling for this faction matches these filters.</p>')
    if group.rules:
        parts.append('<div class="rules">')
        badge = _badge_html("[F]", "Fan rule", False, GRADE_LABELS["fan-rule"])
        first = _rule_html(group.rules[0])
        parts.append(f'<div class="keep"><h3>{badge}{esc(group.rules_title or "")}</h3>{first}</div>')
        parts.extend(_rule_html(line) for line in group.rules[1:])
        parts.append("</div>")
    parts.append("</section>")
    return parts


def _rule_html(line: RuleLine) -> str:
    esc = html.escape
    head = esc(line.section + (f" {line.title}" if line.title else ""))
    text = f" {esc(line.text)}" if line.text else ""
    return f'<p class="rule d{min(line.depth, 3)}"><span class="rs">{head}</span>{text}</p>'


def render_html(sheet: Sheet, paper: str = "a4") -> str:
    """A self-contained HTML page that prints well: two columns, no entry split, page numbers."""
    esc = html.escape
    width, _, size = _paper(paper)
    css = _CSS % {"size": size, "footer": _css_string(sheet.title), "width": f"{width:g}"}
    sources = " \u00b7 ".join(
        f"{esc(s.title)} ({'updated ' + esc(s.date) if s.date else 'undated'})" for s in sheet.sources
    )
    legend = " ".join(
        f'<span class="item">{_badge_html(item.code, item.word, item.official, item.label)}{esc(item.label)}</span>'
        for item in sheet.legend
    )
    body = [
        '<header class="sheet">',
        f"<h1>{esc(sheet.title)}</h1>",
        f'<p><span class="label">Filters:</span> {esc("; ".join(sheet.filters))}</p>',
        f'<p><span class="label">Sources:</span> {sources or "none"}</p>',
        f'<p class="legend"><span class="label">Grades:</span> {legend} '
        "Solid badge: official (Law, rulebook, designer, publisher); outlined: not official. "
        f"Questions marked {RECONSTRUCTED} were written for this FAQ's answers.</p>",
        "</header>",
        '<main class="columns">',
    ]
    for group in sheet.groups:
        body.extend(_group_html(group))
    if sheet.section_index:
        lines = [
            f'<p><b>{esc(line.section)}</b> {esc(line.title or "")} \u2026 {", ".join(map(str, line.entries))}</p>'
            for line in sheet.section_index
        ]
        body.append('<section class="index"><div class="keep"><h2>Section index</h2>'
                    + lines[0] + "</div>" + "".join(lines[1:]) + "</section>")
    body.append("</main>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(sheet.title)}</title><style>{css}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


# ---------------------------------------------------------------------------------------------- Markdown


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_block(text: str) -> str:
    """Escaped text that starts a block: a leading "1." or "-" must not turn it into a list."""
    return re.sub(r"^(\d+)([.)])|^([-+])", lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", _md(text))


def render_markdown(sheet: Sheet) -> str:
    """Markdown for wikis and chat: a heading per group; per entry a bold question line, then the answer quoted.

    No trailing-space line breaks: chat clients and editors drop them.
    """
    sources = " · ".join(f"{_md(s.title)} ({'updated ' + s.date if s.date else 'undated'})" for s in sheet.sources)
    legend = " · ".join(f"`{i.code}` {_md(i.label)}" for i in sheet.legend)
    out = [
        f"# {_md(sheet.title)}",
        "",
        f"- **Filters:** {_md('; '.join(sheet.filters))}",
        f"- **Sources:** {sources or 'none'}",
        f"- **Grades:** {legend}; official: Law, rulebook, designer, publisher",
        f"- **{RECONSTRUCTED}:** a question written for the FAQ's answer",
    ]
    for group in sheet.groups:
        out += ["", f"## {_md(group.title)}" + (f" ({_md(group.subtitle)})" if group.subtitle else ""), ""]
        if not group.entries and not group.rules:
            out.append("_No ruling for this faction matches these filters._")
        for entry in group.entries:
            question = _md(entry.question) if entry.question else "(question not recorded)"
            recon = f" _{RECONSTRUCTED}_" if entry.reconstructed else ""
            where = f" · § {_md(entry.section_label)}" if entry.section else ""
            out.append(f"**{entry.number}. {question}**{recon} · `{entry.badge}`{where}")
            out += [f"> {_md_block(entry.answer)}", ""]
        if group.rules:
            out += [f"### {_md(group.rules_title or '')} `[F] Fan rule`", ""]
            for line in group.rules:
                head = line.section + (f" {line.title}" if line.title else "")
                text = f": {_md(line.text)}" if line.text else ""
                out.append(f"{'  ' * line.depth}- **{_md(head)}**{text}")
    if sheet.section_index:
        out += ["", "## Section index", "", "| Section | Entries |", "| --- | --- |"]
        for line in sheet.section_index:
            label = _md(f"{line.section} {line.title}" if line.title else line.section)
            out.append(f"| {label} | {', '.join(map(str, line.entries))} |")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------- PDF

_LATIN1 = str.maketrans({
    "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2022": "\u00b7", "\u2026": "...", "\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u200b": "",
    "\u2192": "->", "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u00d7": "x",
})


def to_latin1(text: str) -> str:
    """Text the PDF core fonts can draw: dashes and quotes to ASCII, accents kept, the rest as '?'."""
    text = text.translate(_LATIN1)
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(plain if plain and all(ord(c) < 256 for c in plain) else "?")
    return "".join(out)


# Sizes in pt and mm for the PDF layout; the HTML uses the same proportions.
_PDF_MARGIN = 11.0
_PDF_TOP = 12.0
_PDF_BOTTOM = 14.0
_PDF_GUTTER = 6.0
_PT = 0.3528  # mm per point


@dataclass
class _Run:
    text: str
    style: str = ""  # "", "B", "I"
    size: float = 8.2
    badge: bool | None = None  # a grade badge: True solid (official), False outlined


@dataclass
class _Para:
    runs: list[_Run]
    indent: float = 0.0
    space_before: float = 0.0
    leading: float = 1.25
    rule_below: float = 0.0  # line width of a rule under the paragraph, mm
    dotted_below: bool = False  # the thin dotted line that ends an entry


class _Layout:
    """Flows paragraphs into two columns; a block (one entry) moves whole to the next column when it
    does not fit, and is split line by line only when it is taller than a column."""

    def __init__(self, pdf, width: float, height: float):
        self.pdf = pdf
        self.width, self.height = width, height
        self.col_w = (width - 2 * _PDF_MARGIN - _PDF_GUTTER) / 2
        self.bottom = height - _PDF_BOTTOM
        self.col = 0
        self.top = _PDF_TOP
        self.y = _PDF_TOP

    # -- measuring
    def _font(self, run: _Run) -> None:
        self.pdf.set_font("Helvetica", run.style, run.size)

    def _badge_w(self, run: _Run) -> float:
        self.pdf.set_font("Helvetica", "B", run.size - 1)
        return self.pdf.get_string_width(run.text) + 2.0

    def wrap(self, para: _Para, width: float) -> list[list[_Run]]:
        """Greedy word wrap over runs of mixed style; a badge is one unbreakable word."""
        lines: list[list[_Run]] = [[]]
        used = 0.0
        for run in para.runs:
            if run.badge is not None:
                pieces = [run.text]
            else:
                pieces = re.findall(r"\S+\s*|\s+", run.text)
            for piece in pieces:
                if run.badge is not None:
                    w = self._badge_w(run) + 1.8
                else:
                    self._font(run)
                    w = self.pdf.get_string_width(piece.rstrip())
                if used + w > width and used > 0:
                    lines.append([])
                    used = 0.0
                    if run.badge is None:
                        piece = piece.lstrip()
                        if not piece:
                            continue
                while run.badge is None and w > width:  # a word wider than the column: cut it
                    cut = len(piece)
                    while cut > 1 and self.pdf.get_string_width(piece[:cut]) > width:
                        cut -= 1
                    lines[-1].append(_Run(piece[:cut], run.style, run.size))
                    lines.append([])
                    piece = piece[cut:]
                    w = self.pdf.get_string_width(piece.rstrip())
                    used = 0.0
                lines[-1].append(_Run(piece, run.style, run.size, run.badge))
                if run.badge is not None:
                    used += w
                else:
                    self._font(run)
                    used += self.pdf.get_string_width(piece)
        return [line for line in lines if line]

    def _line_h(self, para: _Para, line: list[_Run]) -> float:
        return max(r.size for r in line) * _PT * para.leading

    def measure(self, paras: list[_Para]) -> float:
        total = 0.0
        for para in paras:
            total += para.space_before + para.rule_below * 2 + (0.8 if para.dotted_below else 0)
            total += sum(self._line_h(para, line) for line in self.wrap(para, self.col_w - para.indent))
        return total

    # -- placing
    def _x(self) -> float:
        return _PDF_MARGIN + self.col * (self.col_w + _PDF_GUTTER)

    def next_column(self) -> None:
        if self.col == 0:
            self.col = 1
        else:
            self.new_page()
        self.y = self.top

    def new_page(self) -> None:
        self.pdf.add_page()
        self.col = 0
        self.top = _PDF_TOP
        self.y = self.top
        self.column_rule()

    def column_rule(self) -> None:
        x = _PDF_MARGIN + self.col_w + _PDF_GUTTER / 2
        self.pdf.set_draw_color(120)
        self.pdf.set_line_width(0.15)
        self.pdf.line(x, self.top, x, self.bottom)
        self.pdf.set_draw_color(0)

    def block(self, paras: list[_Para]) -> None:
        height = self.measure(paras)
        if self.y + height > self.bottom and self.y > self.top:
            self.next_column()
        for para in paras:
            self.y += para.space_before
            for line in self.wrap(para, self.col_w - para.indent):
                h = self._line_h(para, line)
                if self.y + h > self.bottom:  # only for blocks taller than a column
                    self.next_column()
                self.draw_line(line, self._x() + para.indent, self.y, h)
                self.y += h
            if para.rule_below:
                self.y += para.rule_below
                self.pdf.set_line_width(para.rule_below)
                self.pdf.line(self._x(), self.y, self._x() + self.col_w, self.y)
                self.y += para.rule_below
            if para.dotted_below:
                self.y += 0.8
                with self.pdf.local_context():
                    self.pdf.set_draw_color(130)
                    self.pdf.set_line_width(0.15)
                    self.pdf.set_dash_pattern(dash=0.4, gap=0.5)
                    self.pdf.line(self._x(), self.y, self._x() + self.col_w, self.y)

    def draw_line(self, line: list[_Run], x: float, y: float, h: float) -> None:
        pdf = self.pdf
        start = x
        for run in line:
            if run.badge is not None:
                if x > start:
                    x += 0.8
                w = self._badge_w(run)
                pdf.set_line_width(0.25)
                if run.badge:
                    pdf.set_fill_color(0)
                    pdf.rect(x, y + 0.25, w, h - 0.5, style="DF")
                    pdf.set_text_color(255)
                else:
                    with pdf.local_context():
                        pdf.set_dash_pattern(dash=0.6, gap=0.4)
                        pdf.rect(x, y + 0.25, w, h - 0.5, style="D")
                pdf.set_xy(x, y)
                pdf.cell(w, h, run.text, align="C")
                pdf.set_text_color(0)
                x += w + 1.0
            else:
                self._font(run)
                w = pdf.get_string_width(run.text)
                pdf.set_xy(x, y)
                pdf.cell(w, h, run.text)
                x += w


def _pdf_entry(entry: Entry) -> list[_Para]:
    meta = [_Run(f"{entry.number} ", "B", 7), _Run(to_latin1(entry.badge), "B", 7, entry.official)]
    if entry.section:
        meta.append(_Run("\u00a7 " + to_latin1(entry.section_label), "I", 7))
    question = [_Run(to_latin1(entry.question or "(question not recorded)"), "B", 8.2)]
    if entry.reconstructed:
        question.append(_Run(" " + RECONSTRUCTED, "I", 7))
    return [
        _Para(meta, space_before=1.2),
        _Para(question, space_before=0.2),
        _Para([_Run(to_latin1(entry.answer), "", 8.2)], space_before=0.2, dotted_below=True),
    ]


def _pdf_heading(title: str, subtitle: str = "") -> _Para:
    runs = [_Run(to_latin1(title), "B", 10.2)]
    if subtitle:
        runs.append(_Run("  " + to_latin1(subtitle), "", 7.4))
    return _Para(runs, space_before=2.0, rule_below=0.35)


def render_pdf(sheet: Sheet, path: Path | str | None = None, paper: str = "a4", force: bool = False) -> bytes:
    """The sheet as a PDF drawn by fpdf2 (no browser); written atomically to `path` when given."""
    from fpdf import FPDF

    width, height, _ = _paper(paper)
    footer_title = to_latin1(sheet.title)

    class SheetPDF(FPDF):
        def footer(self) -> None:
            self.set_y(-_PDF_BOTTOM + 4)
            self.set_font("Helvetica", "", 7)
            self.set_x(_PDF_MARGIN)
            self.cell(0, 4, footer_title[:110])
            self.set_x(_PDF_MARGIN)
            self.cell(width - 2 * _PDF_MARGIN, 4, f"Page {self.page_no()} of {{nb}}", align="R")

    pdf = SheetPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(_PDF_MARGIN, _PDF_TOP, _PDF_MARGIN)
    pdf.set_title(footer_title)
    pdf.set_creator("rootfaq")
    pdf.add_page()
    layout = _Layout(pdf, width, height)

    # The header spans both columns: lay it out once at full width, then start the columns under it.
    layout.col_w = width - 2 * _PDF_MARGIN
    legend: list[_Run] = [_Run("Grades: ", "B", 7.4)]
    for item in sheet.legend:
        legend += [_Run(f"{item.code} {item.word}", "B", 7.4, item.official),
                   _Run(to_latin1(item.label) + "   ", "", 7.4)]
    legend.append(_Run("Solid badge: official (Law, rulebook, designer, publisher); outlined: not official. "
                       f"Questions marked {RECONSTRUCTED} were written for this FAQ's answers.", "", 7.4))
    sources = " - ".join(f"{s.title} ({'updated ' + s.date if s.date else 'undated'})" for s in sheet.sources)
    layout.block([
        _Para([_Run(to_latin1(sheet.title), "B", 13)]),
        _Para([_Run("Filters: ", "B", 7.4), _Run(to_latin1("; ".join(sheet.filters)), "", 7.4)], space_before=1),
        _Para([_Run("Sources: ", "B", 7.4), _Run(to_latin1(sources or "none"), "", 7.4)], space_before=0.3),
        _Para(legend, space_before=0.3, leading=1.4, rule_below=0.45),
    ])
    layout.col_w = (width - 2 * _PDF_MARGIN - _PDF_GUTTER) / 2
    layout.top = layout.y + 1.5
    layout.y = layout.top
    layout.column_rule()

    for group in sheet.groups:
        heading = _pdf_heading(group.title, group.subtitle)
        if group.entries:
            layout.block([heading, *_pdf_entry(group.entries[0])])  # heading travels with its first entry
            for entry in group.entries[1:]:
                layout.block(_pdf_entry(entry))
        elif not group.rules:
            layout.block([heading, _Para([_Run("No ruling for this faction matches these filters.", "I", 8)])])
        else:
            layout.block([heading])
        for i, line in enumerate(group.rules):
            head = line.section + (f" {line.title}" if line.title else "")
            para = _Para([_Run(to_latin1(head) + " ", "B", 7.2), _Run(to_latin1(line.text), "", 7.2)],
                         indent=2.5 * min(line.depth, 3), space_before=0.6, leading=1.2)
            if i == 0:
                title = _Para([_Run("[F] Fan rule", "B", 7.2, False),
                               _Run(to_latin1(group.rules_title or ""), "B", 8.4)], space_before=1.6)
                layout.block([title, para])
            else:
                layout.block([para])
    for i, line in enumerate(sheet.section_index):
        para = _Para([_Run(line.section + " ", "B", 7.2),
                      _Run(to_latin1(line.title or "") + " ... " + ", ".join(map(str, line.entries)), "", 7.2)],
                     space_before=0.2, leading=1.2)
        layout.block([_pdf_heading("Section index"), para] if i == 0 else [para])

    data = bytes(pdf.output())
    if path is not None:
        write_sheet(data, path, force)
    return data


# ---------------------------------------------------------------------------------------------- writing


def write_sheet(content: str | bytes, path: Path | str, force: bool = False) -> Path:
    """Write text or bytes to `path` atomically; refuse to replace an existing file unless `force`."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a directory", "give a file name with -o")
    if path.exists() and not force:
        raise UsageError(f"{path} already exists", "use --force to overwrite it")
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"the directory {parent} does not exist", "create it, or choose another path with -o")
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise UsageError(f"cannot write in {parent}: {exc.strerror or exc}", "choose another path with -o") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        if force:
            os.replace(temp, path)
        else:
            _publish_new(temp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}", "choose another path with -o") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    return path


def _publish_new(temp: str, path: Path) -> None:
    """Rename into place without replacing a file that appeared since we looked (link fails if it exists)."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise UsageError(f"{path} already exists", "use --force to overwrite it") from None
    except OSError:
        os.replace(temp, path)  # a file system without hard links: the plain rename


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# ---------------------------------------------------------------------------------------------- command


def resolve_format(fmt: str | None, output: Path) -> str:
    """'html', 'pdf' or 'md' from the option, else from the output's suffix."""
    if fmt:
        name = FORMAT_ALIASES.get(fmt.lower(), fmt.lower())
    else:
        suffix = output.suffix.lower().lstrip(".")
        name = FORMAT_ALIASES.get(suffix, suffix)
        if name not in FORMATS:
            raise UsageError(f"cannot tell the format from '{output.name}'", "add --format html, pdf or md")
    if name not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'", "use --format html, pdf or md")
    return name


def run_cheatsheet(
    index,
    factions: list[str],
    official: bool,
    sources: list[str] | None,
    query: str | None,
    rules: bool,
    fmt: str | None,
    output: Path | str,
    force: bool,
    paper: str = "a4",
    progress: Callable[[str], None] | None = None,
) -> tuple[Path, int]:
    """Select, render and write a cheat sheet; return where it went and how many items it holds."""
    path = Path(output)
    name = resolve_format(fmt, path)
    _paper(paper)
    if path.exists() and not force:  # fail before doing the work
        raise UsageError(f"{path} already exists", "use --force to overwrite it")
    step = progress or (lambda _phrase: None)
    step("selecting rulings")
    sheet = select_entries(index, factions, official, sources, query, rules)
    if not sheet.entry_count and not sheet.rule_count:
        outsiders = [g.title for g in sheet.groups if g.subtitle.startswith("outsiders")]
        hint = ("Outsiders factions have rule sections rather than rulings: add --rules" if outsiders and not rules
                else "drop --official or --query, or choose other factions")
        raise NotFound("nothing to print: no ruling matches these filters", hint)
    step(f"rendering {sheet.entry_count + sheet.rule_count} items as {name}")
    if name == "html":
        content: str | bytes = render_html(sheet, paper)
    elif name == "md":
        content = render_markdown(sheet)
    else:
        content = render_pdf(sheet, paper=paper)
    step(f"writing {path}")
    write_sheet(content, path, force)
    return path, sheet.entry_count + sheet.rule_count
