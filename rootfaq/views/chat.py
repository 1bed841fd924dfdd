"""`rootfaq chat`: the prompt loop's logic as a state machine over the same search and views as the commands.

`handle_line(state, line) -> (state, output)`: no terminal, no printing, so tests drive it directly. The
output is a list of views and `Message`s that the front end (rootfaq/cli/chat.py) renders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..corpus.library import Library
from ..corpus.terms import TermMatcher, words
from ..errors import RootfaqError, UsageError
from ..search.answers import Answer, ask_repairing
from . import factions
from .ask import ask_view
from .common import HitLine, faction_display, filter_labels, hit_line
from .grades import grade_legend
from .record import record_view
from .section import section_view
from .show import resolve_id

if TYPE_CHECKING:  # a view reads only the index's library and notices, and hands the index on to search
    from ..search.index import OpenIndex

FETCH = 30  # hits fetched per question, so :more has something to show
OTHERS = 4  # one-line hits under the answer
MORE = 5  # hits per :more

COMMANDS = [
    (":section REF", "a rule with its sub-items and who cites it (:section 4.3.2)"),
    (":show ID", "one record in full (:show faq-108)"),
    (":faction NAME", "only answers about a faction (:faction cats); :faction off to clear"),
    (":more", "the next answers to the last question"),
    (":grades", "what the grade badges mean"),
    (":help", "this list"),
    (":quit", "leave (or Ctrl-D)"),
]
COMMAND_WORDS = [c.split()[0] for c, _ in COMMANDS] + [":q", ":exit"]


@dataclass
class Message:
    text: str
    kind: str = "info"  # info, warn, error


@dataclass
class More:
    hits: list[HitLine]
    remaining: int


@dataclass
class Help:
    commands: list[tuple[str, str]]


@dataclass(frozen=True)
class ChatState:
    """Everything the loop remembers between lines."""

    index: OpenIndex = field(compare=False, repr=False)
    factions: tuple[str, ...] = ()  # the :faction filter
    last_query: str | None = None
    last_answer: Answer | None = field(default=None, compare=False, repr=False)
    shown: int = 0  # hits of last_answer already shown
    candidates: tuple[str, ...] = ()  # when the last answer was not sure: its candidates, opened by number
    done: bool = False


def new_state(index: OpenIndex, factions: list[str] | None = None) -> ChatState:
    """The state a chat starts in, with an optional faction filter (faction keys)."""
    return ChatState(index=index, factions=tuple(factions or ()))


def handle_line(state: ChatState, line: str) -> tuple[ChatState, list]:
    """One line typed at the prompt: a command, a follow-up, or a question.

    A mistake (unknown faction, unknown id, not a section number) comes back as an error `Message`
    and leaves the state as it was.
    """
    try:
        return _handle(state, line)
    except RootfaqError as exc:
        return state, [Message(exc.message, "error")] + ([Message(f"hint: {exc.hint}")] if exc.hint else [])


def _handle(state: ChatState, line: str) -> tuple[ChatState, list]:
    text = line.strip()
    if not text:
        return state, []
    if text.startswith(":"):
        return _command(state, text)
    if text.lower() in ("quit", "exit", "bye"):
        return replace(state, done=True), [Message("Bye.")]
    if text.isdigit() and state.candidates:  # "2": the second candidate of the last not-sure answer
        number = int(text)
        if not 1 <= number <= len(state.candidates):
            return state, [Message(f"choose 1 to {len(state.candidates)}, or ask a question", "error")]
        record = state.index.library.records[state.candidates[number - 1]]
        return state, _repaired(state.index, lambda: record_view(state.index, record))
    follow = follow_up(state, text)
    if follow is not None:
        question, keys = follow
        out: list = [Message(f"→ {question}")]
        if state.factions and tuple(keys) != state.factions:  # the sticky filter follows the new faction
            was = ", ".join(faction_display(state.index.library, list(state.factions)))
            now = ", ".join(faction_display(state.index.library, keys))
            out.append(Message(f"faction filter now: {now} (was {was}; :faction off to clear)", "warn"))
            state = replace(state, factions=tuple(keys))
        new_state_, shown = _ask(state, question)
        return new_state_, out + shown
    return _ask(state, text)


def _ask(state: ChatState, question: str) -> tuple[ChatState, list]:
    answer = ask_repairing(state.index, question, factions=list(state.factions) or None, limit=FETCH)
    filters = filter_labels(state.index.library, list(state.factions), None, False)
    view = ask_view(state.index, answer, others=OTHERS, filters=filters)
    candidates = tuple(line.id for line in view.candidates)
    return replace(state, last_query=answer.query or question, last_answer=answer, shown=view.used,
                   candidates=candidates), [view]


def _command(state: ChatState, text: str) -> tuple[ChatState, list]:
    name, _, arg = text.partition(" ")
    name, arg = name.lower(), arg.strip()
    if name in (":quit", ":q", ":exit"):
        return replace(state, done=True), [Message("Bye.")]
    if name in (":help", ":h", ":?"):
        return state, [Help(COMMANDS)]
    if name == ":grades":
        return state, [grade_legend()]
    if name == ":more":
        return _more(state)
    if name == ":section":
        if not arg:
            return state, [Message("usage: :section 4.3.2", "error")]
        view = section_view(state.index, arg)
        return state, [view]
    if name == ":show":
        if not arg:
            return state, [Message("usage: :show faq-108", "error")]
        return state, _repaired(state.index, lambda: record_view(state.index,
                                                                      resolve_id(state.index, arg)))
    if name == ":faction":
        return _faction(state, arg)
    return state, [Message(f"unknown command {name}{did_you_mean(name)}; :help lists them", "error")]


def did_you_mean(name: str) -> str:
    """" (did you mean :section?)" for a mistyped command, or "" when none is close."""
    import difflib

    close = difflib.get_close_matches(name, COMMAND_WORDS, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _repaired(index: OpenIndex, build) -> list:
    """A view whose related rules search the index, rebuilt once if whoosh fails; a note says so."""
    before = len(index.notices)
    view = index.repairing(build)
    return [Message(f"note: {notice}", "warn") for notice in index.notices[before:]] + [view]


def _more(state: ChatState) -> tuple[ChatState, list]:
    answer = state.last_answer
    if answer is None:
        return state, [Message("Ask a question first; :more shows its next answers.", "warn")]
    hits = answer.hits[state.shown : state.shown + MORE]
    lines = [hit_line(h.record, h.score) for h in hits]
    shown = state.shown + len(hits)
    return replace(state, shown=shown), [More(lines, max(0, len(answer.hits) - shown))]


def _faction(state: ChatState, arg: str) -> tuple[ChatState, list]:
    if not arg:
        if state.factions:
            names = ", ".join(faction_display(state.index.library, list(state.factions)))
            return state, [Message(f"faction filter: {names} (:faction off to clear)")]
        return state, [Message("no faction filter (:faction cats to set one)")]
    if arg.lower() in ("off", "none", "all", "clear"):
        return replace(state, factions=()), [Message("faction filter off")]
    try:
        readings = factions.read_factions(state.index.library, _split_names(arg))  # several: ":faction cats and birds"
    except UsageError as whole:
        # ":faction cats birds": several names with spaces between, when every word is one (else the error)
        try:
            readings = factions.read_factions(state.index.library, arg.split()) if len(arg.split()) > 1 else None
        except UsageError:
            readings = None
        if readings is None:
            raise whole from None
    keys = [r.key for r in readings]
    names = ", ".join(faction_display(state.index.library, keys))
    notes = "; ".join(r.note for r in readings if r.note)
    message = f"faction filter: {names}" + (f" ({notes})" if notes else "")
    return replace(state, factions=tuple(keys)), [Message(message)]


def _split_names(arg: str) -> list[str]:
    parts = [p.strip() for p in re.split(r",|\band\b|&", arg) if p.strip()]
    return parts or [arg]


# --- follow-ups ---------------------------------------------------------------------------------------------

_FOLLOW_UP = re.compile(
    r"^\s*(?:(?:and\s+)?(?:what|how)\s+about|and(?:\s+(?:for|with|as|if\s+i'?m|if\s+it'?s))?|same\s+for"
    r"|now\s+for|what\s+if\s+i'?m)\s+(?P<rest>.+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_LEADING = re.compile(r"^(?:(?:for|with|as|the|a|an|playing)\s+)+", re.IGNORECASE)


def follow_up(state: ChatState, text: str) -> tuple[str, list[str]] | None:
    """("the previous question with the new faction", [faction keys]) when the line is a follow-up."""
    if not state.last_query:
        return None
    m = _FOLLOW_UP.match(text)
    if not m:
        return None
    table = factions.faction_words(state.index.library)
    named: list[str] = []
    keys: list[str] = []
    for part in _split_names(m["rest"]):
        part = _LEADING.sub("", part.strip()).strip().lower()
        key = table.get(part)
        if key is None:
            return None
        named.append(part)
        if key not in keys:
            keys.append(key)
    if not named:
        return None
    return swap_faction(state.index.library, state.last_query, " and ".join(named)), keys


def swap_faction(library: Library, question: str, new: str) -> str:
    """The question with its first faction name replaced by `new`, or `new` appended when it names none."""
    matcher = TermMatcher({name: [key] for name, key in factions.faction_words(library).items()})
    tokens = words(question)
    spans = matcher.spans(tokens)
    if not spans:
        return f"{question.rstrip(' ?.!')} for the {new}"
    start, end, _ = spans[0]
    return " ".join(tokens[:start] + [new] + tokens[end:])


def prompt_text(state: ChatState) -> str:
    """The prompt, showing the faction filter when one is set."""
    if state.factions:
        return f"rootfaq [{','.join(state.factions)}]> "
    return "rootfaq> "
