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
