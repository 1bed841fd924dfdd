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
    import sys

    def read(_prompt: str) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read


def _terminal_reader(index: OpenIndex, console):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    history = kept_history(history_path())
    names = sorted({w for w in faction_words(index.library) if " " not in w})
    completer = WordCompleter(COMMAND_WORDS + names, ignore_case=True, sentence=False)
    session = PromptSession(history=history, completer=completer, complete_while_typing=False,
                            key_bindings=_line_limit(lambda: session.default_buffer))
    told = False

    def tell_once() -> None:
        nonlocal told
        if history.problem and not told:
            console.file.write(rendered(console, render_message(f"history not kept: {history.problem}",
                                                                              "warn")))
            console.file.flush()
            told = True

    def read(prompt: str) -> str:
        tell_once()  # a problem found on opening, before the first prompt
        line = session.prompt(prompt)
        tell_once()  # a write that failed with this line (a full disk)
        if len(line) >= MAX_LINE_CHARS:
            console.file.write(rendered(console, render_message(
                f"note: a line stops at {MAX_LINE_CHARS:,} characters; the rest of the paste was left out", "warn")))
        return line

    return read


# A pasted line longer than this is cut: the line editor does work in proportion to the line's length for
# every key, so a 110 KB paste typed in key by key took minutes; a post is read up to 5,000 characters anyway.
MAX_LINE_CHARS = 20_000


def _line_limit(buffer):
    """Key bindings that swallow printable keys once the line holds MAX_LINE_CHARS (Enter still ends it)."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("<any>", filter=Condition(lambda: len(buffer().text) >= MAX_LINE_CHARS))
    def _swallow(event) -> None:
        if event.data == "\r" or event.data == "\n":  # a newline in a paste still ends the line
            event.current_buffer.validate_and_handle()

    return bindings


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
