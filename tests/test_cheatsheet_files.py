"""Writing a cheat sheet: formats and file names, standard output, never over a device or FIFO, no
leftovers from a killed run, and no raw control sequences echoed back; through the library and the CLI."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rootfaq.cli import app as cli
from rootfaq.errors import EXIT_FOUND, EXIT_NOTHING_FOUND, EXIT_USAGE, NotFound, UsageError
from rootfaq.export.command import resolve_format, run_cheatsheet
from rootfaq.export.echo import shown
from rootfaq.export.files import check_target, remove_left_over_parts, write_sheet
from rootfaq.export.selection import select_entries
from rootfaq.export.sheet import SheetFilters

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": None})
CATS = SheetFilters(["cats"], official=True)


def run(*args: str):
    return runner.invoke(cli.app, list(args), catch_exceptions=False)


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


# ---------------------------------------------------------------------------------------------- formats


def test_the_suffix_picks_the_format_and_must_agree_with_format():
    assert resolve_format(None, "cats.pdf") == "pdf"
    assert resolve_format(None, "cats.HTM") == "html"
    assert resolve_format("markdown", "cats.md") == "md"
    assert resolve_format("md", "cats.txt") == "md", "an unknown suffix leaves --format in charge"
    assert resolve_format("html", None) == "html" and resolve_format(None, None) == "pdf"
    with pytest.raises(UsageError) as caught:
        resolve_format("html", "x.pdf")
    assert "x.html" in caught.value.hint
    assert resolve_format(None, "-") == "pdf", "as --help says: from the file name, else pdf"
    for fmt, output in ((None, "cats.txt"), ("docx", "x.docx")):
        with pytest.raises(UsageError):
            resolve_format(fmt, output)


def test_an_existing_folder_as_output_holds_the_default_file_name(tmp_path):
    assert resolve_format(None, str(tmp_path)) == "pdf"
    result = run("cheatsheet", "-f", "cats", "--format", "md", "-o", str(tmp_path))
    assert result.exit_code == EXIT_FOUND, result.stderr
    assert (tmp_path / "rootfaq-marquise.md").read_text("utf-8").startswith("# Root rules cheat sheet")
    again = run("cheatsheet", "-f", "cats", "--format", "md", "-o", str(tmp_path))
    assert again.exit_code == EXIT_USAGE and "--force" in again.stderr


def test_format_html_with_a_pdf_name_is_a_usage_error_and_writes_nothing(tmp_path):
    target = tmp_path / "x.pdf"
    result = run("cheatsheet", "-f", "cats", "--format", "html", "-o", str(target))
    assert result.exit_code == EXIT_USAGE
    assert "does not match" in result.stderr and not target.exists()


def test_run_cheatsheet_writes_each_format(index, tmp_path):
    count = select_entries(index, CATS).entry_count
    formats = (("html", ".html", b"<!DOCTYPE html>"), ("md", ".md", b"# Root"), ("pdf", ".pdf", b"%PDF"))
    for fmt, suffix, magic in formats:
        target = str(tmp_path / f"s{suffix}")
        written = run_cheatsheet(index, CATS, fmt, target)
        assert written.path == Path(target) and written.items == count
        assert written.path.read_bytes().startswith(magic)
        assert written.summary == f"wrote {target} ({count} items)"
    written = run_cheatsheet(index, CATS, None, str(tmp_path / "t.md"))
    assert written.path.read_text().startswith("# Root")
    with pytest.raises(UsageError) as caught:
        run_cheatsheet(index, CATS, "md", str(tmp_path / "s.md"))
    assert "--force" in caught.value.hint


def test_default_file_name_follows_the_factions(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cheatsheet(index, CATS, "md").path == Path("rootfaq-marquise.md")
    bot = run_cheatsheet(index, SheetFilters(["mechanical marquise"]), "md")
    assert bot.path == Path("rootfaq-mechanical-marquise.md")
    with pytest.raises(UsageError):  # the default name exists now
        run_cheatsheet(index, CATS, "md")


def test_run_cheatsheet_reports_steps_and_refuses_an_empty_sheet(index, tmp_path):
    steps: list[str] = []
    run_cheatsheet(index, SheetFilters(["bone patrol"], rules=True), "html", str(tmp_path / "bp.html"),
                   progress=steps.append)
    assert steps and steps[-1].startswith("writing")
    with pytest.raises(NotFound) as caught:
        run_cheatsheet(index, SheetFilters(["bone patrol"]), "html", str(tmp_path / "x.html"))
    assert "--rules" in caught.value.hint
    assert not (tmp_path / "x.html").exists()


# ---------------------------------------------------------------------------------------------- standard output


def test_output_dash_writes_the_sheet_to_standard_output():
    result = run("cheatsheet", "-f", "cats", "--official", "--format", "md", "-o", "-")
    assert result.exit_code == EXIT_FOUND, result.stderr
    assert result.stdout.startswith("# Root rules cheat sheet: Marquise de Cat\n")
    assert "wrote the sheet to standard output" in result.stderr and "wrote" not in result.stdout
    assert not Path("-").exists()
    pdf = run("cheatsheet", "-f", "cats", "--official", "--format", "pdf", "-o", "-")
    assert pdf.exit_code == EXIT_FOUND and pdf.stdout_bytes.startswith(b"%PDF")


def test_output_dash_is_a_pdf_unless_told_and_refuses_a_pdf_on_a_terminal(index):
    pdf = run("cheatsheet", "-f", "cats", "--official", "-o", "-")
    assert pdf.exit_code == EXIT_FOUND and pdf.stdout_bytes.startswith(b"%PDF")
    leader, follower = os.openpty()  # a real terminal
    # Read what reaches the terminal, or a sheet larger than the pty's buffer would block the write forever.
    reader = threading.Thread(target=_drain, args=(leader,), daemon=True)
    reader.start()
    try:
        with open(follower, "wb", closefd=False) as terminal:
            for fmt in ("pdf", None):
                with pytest.raises(UsageError) as caught:
                    run_cheatsheet(index, CATS, fmt, "-", stdout=terminal)
                assert "redirect" in caught.value.hint
            run_cheatsheet(index, CATS, "md", "-", stdout=terminal)  # text is fine there
    finally:
        os.close(follower)  # the reader then gets EIO and stops, before its descriptor is closed and reused
        reader.join(timeout=10)
        os.close(leader)


def _drain(fd: int) -> None:
    with contextlib.suppress(OSError):
        while os.read(fd, 65536):
            pass


# ---------------------------------------------------------------------------------------------- what --force replaces


def test_write_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "sheet.md"
    target.write_text("keep me")
    with pytest.raises(UsageError) as caught:
        write_sheet("new", target, force=False)
    assert "--force" in caught.value.hint
    assert target.read_text() == "keep me"
    write_sheet("new", target, force=True)
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.md"]


def test_force_never_replaces_a_fifo_socket_or_folder(tmp_path):
    fifo = tmp_path / "sheet.pdf"
    os.mkfifo(fifo)
    result = run("cheatsheet", "-f", "cats", "-o", str(fifo), "--force")
    assert result.exit_code == EXIT_USAGE
    assert "FIFO" in result.stderr and "-o -" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is still there"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "sock.md"))
        with pytest.raises(UsageError, match="socket"):
            write_sheet("x", tmp_path / "sock.md", force=True)
    (tmp_path / "folder.md").mkdir()
    with pytest.raises(UsageError, match="directory"):
        write_sheet("x", tmp_path / "folder.md", force=True)
    assert not parts(tmp_path)


def test_the_null_device_is_never_a_target():
    # Only the check runs here, never a write: as root, a regression must not cost CI its /dev/null.
    with pytest.raises(UsageError, match="device"):
        check_target(Path(os.devnull), force=True)


def test_force_replaces_a_symlink_not_what_it_points_to(tmp_path):
    original = tmp_path / "original.md"
    original.write_text("keep me")
    link = tmp_path / "sheet.md"
    link.symlink_to(original)
    with pytest.raises(UsageError, match="already exists"):
        write_sheet("new", link, force=False)
    write_sheet("new", link, force=True)
    assert not link.is_symlink() and link.read_text() == "new"
    assert original.read_text() == "keep me"
    fifo_link = tmp_path / "fifo.md"
    os.mkfifo(tmp_path / "fifo")
    fifo_link.symlink_to(tmp_path / "fifo")
    with pytest.raises(UsageError, match="FIFO"):
        write_sheet("new", fifo_link, force=True)
    assert fifo_link.is_symlink(), "a link to a FIFO is judged by the FIFO"
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "nowhere")
    write_sheet("new", dangling, force=True)
    assert dangling.read_text() == "new"


# ---------------------------------------------------------------------------------------------- failed writes


def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "sheet.pdf"
    write_sheet(b"%PDF-1.4 first", target, force=False)

    def disk_full(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(UsageError, match="No space left"):
        write_sheet(b"%PDF-1.4 second", target, force=True)
    assert target.read_bytes() == b"%PDF-1.4 first", "a failed write leaves the old file whole"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"], "and no temporary file behind"


KILLED_DURING_FSYNC = """
import os, signal, sys
from rootfaq.export.files import write_sheet

