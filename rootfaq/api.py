"""The library: what scripts, the command line and the web page (`rootfaq serve`) all call.

    import rootfaq
    rootfaq.ask("can the cats build in a ruin?")          # the `ask --json` object
    rootfaq.ask("ambush", factions=["birds"], official=True, limit=3)
    rootfaq.section("bp 2.5 iv")                          # the `section --json` object
    rootfaq.record("faq-108")                             # the `show --json` object
    rootfaq.records(factions=["cats"], topic="battle")    # the `list --json` object

Each returns plain JSON-ready data, the same contract the command line prints (README "JSON"). Bad input
raises `rootfaq.errors.UsageError` (an unknown faction, a limit out of range, a question that is not a
str) and a damaged corpus or index `rootfaq.errors.RootfaqError`; both carry a message and a hint. The
index is opened (built on first use) once per process; `Companion` holds one explicitly, for a caller that
wants the objects behind the JSON (the web page renders views from them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .corpus.records import check_sources
from .errors import UsageError
from .search.answers import Answer, ask_repairing
from .search.index import OpenIndex

LIMIT_MAX = 50  # answers per question: the first in full, the rest one line each


@dataclass(frozen=True)
class Request:
    """What an ask is limited to, read and checked once at the edge (command line, web form, script)."""

    factions: tuple[str, ...] = ()  # faction keys ("marquise"), any of them
    sources: tuple[str, ...] = ()  # "faq", "law", "outsiders"; none means all
    official: bool = False  # Leder Games' own text only
    limit: int = 5

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, int) or not 1 <= self.limit <= LIMIT_MAX:
            raise UsageError(f"limit takes a whole number from 1 to {LIMIT_MAX}, not '{self.limit}'",
                             "for example: limit=3")


def text_argument(value, name: str, example: str) -> str:
    """`value` when it is a str; else UsageError naming the argument (a script passing None or a number gets
    that said plainly, not an AttributeError from deep inside search)."""
    if not isinstance(value, str):
        raise UsageError(f"{name} must be text (a str), not {type(value).__name__}", f"for example: {example}")
    return value


def text_arguments(values: Iterable[str] | str, name: str, example: str) -> list[str]:
    """One name or a list of names, each a str (text_argument)."""
    if isinstance(values, str):
        return [values]
    try:
        items = list(values)
    except TypeError:
        raise UsageError(f"{name} must be a name or a list of names, not {type(values).__name__}",
                         f"for example: {example}") from None
    return [text_argument(item, f"each name in {name}", example) for item in items]


class Companion:
    """One opened index and everything asked of it. `Companion.open()` builds the index on first use."""

    def __init__(self, index: OpenIndex) -> None:
        self.index = index

    @classmethod
    def open(cls, rebuild: bool = False, progress: Callable[..., None] | None = None) -> Companion:
        from .search import store

        return cls(store.open_index(rebuild=rebuild, progress=progress))

    def request(self, factions: Iterable[str] = (), sources: Iterable[str] = (), official: bool = False,
                limit: int = 5) -> Request:
        """A Request from names as players type them ("cats", "vaga"); UsageError for an unknown one."""
        from .views.factions import resolve_factions

        names = text_arguments(factions, "factions", 'factions=["cats", "birds"]')
        chosen = text_arguments(sources, "sources", 'sources=["faq"]')
        keys = resolve_factions(self.index.library, names) if names else []
        return Request(tuple(keys), tuple(check_sources(chosen) or ()), bool(official), limit)

    def answer(self, question: str, request: Request = Request()) -> Answer:
        """The Answer object: scored hits, certainty, notices, one part per question of a post."""
        question = text_argument(question, "the question", 'ask("can the cats build in a ruin?")')
        return ask_repairing(self.index, question, factions=list(request.factions) or None,
                             sources=list(request.sources) or None, official=request.official,
                             limit=request.limit)

    def screen(self, answer: Answer, request: Request = Request()):
        """The AskView a screen draws for an answer (the terminal, the web page): the best in full, then
        `request.limit - 1` others one line each, under a line naming the filters."""
        from .views.ask import ask_view
        from .views.common import filter_labels

        library = self.index.library
        filters = filter_labels(library, list(request.factions), list(request.sources) or None, request.official)
        return ask_view(self.index, answer, others=request.limit - 1, filters=filters)

    def ask(self, question: str, factions: Iterable[str] = (), sources: Iterable[str] = (),
            official: bool = False, limit: int = 5) -> dict:
        """The `ask --json` object for one question (or a whole forum post)."""
        from .views.contract import answer_json

        return answer_json(self.answer(question, self.request(factions, sources, official, limit)))

    def section(self, ref: str) -> dict:
        """The `section --json` object: the rule, its sub-items and path, the rulings that cite it. An
        unknown number has `found: false` and the nearest existing numbers."""
        from .views.section import section_view

        return section_view(self.index, text_argument(ref, "the section number", 'section("4.3.2")')).to_json()

    def record(self, record_id: str) -> dict:
        """The `show --json` object for a record id ("faq-108", "108", "rule-BP.2.5"); UsageError if none."""
        from .views.record import record_view
        from .views.show import resolve_id

        record_id = text_argument(record_id, "the record id", 'record("faq-108")')
        return self.index.repairing(lambda: record_view(self.index, resolve_id(self.index, record_id))).to_json()

    def records(self, factions: Iterable[str] = (), topic: str | None = None, sources: Iterable[str] = (),
                official: bool = False) -> dict:
        """The `list --json` object: rulings and sections about any of the factions and on the topic."""
        from .views.listing import list_view

        request = self.request(factions, sources, official)
        if topic is not None:
            topic = text_argument(topic, "the topic", 'records(topic="battle")')
        return list_view(self.index.library, factions=list(request.factions), topic=topic,
                         sources=list(request.sources) or None, official=official).to_json()


@functools.cache
def companion() -> Companion:
    """The process's Companion, opened on first use."""
    return Companion.open()


def ask(question: str, *, factions: Iterable[str] = (), sources: Iterable[str] = (), official: bool = False,
        limit: int = 5) -> dict:
    return companion().ask(question, factions, sources, official, limit)


def section(ref: str) -> dict:
    return companion().section(ref)


def record(record_id: str) -> dict:
    return companion().record(record_id)


def records(*, factions: Iterable[str] = (), topic: str | None = None, sources: Iterable[str] = (),
            official: bool = False) -> dict:
    return companion().records(factions, topic, sources, official)


ask.__doc__ = Companion.ask.__doc__
section.__doc__ = Companion.section.__doc__
record.__doc__ = Companion.record.__doc__
records.__doc__ = Companion.records.__doc__
