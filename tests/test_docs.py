"""README and CI must not drift: CI runs exactly the test command README gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_install_and_test_commands():
    install, tests = readme_commands()
    assert "pip install ." in install and "rootfaq ask" in install
    assert "'.[test]'" in tests and "pytest" in tests


def test_ci_runs_readmes_test_command():
    _, tests = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert tests in ci.splitlines()


def test_ci_installs_once():
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert ci.count("pip install") == 1 and ci.count("python3 -m venv") == 1


def test_every_command_is_documented_in_the_readme():
    """As sqlite-utils does: a command added without a line in README's command list fails here."""
    from rootfaq.cli.app import app

    text = (ROOT / "README.md").read_text("utf-8")
    commands = text[text.index("## Commands"):].split("```sh\n", 1)[1].split("```", 1)[0]
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert len(names) >= 10
    missing = [name for name in names if f"rootfaq {name}" not in commands]
    assert not missing, f"README's command list lacks: {missing}"


def test_the_readme_layout_names_every_package():
    text = (ROOT / "README.md").read_text("utf-8")
    layout = text[text.index("## Layout"):].split("\n## ", 1)[0]
    packages = sorted(p.name for p in (ROOT / "rootfaq").iterdir() if (p / "__init__.py").is_file()
                      and not p.name.endswith("_data"))
    assert packages and all(f"`{name}/`" in layout for name in packages), packages


def readme_examples() -> list[tuple[str, str]]:
    """(command, output shown) for each `$ rootfaq ...` line in README's text blocks."""
    text = (ROOT / "README.md").read_text("utf-8")
    examples = []
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            examples.append((command, shown.rstrip("\n")))
    return examples


def shown_pattern(shown: str) -> re.Pattern[str]:
    """The output README shows, as a pattern: a line of just "..." stands for any lines the example leaves out."""
    parts = [r"(?:.*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n" for line in shown.split("\n")]
    return re.compile("".join(parts))


@pytest.mark.slow
@pytest.mark.parametrize("command,shown", readme_examples(), ids=[c[:40] for c, _ in readme_examples()])
def test_readme_examples_are_what_the_tool_prints(command, shown, index):
    """README's example outputs come from the tool: at 80 columns without colour, each shown line is
    printed in that order (README elides with "..."), so an example can never drift from the tool again."""
    import os
    import shlex
    import subprocess
    import sys

    args = shlex.split(command)
    assert args[0] == "rootfaq"
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "ROOTFAQ_NO_PAGER": "1"}
    result = subprocess.run([str(Path(sys.executable).with_name("rootfaq")), *args[1:], "--no-pager"],
                            capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
    printed = "\n".join(line.rstrip() for line in result.stdout.split("\n"))
    assert shown_pattern(shown).match(printed + "\n"), f"README shows:\n{shown}\n\nthe tool prints:\n{printed}"


def test_readme_has_examples_to_check():
    assert len(readme_examples()) >= 6


NAMED_PATH = re.compile(r"(?<![\w.-])rootfaq/[\w./*-]*[\w/*]")


def named_paths() -> dict[str, list[str]]:
    """Every rootfaq/... path named in code, docs and packaging -> where it is named."""
    files = [*(ROOT / "rootfaq").rglob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "tests").glob("*.py"),
             ROOT / "README.md", ROOT / "pyproject.toml", ROOT / ".ci" / "run", ROOT / "checks" / "README.md",
             ROOT / "docs" / "benchmark.md", ROOT / "docs" / "levers.md",
             *(ROOT / "rootfaq" / "model_data").glob("*.md")]
    found: dict[str, list[str]] = {}
    for path in files:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for named in NAMED_PATH.findall(line):
                found.setdefault(named, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


def test_every_rootfaq_path_named_in_code_docs_and_packaging_exists():
    """A file moved or renamed leaves no stale path behind (modules moved into rootfaq/search/ once left
    their old paths in four files)."""
    missing = {named: where for named, where in named_paths().items()
               if not any(ROOT.glob(named.rstrip("/"))) and not (ROOT / named).exists()}
    assert missing == {}
    assert len(named_paths()) > 20, "the pattern finds the paths named"


def test_the_check_sets_readme_describes_every_check_set():
    """checks/README.md says who wrote each set, how and when: a set added without its line fails here."""
    text = (ROOT / "checks" / "README.md").read_text("utf-8")
    sets = sorted(path.name for path in (ROOT / "checks").glob("*.yaml"))
    assert len(sets) > 40
    assert [name for name in sets if f"- `checks/{name}`: " not in text] == []


def test_the_benchmark_table_reads_back_what_bench_prints(bench, capsys):
    """README's summary table comes from a saved run (`bench.py --table`): it reads the lines bench.py's own
    printers write, so a change to one cannot leave the other reading nothing or the wrong figure."""
    from rootfaq.search.answers import Answer

    class Scorer:  # score.py's per-question ranks, as if judged
        @staticmethod
        def score_parts(item, answer):
            return item.get("part_ranks", [])

    items = [{"q": "a", "answerable": True, "style": "post", "part_ranks": [0, 0, 2, None]},
             {"q": "b", "answerable": True, "style": "short"}, {"q": "c", "answerable": False}]
    answers = [Answer("a", True, []), Answer("b", False, []), Answer("c", True, [])]
    print("\nx-posts.yaml: 3 questions")
    bench.summarise(bench.SHIPPED + ", fitted ranking)", items, [0, 2, None])
    print(bench.calibration(items, answers, [0, 2, None]))
    print(bench.part_figures(Scorer, items, answers))
    bench.summarise("rootfaq on words only (sentence model off)", items, [1, 0, None])
    print(bench.calibration(items, answers, [1, 0, None]))
    bench.summarise(bench.BASELINE + " (whoosh, record text only)", items, [None, 1, None])
    print("\nwarm question, as shipped: median 9.0 ms")
    table = bench.summary_table(capsys.readouterr().out).splitlines()
    assert table[2:] == ["| `x-posts.yaml` | 3 | 50.0 / 100.0 | 50.0 / 75.0 (4) | 1 of 2 | 1 of 2 | 1 of 1 "
                         "| 0.0 / 50.0 |"]
    with pytest.raises(ValueError):
        bench.summary_table("x.yaml: 3 questions\n  " + bench.SHIPPED + ", fitted ranking)\n")
    with pytest.raises(ValueError):
        bench.summary_table("no run here")


def test_the_repeated_warm_passes_report_each_pass_and_each_questions_fastest(bench):
    """bench.py asks the as-shipped pass again because this machine's speed wanders: each pass's median, then
    each question's fastest pass (a slow moment in one pass does not count), overall and by set."""
    asked = [("a.yaml", "q1"), ("a.yaml", "q2"), ("b.yaml", "q3")]
    overall, by_set = bench.repeated_figures(asked, [[10.0, 30.0, 50.0], [12.0, 20.0, 90.0], [9.0, 40.0, 60.0]])
    assert "asked 3 times" in overall and "each pass's median 30.0, 20.0, 40.0 ms" in overall
    assert "fastest pass: median 20.0 ms, p95 20.0 ms" in overall  # fastest: 9, 20, 50
    assert by_set.endswith("by set: a.yaml 14.5 ms, b.yaml 50.0 ms")