os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed while the data goes to disk
write_sheet(b"%PDF-1.4 half", sys.argv[1], force=True)
"""


def test_a_write_killed_during_fsync_leaves_no_part_after_the_next_run(tmp_path):
    target = tmp_path / "sheet.pdf"
    killed = subprocess.run([sys.executable, "-c", textwrap.dedent(KILLED_DURING_FSYNC), str(target)], timeout=60)
    assert killed.returncode == -9
    left = parts(tmp_path)
    assert len(left) == 1 and not target.exists(), "the kill left its .part file (what this test is about)"
    write_sheet(b"%PDF-1.4 whole", target)
    assert target.read_bytes() == b"%PDF-1.4 whole"
    assert not parts(tmp_path), "the next run removed the leftover"


def test_a_live_writers_part_file_is_left_alone(tmp_path):
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        busy = tmp_path / f".other.pdf.abcd1234.rootfaq-{writer.pid}.part"
        busy.write_bytes(b"in progress")
        foreign = tmp_path / "download.part"  # not ours
        foreign.write_bytes(b"x")
        assert remove_left_over_parts(tmp_path) == []
        assert busy.exists() and foreign.exists()
    finally:
        writer.kill()
        writer.wait()
    assert remove_left_over_parts(tmp_path) == [busy.name]


def test_write_into_a_missing_directory_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError):
        write_sheet("x", tmp_path / "nope" / "sheet.md", force=False)


# ---------------------------------------------------------------------------------------------- echoed arguments


def test_shown_spells_control_characters_out():
    assert shown("a\x1b[31mb\nc\u202ed\x9b") == "a\\x1b[31mb\\nc\\u202ed\\x9b"
    assert shown("café § 4.3.2") == "café § 4.3.2"


@pytest.mark.parametrize("option", ["--format", "--paper", "-o"])
def test_echoed_arguments_reach_the_terminal_without_escape_sequences(tmp_path, option):
    evil = "\x1b[2J\x1b]0;owned\x07x"
    value = str(tmp_path / f"{evil}.pdf") if option == "-o" else evil
    args = ["cheatsheet", "-f", "cats", "--official", option, value]
    if option != "-o":
        args += ["-o", str(tmp_path / "sheet.pdf")]
    result = run(*args)
    echoed = result.stdout + result.stderr
    assert "\\x1b[2J" in echoed, echoed
    assert "\x1b" not in echoed and "\x07" not in echoed
    assert result.exit_code == (EXIT_FOUND if option == "-o" else EXIT_USAGE)


def test_the_query_is_shown_safely_in_the_sheet(index):
    sheet = select_entries(index, SheetFilters(["cats"], query="field hospitals\x1b[31m"))
    assert "\x1b" not in sheet.title and "\\x1b[31m" in sheet.title


# ---------------------------------------------------------------------------------------------- the command


def test_cheatsheet_command_bots_and_bot_names(tmp_path):
    plain = tmp_path / "cats.md"
    assert run("cheatsheet", "-f", "cats", "--official", "-o", str(plain)).exit_code == EXIT_FOUND
    assert "Mechanical Marquise" not in plain.read_text("utf-8")
    with_bots = tmp_path / "bots.md"
    assert run("cheatsheet", "-f", "cats", "--official", "--bots", "-o", str(with_bots)).exit_code == EXIT_FOUND
    assert "\n## Mechanical Marquise (Clockwork bot playing the Marquise de Cat)\n" in with_bots.read_text("utf-8")
    bot = tmp_path / "bot.md"
    result = run("cheatsheet", "-f", "mechanical marquise", "-o", str(bot))
    assert result.exit_code == EXIT_FOUND and "## Marquise de Cat" not in bot.read_text("utf-8")
    assert "## Mechanical Marquise" in bot.read_text("utf-8")
    empty = run("cheatsheet", "-f", "bone patrol", "-o", str(tmp_path / "x.md"))
    assert empty.exit_code == EXIT_NOTHING_FOUND and "--rules" in empty.stderr
