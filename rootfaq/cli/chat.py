"""`rootfaq chat`: a prompt loop over the same search and views as the commands.

The logic is a state machine, `handle_line(state, line) -> (state, output)`: no terminal, no printing,
so tests drive it directly. The output is a list of views and `Message`s that the front end renders.
The front end (`run_chat`) uses prompt-toolkit: line editing, history kept across runs in the user data
directory, completion of commands and faction names. Ctrl-C cancels the line, Ctrl-D leaves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..corpus.terms import TermMatcher, words
from ..errors import RootfaqError
from ..views import screens as views

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
    hits: list[views.HitLine]
    remaining: int


@dataclass
class Help:
    commands: list[tuple[str, str]]


@dataclass(frozen=True)
class ChatState:
    """Everything the loop remembers between lines."""

    index: object = field(compare=False, repr=False)
    factions: tuple[str, ...] = ()  # the :faction filter
    last_query: str | None = None
    last_answer: object = field(default=None, compare=False, repr=False)
    shown: int = 0  # hits of last_answer already shown
    done: bool = False


def new_state(index, factions: list[str] | None = None) -> ChatState:
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
    follow = follow_up(state, text)
    if follow is not None:
        question, keys = follow
        out: list = [Message(f"→ {question}")]
        if state.factions and tuple(keys) != state.factions:  # the sticky filter follows the new faction
            was = ", ".join(views.faction_display(state.index, list(state.factions)))
            now = ", ".join(views.faction_display(state.index, keys))
            out.append(Message(f"faction filter now: {now} (was {was}; :faction off to clear)", "warn"))
            state = replace(state, factions=tuple(keys))
        new_state_, shown = _ask(state, question)
        return new_state_, out + shown
    return _ask(state, text)


def _ask(state: ChatState, question: str) -> tuple[ChatState, list]:
    from ..search import answers as search

    answer = search.ask_repairing(state.index, question, factions=list(state.factions) or None, limit=FETCH)
    filters = views.filter_labels(state.index, list(state.factions), None, False)
    view = views.ask_view(state.index, answer, others=OTHERS, filters=filters)
    return replace(state, last_query=answer.query or question, last_answer=answer, shown=view.used), [view]


def _command(state: ChatState, text: str) -> tuple[ChatState, list]:
    name, _, arg = text.partition(" ")
    name, arg = name.lower(), arg.strip()
    if name in (":quit", ":q", ":exit"):
        return replace(state, done=True), [Message("Bye.")]
    if name in (":help", ":h", ":?"):
        return state, [Help(COMMANDS)]
    if name == ":grades":
        return state, [views.grade_legend()]
    if name == ":more":
        return _more(state)
    if name == ":section":
        if not arg:
            return state, [Message("usage: :section 4.3.2", "error")]
        from ..search import answers as search

        view = views.section_view(state.index, arg, nearest_refs=search.nearest_refs)
        return state, [view]
    if name == ":show":
        if not arg:
            return state, [Message("usage: :show faq-108", "error")]
        return state, _repaired(state.index, lambda: views.record_view(state.index,
                                                                      views.resolve_id(state.index, arg)))
    if name == ":faction":
        return _faction(state, arg)
    return state, [Message(f"unknown command {name}{did_you_mean(name)}; :help lists them", "error")]


def did_you_mean(name: str) -> str:
    """" (did you mean :section?)" for a mistyped command, or "" when none is close."""
    import difflib

    close = difflib.get_close_matches(name, COMMAND_WORDS, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _repaired(index, build) -> list:
    """A view whose related rules search the index, rebuilt once if whoosh fails; a note says so."""
    before = len(index.notices)
    view = index.repairing(build)
    return [Message(f"note: {notice}", "warn") for notice in index.notices[before:]] + [view]


def _more(state: ChatState) -> tuple[ChatState, list]:
    answer = state.last_answer
    if answer is None:
        return state, [Message("Ask a question first; :more shows its next answers.", "warn")]
    hits = answer.hits[state.shown : state.shown + MORE]
    lines = [views.hit_line(state.index, h.record, h.score) for h in hits]
    shown = state.shown + len(hits)
    return replace(state, shown=shown), [More(lines, max(0, len(answer.hits) - shown))]


def _faction(state: ChatState, arg: str) -> tuple[ChatState, list]:
    if not arg:
        if state.factions:
            names = ", ".join(views.faction_display(state.index, list(state.factions)))
            return state, [Message(f"faction filter: {names} (:faction off to clear)")]
        return state, [Message("no faction filter (:faction cats to set one)")]
    if arg.lower() in ("off", "none", "all", "clear"):
        return replace(state, factions=()), [Message("faction filter off")]
    readings = views.read_factions(state.index, _split_names(arg))  # several: ":faction cats and birds"
    keys = [r.key for r in readings]
    names = ", ".join(views.faction_display(state.index, keys))
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
    table = views.faction_words(state.index)
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
    return swap_faction(state.index, state.last_query, " and ".join(named)), keys


def swap_faction(index, question: str, new: str) -> str:
    """The question with its first faction name replaced by `new`, or `new` appended when it names none."""
    matcher = TermMatcher({name: [key] for name, key in views.faction_words(index).items()})
    tokens = words(question)
    spans = matcher.spans(tokens)
    if not spans:
        return f"{question.rstrip(' ?.!')} for the {new}"
    start, end, _ = spans[0]
    return " ".join(tokens[:start] + [new] + tokens[end:])


# --- front end ----------------------------------------------------------------------------------------------


def history_path():
    """The history file in the user data directory (XDG_DATA_HOME on Linux)."""
    from pathlib import Path

    import platformdirs

    return Path(platformdirs.user_data_dir("rootfaq", appauthor=False)) / "chat-history"


def prompt_text(state: ChatState) -> str:
    """The prompt, showing the faction filter when one is set."""
    if state.factions:
        return f"rootfaq [{','.join(state.factions)}]> "
    return "rootfaq> "


def run_chat(index, console, factions: list[str] | None = None, debug: bool = False, interactive: bool = True) -> int:
    """The loop. Interactive: prompt-toolkit on the terminal. Otherwise one line at a time from stdin."""
    from ..render import screens as render

    state = new_state(index, factions)
    read = _terminal_reader(index, console) if interactive else _stdin_reader()
    if interactive:
        console.print(render.render_message("Root rules companion. Ask a question; :help for commands, "
                                            "Ctrl-D to leave."))
    while not state.done:
        try:
            line = read(prompt_text(state))
        except KeyboardInterrupt:
            continue  # Ctrl-C: drop the line, ask again
        except EOFError:
            break
        try:
            state, output = handle_line(state, line)
        except KeyboardInterrupt:
            console.print(render.render_message("(cancelled)", "warn"))
            continue
        except Exception as exc:  # never a traceback in the loop
            if debug:
                raise
            output = [Message(f"internal error: {type(exc).__name__}: {exc} (run with --debug for details)",
                              "error")]
        for item in output:
            console.file.write(render.rendered(console, _renderable(item)))
        if output:
            console.file.write("\n")
        console.file.flush()
    return 0


def _renderable(item):
    from ..render import screens as render

    if isinstance(item, Message):
        return render.render_message(item.text, item.kind)
    if isinstance(item, views.AskView):
        return render.render_ask(item)
    if isinstance(item, views.SectionView):
        return render.render_section(item)
    if isinstance(item, views.RecordView):
        return render.render_record(item)
    if isinstance(item, More):
        return render.render_more(item.hits, item.remaining)
    if isinstance(item, Help):
        return render.render_help(item.commands)
    if isinstance(item, list):
        return render.render_grades(item)
    raise TypeError(f"nothing renders {type(item).__name__}")


def _stdin_reader():
    import sys

    def read(_prompt: str) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read


def _terminal_reader(index, console):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    from ..render import screens as render

    history = kept_history(history_path())
    names = sorted({w for w in views.faction_words(index) if " " not in w})
    completer = WordCompleter(COMMAND_WORDS + names, ignore_case=True, sentence=False)
    session = PromptSession(history=history, completer=completer, complete_while_typing=False)
    told = False

    def tell_once() -> None:
        nonlocal told
        if history.problem and not told:
            console.file.write(render.rendered(console, render.render_message(f"history not kept: {history.problem}",
                                                                              "warn")))
            console.file.flush()
            told = True

    def read(prompt: str) -> str:
        tell_once()  # a problem found on opening, before the first prompt
        line = session.prompt(prompt)
        tell_once()  # a write that failed with this line (a full disk)
        return line

    return read


def kept_history(path):
    """prompt-toolkit's FileHistory that never breaks the prompt.

    A history file that is a folder, unreadable, unwritable or on a full disk makes the history live in
    memory for the rest of the run, and `problem` says why in one line, instead of prompt-toolkit's
    traceback and "Press ENTER to continue" at every prompt.
    """
    from prompt_toolkit.history import FileHistory

    class KeptHistory(FileHistory):
        problem: str | None = None

        def fail(self, exc: OSError) -> None:
            if self.problem is None:
                reason = exc.strerror or type(exc).__name__
                self.problem = f"{path}: {reason[0].lower()}{reason[1:]}"

        def load_history_strings(self):
            if self.problem:
                return []
            try:
                return list(super().load_history_strings())
            except OSError as exc:
                self.fail(exc)
                return []

        def store_string(self, string: str) -> None:
            if self.problem:
                return
            try:
                super().store_string(string)
            except OSError as exc:
                self.fail(exc)

    history = KeptHistory(str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            raise IsADirectoryError(21, "Is a folder")
        if path.exists() and not path.is_file():
            raise OSError(0, "Not a regular file")
        with open(path, "ab"), open(path, "rb"):  # both now, so a problem shows before the first prompt
            pass
    except OSError as exc:
        history.fail(exc)
    return history
