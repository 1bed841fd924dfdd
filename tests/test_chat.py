"""The chat loop: the state machine line by line, then the real program in a pseudo-terminal (pexpect)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rootfaq.cli import chat as chat_front
from rootfaq.render.chat import render_output
from rootfaq.render.console import make_console, to_text
from rootfaq.views import chat
from rootfaq.views.ask import AskView
from rootfaq.views.chat import ChatState, Help, Message, More, handle_line, new_state
from rootfaq.views.common import faction_display
from rootfaq.views.record import RecordView
from rootfaq.views.section import SectionView

ROOTFAQ = Path(sys.executable).with_name("rootfaq")


def feed(state: ChatState, *lines: str) -> tuple[ChatState, list]:
    output: list = []
    for line in lines:
        state, output = handle_line(state, line)
    return state, output


def messages(output: list) -> list[str]:
    return [item.text for item in output if isinstance(item, Message)]


def answer(output: list) -> AskView:
    found = [item for item in output if isinstance(item, AskView)]
    assert len(found) == 1, output
    return found[0]


# --- the state machine --------------------------------------------------------------------------------------


def test_a_question_is_answered_and_remembered(index):
    state, output = handle_line(new_state(index), "does field hospitals work against a revolt")
    view = answer(output)
    assert view.best is not None and view.best.id == "faq-108"
    assert 2 <= len(view.others) <= chat.OTHERS
    assert state.last_query == "does field hospitals work against a revolt"
    assert state.shown == view.used >= 1 + len(view.others)  # hits named in the related block are skipped
    assert not (view.best.related.shown_ids() | {view.best.id}) & {h.id for h in view.others}


def test_a_candidate_of_a_not_sure_answer_opens_by_its_number(index):
    state, output = handle_line(new_state(index), "whats the max hand size")
    view = answer(output)
    assert not view.confident and len(view.candidates) == 3
    assert state.candidates == tuple(line.id for line in view.candidates)
    _, opened = handle_line(state, "2")
    shown = [item for item in opened if isinstance(item, RecordView)]
    assert [v.id for v in shown] == [view.candidates[1].id]
    after, refused = handle_line(state, "7")
    assert messages(refused) == ["choose 1 to 3, or ask a question"] and after == state
    confident, _ = handle_line(new_state(index), "does field hospitals work against a revolt")
    assert confident.candidates == (), "a confident answer offers nothing to open by number"


def test_blank_lines_do_nothing(index):
    state = new_state(index)
    assert handle_line(state, "   ") == (state, [])


def test_faction_filter_applies_to_the_next_questions_until_off(index):
    state, output = feed(new_state(index), ":faction cats")
    assert state.factions == ("marquise",)
    assert messages(output) == ["faction filter: Marquise de Cat"]
    state, output = handle_line(state, "what can I build")
    view = answer(output)
    assert view.filters == ["faction: Marquise de Cat"]
    shown = [index.library.records[line.id] for line in view.candidates or view.others]
    shown += [index.library.records[view.best.id]] if view.best else []
    assert shown and all("marquise" in r.factions for r in shown)
    state, output = handle_line(state, ":faction off")
    assert state.factions == () and messages(output) == ["faction filter off"]
    assert answer(handle_line(state, "what can I build")[1]).filters == []


def test_unknown_faction_is_an_error_message_and_keeps_the_filter(index):
    state, _ = feed(new_state(index), ":faction birds")
    after, output = handle_line(state, ":faction gnomes")
    assert after.factions == ("eyrie",)
    assert output[0].kind == "error" and "gnomes" in output[0].text


@pytest.mark.parametrize("name", ["doggos", "automated", "pirates", "frogs", "cats and doggos"])
def test_faction_names_in_chat_are_exact_or_refused_with_the_valid_names(index, name):
    state, _ = feed(new_state(index), ":faction birds")
    after, output = handle_line(state, f":faction {name}")
    assert after.factions == ("eyrie",), "a mistake keeps the filter"
    assert output[0].kind == "error"
    assert output[1].text.startswith("hint: factions: marquise, eyrie")


def test_a_misspelt_faction_in_chat_says_what_it_was_taken_as(index):
    state, output = handle_line(new_state(index), ":faction marquse")
    assert state.factions == ("marquise",)
    assert messages(output) == ["faction filter: Marquise de Cat (read faction 'marquse' as Marquise de Cat)"]


def test_chat_filters_on_several_factions_or_a_bot(index):
    state, output = handle_line(new_state(index), ":faction cats and birds")
    assert state.factions == ("marquise", "eyrie")
    assert messages(output) == ["faction filter: Marquise de Cat, Eyrie Dynasties"]
    state, output = handle_line(state, ":faction Electric Eyrie")
    assert state.factions == ("electric-eyrie",)
    state, output = handle_line(state, ":faction cats birds")  # names with only spaces between
    assert state.factions == ("marquise", "eyrie")
    state, output = handle_line(state, ":faction cats gnomes")  # never half a filter: all or refused
    assert state.factions == ("marquise", "eyrie") and "'cats gnomes'" in output[0].text


@pytest.mark.parametrize(
    "follow, expected_question, key",
    [
        ("what about the eyrie?", "can the eyrie build in a ruin", "eyrie"),
        ("and for the vagabond", "can the vagabond build in a ruin", "vagabond"),
        ("and the riverfolk?", "can the riverfolk build in a ruin", "riverfolk"),
        ("how about WA", "can the wa build in a ruin", "alliance"),
    ],
)
def test_a_follow_up_reuses_the_last_question_with_the_new_faction(index, follow, expected_question, key):
    state, _ = feed(new_state(index), "can the cats build in a ruin")
    assert chat.follow_up(state, follow) == (expected_question, [key])
    state, output = handle_line(state, follow)
    assert messages(output)[0] == f"→ {expected_question}"
    assert answer(output).asked_about[:1] == faction_display(index.library, [key])
    assert state.last_query == expected_question


def test_a_follow_up_switches_an_active_faction_filter_and_says_so(index):
    state, output = feed(new_state(index), ":faction cats", "can I build in a ruin", "what about the eyrie?")
    assert state.factions == ("eyrie",)
    assert answer(output).filters == ["faction: Eyrie Dynasties"]
    assert messages(output)[1] == "faction filter now: Eyrie Dynasties (was Marquise de Cat; :faction off to clear)"
    state, output = handle_line(state, "and the eyrie?")  # the same faction again: nothing to say
    assert [m for m in messages(output) if "filter" in m] == []


def test_a_follow_up_without_a_filter_sets_none(index):
    state, output = feed(new_state(index), "can the cats build in a ruin", "what about the eyrie?")
    assert state.factions == () and not [m for m in messages(output) if "filter" in m]


@pytest.mark.parametrize("typed, meant", [(":sectoin 4.3.2", ":section"), (":shwo 108", ":show"),
                                          (":facton cats", ":faction"), (":mroe", ":more"), (":quti", ":quit")])
def test_a_mistyped_chat_command_gets_did_you_mean(index, typed, meant):
    state = new_state(index)
    after, output = handle_line(state, typed)
    assert after == state
    assert output[0].kind == "error" and f"(did you mean {meant}?)" in output[0].text


def test_an_unknown_chat_command_far_from_any_says_only_to_see_help(index):
    _, output = handle_line(new_state(index), ":frobnicate")
    assert output[0].text == "unknown command :frobnicate; :help lists them"


def test_a_question_without_a_faction_gets_the_faction_appended(index):
    state, _ = feed(new_state(index), "how does crafting work?")
    assert chat.follow_up(state, "and for the vagabond?") == ("how does crafting work for the vagabond", ["vagabond"])


@pytest.mark.parametrize("text", ["what about ruins?", "and then what?", "how about a hand limit"])
def test_lines_that_name_no_faction_are_new_questions(index, text):
    state, _ = feed(new_state(index), "can the cats build in a ruin")
    assert chat.follow_up(state, text) is None
    state, output = handle_line(state, text)
    assert not messages(output)
    assert state.last_query == text


def test_a_follow_up_with_nothing_before_is_just_a_question(index):
    state, output = handle_line(new_state(index), "what about the eyrie?")
    assert not messages(output) and state.last_query == "what about the eyrie?"


def test_more_pages_through_the_remaining_hits_without_repeats(index):
    state, output = feed(new_state(index), "does field hospitals work against a revolt")
    first = answer(output)
    seen = [first.best.id] + [h.id for h in first.others]
    while True:
        state, output = handle_line(state, ":more")
        more = output[0]
        assert isinstance(more, More)
        if not more.hits:
            break
        assert len(more.hits) <= chat.MORE
        seen += [h.id for h in more.hits]
    assert len(seen) == len(set(seen)) > len(first.others) + 1
    assert state.shown == len(state.last_answer.hits)


def test_more_before_any_question_says_what_to_do(index):
    _, output = handle_line(new_state(index), ":more")
    assert "Ask a question first" in messages(output)[0]


def test_section_and_show_commands(index):
    state = new_state(index)
    _, output = handle_line(state, ":section 4.3.2")
    assert isinstance(output[0], SectionView) and output[0].holders[0].id == "rule-4.3.2"
    _, output = handle_line(state, ":show faq-108")
    assert isinstance(output[0], RecordView) and output[0].id == "faq-108"
    for line in (":section", ":show", ":section xyz", ":show faq-999", ":frobnicate"):
        _, output = handle_line(state, line)
        assert output[0].kind == "error", line


def test_help_grades_and_quit(index):
    state = new_state(index)
    assert isinstance(handle_line(state, ":help")[1][0], Help)
    assert isinstance(handle_line(state, ":grades")[1][0], list)
    for line in (":quit", ":q", "quit", "exit"):
        done, _ = handle_line(state, line)
        assert done.done, line


def test_every_output_item_renders(index):

    state = new_state(index)
    for line in ("hand limit", ":more", ":section bp 2.5", ":show 108", ":help", ":grades", ":faction zz"):
        state, output = handle_line(state, line)
        for item in output:
            assert to_text(render_output(item), width=80).strip()


def test_the_loop_reads_stdin_when_it_is_not_a_terminal(index, monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("hand limit\n:more\n:quit\nnever read\n"))
    console = make_console(width=80, color=False)
    assert chat_front.run_chat(index, console, interactive=False) == 0
    out = capsys.readouterr().out
    assert "faq-184" in out and "More answers" in out and "Bye." in out


# --- the real loop in a pseudo-terminal ---------------------------------------------------------------------

pexpect = pytest.importorskip("pexpect")


@pytest.fixture
def spawn(tmp_path, index_dir):
    if not ROOTFAQ.exists():
        pytest.skip("rootfaq is not installed in this environment")
    env = {
        **os.environ,
        "ROOTFAQ_INDEX_DIR": str(index_dir),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "NO_COLOR": "1",
        "TERM": "xterm",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # nobody answers cursor-position requests in a pty
    }
    children = []

    def start(*args: str, rows: int = 40, **extra_env: str):
        child = pexpect.spawn(str(ROOTFAQ), list(args), env={**env, **extra_env}, dimensions=(rows, 100),
                              encoding="utf-8", timeout=30)
        children.append(child)
        return child

    yield start, tmp_path / "data" / "rootfaq" / "chat-history"
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def test_chat_in_a_terminal(spawn):
    start, history = spawn
    child = start("chat")
    child.expect_exact("rootfaq>")
    child.sendline("does field hospitals work against a revolt")
    child.expect_exact("faq-108")
    child.expect_exact("Other possible answers")
    child.expect_exact("rootfaq>")
    child.sendline("whats the max hand size")
    child.expect_exact("Not sure")  # the hand limit and the starting hand come close: the candidates are offered
    child.expect(r"  2  ((?:faq|rule|law)-[\w.-]+)  ")
    second = child.match.group(1)
    child.expect_exact("Type 1, 2 or 3 to open one")
    child.expect_exact("rootfaq>")
    child.sendline("2")  # the second candidate, opened by its number: that record in full
    child.expect_exact(second)
    child.expect_exact("Related rules")
    child.expect_exact("rootfaq>")
    child.sendline("can the cats build in a ruin")  # the question the faction follow-up below asks again
    child.expect_exact("faq-022")
    child.expect_exact("rootfaq>")
    child.sendline(":faction doggos")
    child.expect_exact("unknown faction 'doggos'")
    child.expect_exact("hint: factions: marquise, eyrie")
    child.expect_exact("rootfaq>")
    child.sendline(":faction marquse")
    child.expect_exact("faction filter: Marquise de Cat (read faction 'marquse' as Marquise de Cat)")
    child.expect_exact("rootfaq [marquise]>")
    child.sendline("what about the eyrie?")
    child.expect_exact("→ can the eyrie build in a ruin")
    child.expect_exact("faction filter now: Eyrie Dynasties (was Marquise de Cat")
    child.expect_exact("Filter: faction: Eyrie Dynasties")
    child.expect_exact("rootfaq [eyrie]>")
    child.sendline(":more")
    child.expect_exact("More answers")
    child.expect_exact("rootfaq [eyrie]>")
    child.sendline(":sectoin 4.3.2")
    child.expect_exact("unknown command :sectoin (did you mean :section?)")
    child.expect_exact("rootfaq [eyrie]>")
    child.sendline(":faction off")
    child.expect_exact("rootfaq>")
    child.sendline("§6.2.3")
    child.expect_exact("Rulings citing it")
    child.expect_exact("rootfaq>")
    assert child.before.count("faq-108  [Rulebook]") == 1, "listed once, not again among other answers"
    child.sendline(":quit")
    child.expect_exact("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.before
    kept = history.read_text("utf-8")
    assert "+can the cats build in a ruin" in kept and "+:faction marquse" in kept


def test_ctrl_c_cancels_the_line_and_ctrl_d_leaves(spawn):
    start, history = spawn
    child = start()  # plain `rootfaq` in a terminal starts the chat
    child.expect_exact("rootfaq>")
    child.send("a question I changed my mind about")
    child.sendcontrol("c")
    child.expect_exact("rootfaq>")
    child.sendline(":show 108")
    child.expect_exact("Field Hospitals")
    child.expect_exact("rootfaq>")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")
    assert "changed my mind" not in history.read_text("utf-8")


def test_history_is_kept_across_runs(spawn):
    start, history = spawn
    child = start("chat")
    child.expect_exact("rootfaq>")
    child.sendline("hand limit")
    child.expect_exact("rootfaq>")
    child.sendline(":quit")
    child.expect(pexpect.EOF)
    child = start("chat")
    child.expect_exact("rootfaq>")
    child.send("\x1b[A")  # up arrow: the previous run's last line, then the question before it
    child.expect_exact(":quit")
    child.send("\x1b[A")
    child.expect_exact("hand limit")
    child.sendline("")
    child.expect_exact("faq-184")
    child.sendline(":quit")
    child.expect(pexpect.EOF)



def test_long_output_in_a_terminal_goes_through_the_pager(spawn):
    start, _ = spawn
    paged = start("section", "bp", "2.5", rows=12, PAGER="sed s/^/PAGED:/")
    paged.expect_exact("PAGED:")
    paged.expect(pexpect.EOF)
    direct = start("--no-pager", "section", "bp", "2.5", rows=12, PAGER="sed s/^/PAGED:/")
    direct.expect(pexpect.EOF)
    assert "BP.2.5.iv" in direct.before and "PAGED:" not in direct.before
    short = start("section", "4.3.2", rows=100, PAGER="sed s/^/PAGED:/")
    short.expect(pexpect.EOF)
    assert "4.3.2 Step 2: Roll Dice" in short.before and "PAGED:" not in short.before


# --- history that cannot be kept -----------------------------------------------------------------------------


def _chat_twice(child) -> str:
    """Ask two questions and leave; everything the terminal showed."""
    child.expect_exact("rootfaq>")
    child.sendline("6.2.3")
    child.expect_exact("rule-6.2.3")
    child.expect_exact("rootfaq>")
    child.sendline("field hospitals")
    child.expect_exact("rootfaq>")
    child.sendline(":quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return " ".join(child.logfile_read.getvalue().split())  # a long message wraps at the terminal's width


def _logged(child):
    import io

    child.logfile_read = io.StringIO()
    return child


def test_a_history_that_is_a_folder_is_one_line_not_a_traceback(spawn):
    start, history = spawn
    history.mkdir(parents=True)
    shown = _chat_twice(_logged(start("chat")))
    assert shown.count("history not kept:") == 1 and "is a folder" in shown
    assert "Traceback" not in shown and "Press ENTER" not in shown


def test_a_history_that_is_a_symlink_is_not_followed(spawn, tmp_path):
    start, history = spawn
    target = tmp_path / "someone-elses-file"
    target.write_text("precious\n")
    history.parent.mkdir(parents=True)
    history.symlink_to(target)
    shown = _chat_twice(_logged(start("chat")))
    assert shown.count("history not kept:") == 1 and "symbolic link" in shown
    assert target.read_text() == "precious\n", "nothing was appended to what the link points at"


def test_a_history_under_a_file_is_one_line_not_a_traceback(spawn, tmp_path):
    start, _ = spawn
    (tmp_path / "file").write_text("not a folder")
    shown = _chat_twice(_logged(start("chat", XDG_DATA_HOME=str(tmp_path / "file"))))
    assert shown.count("history not kept:") == 1 and "not a directory" in shown
    assert "Traceback" not in shown and "Press ENTER" not in shown


def test_a_history_on_a_full_disk_is_one_line_not_a_traceback(spawn, tmpfs):
    start, _ = spawn
    disk = tmpfs("64k")
    history = disk / "rootfaq" / "chat-history"
    history.parent.mkdir()
    history.touch()
    with open(disk / "filler", "wb", buffering=0) as filler:  # fill the disk: no line of history fits
        with pytest.raises(OSError):
            for _ in range(1000):
                filler.write(b"x" * 1024)
    shown = _chat_twice(_logged(start("chat", XDG_DATA_HOME=str(disk))))
    assert shown.count("history not kept:") == 1 and "no space left on device" in shown
    assert "Traceback" not in shown and "Press ENTER" not in shown


def _paste(child, text: str, piece: int = 4096) -> None:
    """Send `text` as a terminal without bracketed paste does (no pause before each write, the whole
    paste at once), reading what the line editor draws meanwhile so neither side blocks."""
    child.delaybeforesend = None
    for at in range(0, len(text), piece):
        child.send(text[at : at + piece])
        try:
            while True:
                child.read_nonblocking(1 << 16, timeout=0.001)
        except pexpect.TIMEOUT:
            pass


def test_a_long_paste_is_answered_whole_at_once(spawn):
    """A 110 KB post pasted key by key (a terminal without bracketed paste), its question at the end: the
    paste is read as one, the line shows its size instead of 110 KB of text, and the whole post reaches
    search, which reads the question at its end. It used to take the line editor minutes."""
    start, history = spawn
    child = start("chat")
    child.expect_exact("rootfaq>")
    story = ("the cats had three sawmills and we argued about wood for a while. " * 1700)[:110_000]
    _paste(child, story + " Can the cats build in the ruins?\r")
    child.expect_exact(f"(a pasted post of {len(story) + 33:,} characters)", timeout=20)
    child.expect_exact("read its 1 question sentence", timeout=20)
    child.expect_exact("rootfaq>", timeout=20)
    child.sendline(":quit")
    child.expect(pexpect.EOF)
    assert history.read_text("utf-8").count("a pasted post of") == 1  # the history keeps the line, not 110 KB


def test_a_burst_of_plain_keys_is_one_paste_and_anything_else_stays_keys():
    from prompt_toolkit.key_binding import KeyPress
    from prompt_toolkit.keys import Keys

    typed = [KeyPress(c, c) for c in "can cats build in ruins? " * 10]
    enter = KeyPress(Keys.ControlM, "\r")
    pasted = chat_front.as_paste([*typed[:100], enter, *typed[100:], enter])
    assert [k.key for k in pasted] == [Keys.BracketedPaste, Keys.ControlM]  # the final Enter answers it
    assert pasted[0].data == "".join(k.data for k in typed[:100]) + "\n" + "".join(k.data for k in typed[100:])
    few = typed[: chat_front.PASTE_KEYS - 1]
    assert chat_front.as_paste(few) == few  # typing: a key or two a read
    arrows = [*typed[:100], KeyPress(Keys.Left, "\x1b[D")]
    assert chat_front.as_paste(arrows) == arrows  # not plain text: the keys do what they do
    long = [KeyPress("x", "x")] * (chat_front.EDITABLE_CHARS + 1) + [enter]
    assert [k.key for k in chat_front.as_paste(long)] == [Keys.BracketedPaste]  # a long paste answers itself


def test_a_paste_past_the_limit_is_held_cut_at_it_and_the_line_accepted(monkeypatch):
    """The line editor's own paste key (a bracketed paste) through the chat's bindings: a short paste is
    edited like typing; a long one is held aside whole up to MAX_READ_CHARS and the line accepted (the
    limit lowered here, so the paste fits the pipe's buffer)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    def prompt_with(pasted: str, then: str = "") -> tuple[str, chat_front.HeldPaste]:
        held = chat_front.HeldPaste()
        with create_pipe_input() as pipe:
            session = PromptSession(input=pipe, output=DummyOutput(),
                                    key_bindings=chat_front._line_bindings(lambda: session.default_buffer, held))
            pipe.send_text(f"\x1b[200~{pasted}\x1b[201~{then}")
            return session.prompt("> "), held

    line, held = prompt_with("can cats build in ruins", then="?\r")
    assert line == "can cats build in ruins?" and held.text is None
    monkeypatch.setattr(chat_front, "MAX_READ_CHARS", 9_000)
    huge = "we argued about wood. " * 500 + "can cats build in ruins?"
    line, held = prompt_with(huge)
    assert line == f"(a pasted post of {len(huge):,} characters)"
    assert held.size == len(huge) and held.text == huge[: chat_front.MAX_READ_CHARS]
