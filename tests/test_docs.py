"""README and CI must not drift: CI runs exactly the test command README gives."""

from __future__ import annotations

import re
from pathlib import Path

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
