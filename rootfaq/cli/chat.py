"""`rootfaq chat`'s front end: the prompt loop on a terminal (or over stdin), around rootfaq/views/chat.py.

The logic is a state machine, `handle_line(state, line) -> (state, output)`: no terminal, no printing,
so tests drive it directly. The output is a list of views and `Message`s that the front end renders.
The front end (`run_chat`) uses prompt-toolkit: line editing, history kept across runs in the user data
directory, completion of commands and faction names. Ctrl-C cancels the line, Ctrl-D leaves.
"""

from __future__ import annotations

from ..render.chat import render_message, render_output
from ..render.console import rendered
from ..search.index import OpenIndex
from ..search.posts import MAX_READ_CHARS
from ..views.chat import COMMAND_WORDS, Message, handle_line, new_state, prompt_text
from ..views.factions import faction_words


def history_path():
    """The history file in the user data directory (XDG_DATA_HOME on Linux)."""
    from pathlib import Path

    import platformdirs

    return Path(platformdirs.user_data_dir("rootfaq", appauthor=False)) / "chat-history"


def run_chat(index: OpenIndex, console, factions: list[str] | None = None, debug: bool = False,
             interactive: bool = True) -> int:
    """The loop. Interactive: prompt-toolkit on the terminal. Otherwise one line at a time from stdin."""
    state = new_state(index, factions)
    read = _terminal_reader(index, console) if interactive else _stdin_reader()
    if interactive:
        console.print(render_message("Root rules companion. Ask a question; :help for commands, "
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
            console.print(render_message("(cancelled)", "warn"))
            continue
        except Exception as exc:  # never a traceback in the loop
            if debug:
                raise
            output = [Message(f"internal error: {type(exc).__name__}: {exc} (run with --debug for details)",
                              "error")]
        for item in output:
            console.file.write(rendered(console, render_output(item)))
        if output:
            console.file.write("\n")
        console.file.flush()
    return 0


def _stdin_reader():
    from .shell import stdin_lines

    lines = stdin_lines()

    def read(_prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    return read


def _terminal_reader(index: OpenIndex, console):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    history = kept_history(history_path())
    names = sorted({w for w in faction_words(index.library) if " " not in w})
    completer = WordCompleter(COMMAND_WORDS + names, ignore_case=True, sentence=False)
    held = HeldPaste()
    session = PromptSession(history=history, completer=completer, complete_while_typing=False,
                            key_bindings=_line_bindings(lambda: session.default_buffer, held),
                            input=_terminal_input())
    told = False

    def say(text: str, kind: str = "warn") -> None:
        console.file.write(rendered(console, render_message(text, kind)))
        console.file.flush()

    def tell_once() -> None:
        nonlocal told
        if history.problem and not told:
            say(f"history not kept: {history.problem}")
            told = True

    def read(prompt: str) -> str:
        tell_once()  # a problem found on opening, before the first prompt
        line = session.prompt(prompt)
        tell_once()  # a write that failed with this line (a full disk)
        if held.text is not None:
            line, size, held.text = held.text, held.size, None
            if size > MAX_READ_CHARS:
                say(f"note: a pasted post stops at {MAX_READ_CHARS:,} characters (of {size:,}); "
                    "the rest was left out")
        elif len(line) >= MAX_LINE_CHARS:
            say(f"note: a line stops at {MAX_LINE_CHARS:,} characters; the rest was left out")
        return line

    return read


# The line editor's work for every key and every redraw grows with the line (a 20,000-character line costs
# 30 ms a redraw here), so a long paste is not edited: it is answered at once, whole, as the post it is.
EDITABLE_CHARS = 5_000  # a paste that makes the line longer than this is answered at once
MAX_LINE_CHARS = 20_000  # keys arriving one by one stop here (Enter still ends the line)
PASTE_KEYS = 64  # a read of this many keys at once is a paste, not typing: a person types a key or two
PASTE_GAP = 0.05  # seconds: the rest of a paste arrives within this, or the paste has ended


class HeldPaste:
    """A paste too long to edit, held aside: the line shows its size, the loop gets the whole text."""

    text: str | None = None
    size: int = 0


def _line_bindings(buffer, held: HeldPaste):
    """Key bindings that keep the line editable: a long paste is held aside and the line accepted at once
    (HeldPaste), and keys typed past MAX_LINE_CHARS are swallowed (Enter still ends the line)."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    bindings = KeyBindings()

    @bindings.add("<any>", filter=Condition(lambda: len(buffer().text) >= MAX_LINE_CHARS))
    def _swallow(event) -> None:
        if event.data == "\r" or event.data == "\n":  # a newline in a paste still ends the line
            event.current_buffer.validate_and_handle()

    @bindings.add(Keys.BracketedPaste)
    def _paste(event) -> None:
        line = event.current_buffer
        pasted = event.data.replace("\r\n", "\n").replace("\r", "\n")
        if len(line.text) + len(pasted) <= EDITABLE_CHARS:
            line.insert_text(pasted)
            return
        whole = line.text + pasted
        held.text, held.size = whole[:MAX_READ_CHARS], len(whole)
        line.text = f"(a pasted post of {len(whole):,} characters)"
        line.validate_and_handle()

    return bindings


def as_paste(keys: list) -> list:
    """Keys read in one burst, as one paste key when they are plain text (a terminal that does not bracket
    pastes sends a post key by key): the text and its inner newlines become the paste; a final Enter
    stays a key so a short paste is answered (a long one is answered anyway: _line_bindings). Keys that
    are not text (arrows, Ctrl keys) leave the burst as it is."""
    from prompt_toolkit.key_binding import KeyPress
    from prompt_toolkit.keys import Keys

    if len(keys) < PASTE_KEYS:
        return keys
    end = len(keys)
    while end and keys[end - 1].key in (Keys.ControlM, Keys.ControlJ):
        end -= 1
    text = []
    for key in keys[:end]:
        if key.key in (Keys.ControlM, Keys.ControlJ):
            text.append("\n")
        elif key.key == Keys.ControlI:
            text.append("\t")
        elif key.key == key.data and len(key.data) == 1:
            text.append(key.data)
        else:
            return keys
    final = [] if end > EDITABLE_CHARS else keys[end:end + 1]
    return [KeyPress(Keys.BracketedPaste, "".join(text)), *final]


def _terminal_input():
    """The terminal's input, reading a burst of plain keys, and the rest of it that follows within
    PASTE_GAP, as one paste (as_paste); None (prompt-toolkit's own) where the terminal is not POSIX."""
    import select
    import sys

    try:
        from prompt_toolkit.input.vt100 import Vt100Input
    except ImportError:  # Windows
        return None

    class PasteInput(Vt100Input):
        def read_keys(self):
            keys = super().read_keys()
            while len(keys) >= PASTE_KEYS and len(keys) <= MAX_READ_CHARS \
                    and select.select([self.fileno()], [], [], PASTE_GAP)[0]:
                more = super().read_keys()
                if not more:
                    break
                keys += more
            return as_paste(keys)

    return PasteInput(sys.stdin)


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
        if path.is_symlink():  # appending through a link would write wherever it points
            raise OSError(40, "Is a symbolic link (not followed)")
        if path.is_dir():
            raise IsADirectoryError(21, "Is a folder")
        if path.exists() and not path.is_file():
            raise OSError(0, "Not a regular file")
        with open(path, "ab"), open(path, "rb"):  # both now, so a problem shows before the first prompt
            pass
    except OSError as exc:
        history.fail(exc)
    return history
