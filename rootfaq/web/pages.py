"""The web page's HTML: the views the terminal shows (rootfaq/views), laid out for a phone.

Pure functions from a view to a string; no web framework here. Every value that comes from the corpus or
from the request goes through `esc` (control characters shown as escapes, then HTML-escaped), every URL
through `quote`, and section numbers printed in text become links where `SectionNumbers.spans` finds
them. Scripts and styles are static files (`static/`), so the Content-Security-Policy forbids inline ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote, urlencode

from ..corpus.grades import OFFICIAL_GRADES, OFFICIAL_IN_WORDS
from ..corpus.records import FLAG_RECONSTRUCTED_QUESTION
from ..corpus.refs import SectionNumbers
from ..output import printable
from ..views.ask import AskView
from ..views.common import FLAG_NOTES, Badge, HitLine, Provenance, RefLine
from ..views.grades import GradeLine
from ..views.listing import FactionLine, ListView
from ..views.record import RecordView, Related
from ..views.section import SectionView

CITING_SHOWN = 8  # rulings citing a section listed under an answer; the rest fold away
SITE = "rootfaq"
TITLE_CHARS = 80


def esc(text: object) -> str:
    """Any value as HTML text or attribute: controls as visible escapes (a NUL stays `\\x00`), then escaped."""
    return escape(printable(str(text), lines=True), quote=True)


def browse_link(view: AskView) -> str:
    """Where to look when nothing answers: the rulings of the faction the question names, or the factions."""
    if view.browse_faction and view.asked_about:
        return (f'the <a href="/list?{urlencode({"faction": view.browse_faction})}">{esc(view.asked_about[0])}</a>'
                "'s rulings")
    return 'a <a href="/list">faction</a>'


def record_href(record_id: str) -> str:
    return "/record/" + quote(record_id, safe="")


def section_href(ref: str) -> str:
    return "/section/" + quote(ref, safe="")


def ask_href(question: str) -> str:
    return "/?" + urlencode({"q": question})


@dataclass
class AskForm:
    """The question box and its filters, as the request gave them (echoed back escaped)."""

    query: str = ""
    faction: str = ""  # a faction key, or "" for any
    official: bool = False


@dataclass
class Site:
    """What every page needs besides its view: the corpus's section numbers (to link them in text) and the
    factions the question box offers, as (key, name)."""

    numbers: SectionNumbers
    factions: list[tuple[str, str]] = field(default_factory=list)

    # --- the page around every view -------------------------------------------------------------------

    def page(self, title: str, main: str, form: AskForm | None = None) -> str:
        """A whole page: header, question box, the view, footer. `title` is plain text (a long question is
        cut to TITLE_CHARS in the browser's tab)."""
        box = self.ask_form(form or AskForm())
        short = title if len(title) <= TITLE_CHARS else title[:TITLE_CHARS].rsplit(" ", 1)[0] + "…"
        shown_title = f"{esc(short)} · {SITE}" if title != SITE else SITE
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            f"<title>{shown_title}</title>"
            '<link rel="stylesheet" href="/static/app.css">'
            '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            '<script src="/static/app.js" defer></script></head>\n<body>\n'
            '<a class="skip" href="#main">Skip to the answer</a>\n'
            f'<header class="top"><a class="home" href="/">{SITE}</a>'
            '<nav aria-label="Browse"><a href="/list">Factions</a><a href="/cheatsheet">Cheat sheet</a>'
            '<a href="/grades">Grades</a></nav></header>\n'
            f"{box}\n"
            f'<main id="main" tabindex="-1">\n{main}\n</main>\n'
            '<footer class="foot"><p>Every word shown comes from the FAQ, the Law of Root excerpts or The '
            "Outsiders rulebook; rootfaq writes no answer of its own. Questions marked "
            "<em>reconstructed</em> are our wording.</p></footer>\n"
            "</body></html>\n"
        )

    def ask_form(self, form: AskForm) -> str:
        """One box for a question, a post or a section number; a plain GET form, so it works without JavaScript."""
        options = ['<option value="">any faction</option>']
        options += [f'<option value="{esc(key)}"{" selected" if key == form.faction else ""}>{esc(name)}</option>'
                    for key, name in self.factions]
        checked = " checked" if form.official else ""
        return (
            '<form class="ask" action="/" method="get" role="search">'
            '<label for="q">Question, post or section number</label>'
            '<div class="row">'
            # A textarea, not an input: a post pasted in keeps its lines, which tell a title, a list and a
            # question typed without "?" apart from the story. The newline after the tag is the parser's to
            # drop, so a question that opens with a line break keeps it.
            f'<textarea id="q" name="q" rows="1" autocomplete="off" autocapitalize="off" spellcheck="false" '
            f'enterkeyhint="search" placeholder="hand limit · 4.3.2">\n{esc(form.query)}</textarea>'
            '<button type="submit">Ask</button></div>'
            '<div class="filters">'
            '<label class="hidden" for="faction">Faction</label>'
            f'<select id="faction" name="faction">{"".join(options)}</select>'
            f'<label class="check"><input type="checkbox" name="official" value="1"{checked}> official only</label>'
            "</div></form>"
        )

    # --- the pieces every view is made of -------------------------------------------------------------

    def linked(self, text: str) -> str:
        """Text escaped, each section number printed in it a link to its section."""
        out: list[str] = []
        at = 0
        for start, end, ref in self.numbers.spans(text):
            out += [esc(text[at:start]), f'<a href="{section_href(ref)}">{esc(text[start:end])}</a>']
            at = end
        out.append(esc(text[at:]))
        return "".join(out)

    def badge(self, badge: Badge, detail: bool = True) -> str:
        """The grade badge (solid: official; outlined: not), then its detail (section, or BGG year)."""
        kind = "official" if badge.grade in OFFICIAL_GRADES else "unofficial"
        html = f'<span class="badge {kind} g-{esc(badge.grade)}">{esc(badge.label)}</span>'
        if detail and badge.detail:
            html += f' <span class="detail">{self.linked(badge.detail)}</span>'
        return html

    def provenance(self, prov: Provenance) -> str:
        """'[Rulebook] 6.2.3 Field Hospitals · FAQ 2026-10-28 · Marquise de Cat', the grade sentence, notes."""
        source = prov.source + (f" {prov.date}" if prov.date else "")
        parts = [self.badge(prov.badge), f'<span class="nowrap">{esc(source)}</span>']
        if prov.factions:
            parts.append(esc(", ".join(prov.factions)))
        html = '<p class="prov">' + ' <span class="sep">·</span> '.join(parts) + "</p>"
        if prov.sentence:
            html += f'<p class="sentence">“{esc(prov.sentence)}”</p>'
        html += "".join(f'<p class="note">note: {esc(note)}</p>' for note in prov.notes
                        if note not in prov.said_above)
        return html

    def hit(self, line: HitLine) -> str:
        """One record on one line, a link that opens it."""
        return (f'<a class="hit" href="{record_href(line.id)}"><span class="id">{esc(line.id)}</span> '
                f'{self.badge(line.badge, detail=False)} <span class="title">{esc(line.title)}</span></a>')

    def hits(self, lines: Iterable[HitLine], tag: str = "ul") -> str:
        return f'<{tag} class="hits">' + "".join(f"<li>{self.hit(line)}</li>" for line in lines) + f"</{tag}>"

    def ref(self, line: RefLine) -> str:
        """A section number with its title, a link to the section; where it is printed when the corpus lacks it."""
        html = f'<a href="{section_href(line.ref)}">{esc(line.label)}</a>'
        if line.id:
            return html + f' <span class="id">{esc(line.id)}</span>'
        return html + f' <span class="dim">{esc(line.where or "not in these sources")}</span>'

    def refs(self, lines: Iterable[RefLine]) -> str:
        return '<ul class="refs">' + "".join(f"<li>{self.ref(line)}</li>" for line in lines) + "</ul>"

    def ids(self, record_ids: Iterable[str]) -> str:
        return ", ".join(f'<a href="{record_href(i)}">{esc(i)}</a>' for i in record_ids)

    # --- a record ---------------------------------------------------------------------------------------

    def record(self, view: RecordView, full: bool = True) -> str:
        """A record as `rootfaq show` lays it out: id line (with the reconstructed-question mark), path,
        heading, text, provenance, sub-items; then its related rules. `full` lists everything related;
        under an answer the cited sections' text is cut and long lists fold away."""
        top = f'<a class="id" href="{record_href(view.id)}">{esc(view.id)}</a>'
        if view.reconstructed:
            top += (f' <span class="recon" title="{esc(FLAG_NOTES[FLAG_RECONSTRUCTED_QUESTION])}">'
                    "· question reconstructed</span>")
        out = [f'<article class="record"><p class="idline">{top}</p>']
        if view.path:
            out.append('<p class="path">' + " › ".join(self.linked(step) for step in view.path) + "</p>")
        out.append(f'<h2 class="heading">{self.linked(view.heading)}</h2>')
        subs = self.sub_items(view, with_text=full)
        if view.missing:
            out.append('<p class="warn">The FAQ lost this answer; it is kept as a record but is not an answer.</p>')
        elif view.text:
            out.append(f'<div class="text">{self.linked(view.text)}</div>')
        elif subs:
            out.append(f'<p class="dim">A heading without text of its own. Its sections:</p>{subs}')
            subs = ""
        out.append(self.provenance(view.provenance))
        out.append(subs)
        out.append("</article>")
        out.append(self.related(view.related, full))
        return "".join(out)

    def sub_items(self, view: RecordView, with_text: bool) -> str:
        if not view.sub_items:
            return ""
        items = []
        for item in view.sub_items:
            text = f'<div class="text">{self.linked(item.text)}</div>' if with_text and item.text else ""
            items.append(f'<li class="d{min(item.depth, 3)}"><a href="{record_href(item.id)}">{esc(item.label)}</a>'
                         f"{text}</li>")
        return '<ul class="subs">' + "".join(items) + "</ul>"

    def related(self, rel: Related, full: bool) -> str:
        """Related rules: the cited sections' text, what they refer to, what refers to them, other rulings
        citing them, then a few records on the same topic."""
        if not rel:
            return ""
        out = ['<section class="related"><h3>Related rules</h3>']
        for rule in rel.rules:
            head = f'<h4><a href="{section_href(rule.ref)}">{esc(rule.label)}</a>'
            if rule.id is None:  # the corpus lacks it: say once where it is printed
                out.append(f'{head} <span class="dim">{esc(rule.where)}</span></h4>')
                continue
            out.append(f'{head} <span class="id">{esc(rule.id)}</span></h4><p class="dim">{esc(rule.where)}</p>')
            if rule.text:
                out.append(f'<div class="text">{self.linked(rule.text)}</div>')
            if rule.cut:
                out.append(f'<p><a href="{section_href(rule.ref)}">The whole of section {esc(rule.ref)}</a></p>')
            if rule.sub_items:
                subs = ", ".join(f'<a href="{record_href(s.id)}">{esc(s.label)}</a>' for s in rule.sub_items)
                out.append(f'<p class="dim">Sub-items: {subs}</p>')
            if rule.also_ids:
                out.append(f'<p class="dim">Also printed as: {self.ids(rule.also_ids)}</p>')
        if rel.same_number:
            out.append(f'<p class="dim">Same number also printed as: {self.ids(rel.same_number)}</p>')
        if rel.fan_notes:
            out.append(f"<h4>The Outsiders adds</h4>{self.hits(rel.fan_notes)}")
        for title, lines in (("Refers to", rel.cross_refs), ("Referred to by", rel.backlinks)):
            if lines:
                out.append(f"<h4>{title}</h4>{self.refs(lines)}")
        if rel.citing:
            title = "Other rulings citing the same section" if rel.rules else "Rulings citing it"
            shown = rel.citing if full else rel.citing[:CITING_SHOWN]
            out.append(f"<h4>{title}</h4>{self.hits(shown)}")
            rest = rel.citing[len(shown):]
            if rest:
                out.append(f"<details><summary>{len(rest)} more</summary>{self.hits(rest)}</details>")
        if rel.nearby:
            out.append(f"<h4>On the same topic</h4>{self.hits(rel.nearby)}")
        out.append("</section>")
        return "".join(out)

    # --- the screens --------------------------------------------------------------------------------------

    def home(self, form: AskForm) -> str:
        main = (
            '<h1 class="hidden">Ask a rules question</h1>'
            '<section class="intro"><p>Ask the way you would at the table: <a href="'
            f'{ask_href("can cats build in ruins")}">can cats build in ruins</a>, <a href="'
            f'{ask_href("does field hospitals work against a revolt")}">field hospitals against a revolt</a>, or a '
            f'section number: <a href="{section_href("4.3.2")}">4.3.2</a>, <a href="{section_href("BP.2.5.iv")}">'
            "bp 2.5 iv</a>.</p><p>Or browse a <a href=\"/list\">faction</a>, print a <a href=\"/cheatsheet\">"
            "cheat sheet</a>, or read what each <a href=\"/grades\">grade badge</a> means.</p></section>"
        )
        return self.page(SITE, main, form)

    def answer(self, view: AskView, form: AskForm) -> str:
        """`rootfaq ask`: the answer with its provenance and related rules, then other possible answers; when
        not sure, "Did you mean" with the candidates; a post of several questions, a block each."""
        main = f'<h1 class="hidden">Answer to: {esc(view.query)}</h1>' + self.answer_block(view)
        return self.page(form.query or view.query, main, form)

    def answer_block(self, view: AskView) -> str:
        out = [f'<p class="dim">Read “{esc(wrong)}” as “{esc(right)}”.</p>'
               for wrong, right in view.corrections.items()]
        out += [f'<p class="note">note: {esc(notice)}</p>' for notice in view.notices]
        if view.filters:
            out.append(f'<p class="dim">Filter: {esc("; ".join(view.filters))}</p>')
        if view.parts:
            out.append(f'<p class="dim">Your post asks {len(view.parts)} questions; each is answered on its own.</p>')
            for number, part in enumerate(view.parts, start=1):
                out.append(f'<section class="part"><h2 class="question">{esc(part.part_heading(number))}</h2>'
                           f"{self.answer_block(part)}</section>")
            return "".join(out)
        if view.unanswered:
            out.append(f'<p class="warn">Nothing in the sources answers “{esc(view.asked)}” clearly'
                       f"{esc(view.likely_note)}.</p>")
            out.append(f'<p class="dim">Try a section number (<a href="{section_href("4.3.2")}">4.3.2</a>), '
                       f'browse {browse_link(view)}, or ask with other words.</p>')
            return "".join(out)
        if view.candidates:
            out.append(f'<section class="unsure"><p class="warn">Not sure what answers “{esc(view.asked)}”'
                       f"{esc(view.likely_note)}. Did you mean:</p>{self.hits(view.candidates, 'ol')}</section>")
            if view.best is not None:
                out.append(f'<section class="likeliest"><h2 class="sub">The likeliest, 1:</h2>'
                           f"{self.record(view.best, full=False)}</section>")
            return "".join(out)
        if view.best is None:
            out.append(f'<p class="warn">Nothing found for “{esc(view.asked)}”.</p>')
            out.append('<p class="dim">Try fewer words, a faction nickname (cats, birds, WA), or a section number '
                       f'like <a href="{section_href("4.3.2")}">4.3.2</a>.</p>')
            return "".join(out)
        if view.reference:
            out.append(f'<p class="dim">Section {esc(view.reference)}: <a href="{section_href(view.reference)}">'
                       "every record under the number and who cites it</a></p>")
        out.append(f'<section class="best">{self.record(view.best, full=False)}</section>')
        if view.others:
            out.append(f'<section class="others"><h3>Other possible answers</h3>{self.hits(view.others)}</section>')
        return "".join(out)

    def record_page(self, view: RecordView) -> str:
        return self.page(f"{view.id}: {view.heading}", self.record(view, full=True))

    def section(self, view: SectionView) -> str:
        """`rootfaq section`: each record under the number, then the rulings citing it and the sections
        that refer to it (its backlinks)."""
        out = [f"<h1>Section {esc(view.ref)}</h1>"]
        if not view.holders:
            title = f" ({view.cited_title}, as the FAQ cites it)" if view.cited_title else ""
            out.append(f'<p class="warn">The corpus does not hold the text of section {esc(view.ref)}{esc(title)}.</p>')
            if view.nearest:
                near = ", ".join(f'<a href="{section_href(r)}">{esc(r)}</a>' for r in view.nearest)
                out.append(f'<p class="dim">Nearest sections: {near}</p>')
            elif not view.citing:
                out.append('<p class="dim">No section near it in these sources.</p>')
        out += [f'<section class="holder">{self.record(holder, full=True)}</section>' for holder in view.holders]
        if view.citing:
            out.append(f'<section class="citing"><h3>Rulings citing {esc(view.ref)}</h3>{self.hits(view.citing)}'
                       "</section>")
        if view.backlinks:
            out.append(f'<section class="backlinks"><h3>Sections that refer to {esc(view.ref)}</h3>'
                       f"{self.refs(view.backlinks)}</section>")
        return self.page(f"Section {view.ref}", "".join(out))

    def listing(self, view: ListView, form: AskForm | None = None) -> str:
        """`rootfaq list`: the factions by expansion and the topics, or one faction's rulings and sections
        (`form`: the question box set to ask about that faction)."""
        out = [f"<h1>{esc(view.title)}</h1>"]
        if view.factions:
            out.append('<section class="factions"><h2>Factions</h2>')
            group = None
            for line in view.factions:
                if line.group != group:
                    out.append(("</ul>" if group is not None else "") + f"<h3>{esc(line.group_name or line.group)}</h3>"
                               '<ul class="choices">')
                    group = line.group
                out.append(f'<li><a href="/list?{urlencode({"faction": line.key})}">{esc(line.name)}</a> '
                           f'<span class="dim">{_count(line.rulings, "ruling")}, {_count(line.sections, "section")}'
                           "</span></li>")
            out.append("</ul></section>")
        if view.topics:
            topics = "".join(f'<li><a href="/list?{urlencode({"topic": key})}">{esc(name)}</a> '
                             f'<span class="dim">{_count(count, "record")}</span></li>'
                             for key, name, count in view.topics)
            out.append(f'<section class="topics"><h2>Topics</h2><ul class="choices">{topics}</ul></section>')
        if view.rulings:
            out.append(f"<section><h2>Rulings ({len(view.rulings)})</h2>{self.hits(view.rulings)}</section>")
        if view.sections:
            out.append(f"<section><h2>Sections ({len(view.sections)})</h2>{self.hits(view.sections)}</section>")
        if not view.found:
            out.append('<p class="warn">Nothing to list.</p>')
        return self.page(view.title, "".join(out), form)

    def grades(self, lines: list[GradeLine]) -> str:
        """`rootfaq grades`: every badge with what it means."""
        items = "".join(
            f'<dt>{self.badge(Badge(line.grade, line.label))}{" <b>official</b>" if line.official else ""}</dt>'
            f"<dd>{esc(line.meaning)}</dd>"
            for line in lines
        )
        main = (f'<h1>Grades: where an answer comes from, strongest first</h1><dl class="grades">{items}</dl>'
                f'<p class="dim">“official only” keeps {esc(OFFICIAL_IN_WORDS)}.</p>')
        return self.page("Grades", main)

    def cheatsheet_form(self, factions: list[FactionLine]) -> str:
        """Pick the factions at the table; the sheet opens as the same page `rootfaq cheatsheet --format html`
        writes, to print from the browser."""
        groups: dict[str, list[FactionLine]] = {}
        for line in factions:
            groups.setdefault(line.group_name or line.group, []).append(line)
        boxes = "".join(
            f"<fieldset><legend>{esc(name)}</legend>"
            + "".join(f'<label class="check"><input type="checkbox" name="faction" value="{esc(f.key)}"> '
                      f"{esc(f.name)}</label>" for f in lines)
            + "</fieldset>"
            for name, lines in groups.items()
        )
        main = (
            "<h1>Cheat sheet</h1><p>Tick the factions at the table (none: every faction). The sheet opens as a "
            "page of its own; print it with the browser (on a phone: Share, then Print).</p>"
            f'<form class="sheet" action="/cheatsheet/sheet" method="get">{boxes}'
            '<fieldset><legend>What goes on it</legend>'
            f'<label class="check"><input type="checkbox" name="official" value="1"> official rulings only '
            f'({esc(OFFICIAL_IN_WORDS)})</label>'
            '<label class="check"><input type="checkbox" name="rules" value="1"> the Outsiders rule sections'
            "</label>"
            '<label class="check"><input type="checkbox" name="bots" value="1"> rulings about their Clockwork bots'
            "</label>"
            '<label for="paper">Paper</label><select id="paper" name="paper"><option value="a4">A4</option>'
            '<option value="letter">Letter</option></select></fieldset>'
            '<button type="submit">Open the sheet</button></form>'
        )
        return self.page("Cheat sheet", main)

    def error(self, heading: str, message: str, hint: str = "", form: AskForm | None = None) -> str:
        """A request rootfaq cannot answer: what went wrong and what to try, as the command line says it."""
        main = f'<h1>{esc(heading)}</h1><p class="warn">{esc(message)}</p>'
        if hint:
            main += f'<p class="dim">{self.linked(hint)}</p>'
        return self.page(heading, main, form)


def _count(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
