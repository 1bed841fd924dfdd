"""The layout shows the architecture: each folder a layer, imports pointing one way (the team's style guide).

corpus (records, parsers, curated data) -> search (the index, retrievers, ranking) -> views (plain data for
screens) -> render / export (rich, the cheat sheet) -> cli (typer, the only layer that exits). A module may
import its own layer and the layers below it, never one above; the leaf modules at the top (errors.py,
output.py) import nothing of rootfaq. Function-level imports count too: a lazy import is still an import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rootfaq"
# api.py is the library over views and search, and the package's front door (__init__.py) hands out its
# functions lazily: both sit just under the command line.
LAYERS = {"": 0, "corpus": 1, "search": 2, "views": 3, "render": 4, "export": 4, "api": 4, "__init__": 4,
          "cli": 5, "web": 5, "__main__": 5}
# Third-party libraries that belong to one place only (rapidfuzz: fuzzy search, and faction names' edits).
ONLY_IN = {"whoosh": ("search/index.py",), "rapidfuzz": ("search/", "corpus/factions.py"), "rich": ("render/",),
           "typer": ("cli/",), "prompt_toolkit": ("cli/",), "fpdf": ("export/",), "starlette": ("web/",),
           "uvicorn": ("web/",), "segno": ("web/",)}


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_data" not in p.parts[-2])


def layer_of(module: str) -> int:
    """'rootfaq.search.ranking' -> 2; 'rootfaq.errors' -> 0."""
    parts = module.split(".")[1:]
    if not parts or parts[0] not in LAYERS:
        return 0
    return LAYERS[parts[0]]


def imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in a file (or in `source` as if it stood there), relative
    ones resolved."""
    package = ".".join(("rootfaq", *path.relative_to(PACKAGE).with_suffix("").parts))
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(source if source is not None else path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.append((node.lineno, module))
            if node.module is None or node.level:  # `from . import index`: the names may be modules
                found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def test_the_layers_cover_every_module():
    folders = {p.relative_to(PACKAGE).parts[0] for p in modules() if len(p.relative_to(PACKAGE).parts) > 1}
    assert folders <= set(LAYERS), folders - set(LAYERS)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_from_a_layer_above_its_own(path):
    mine = layer_of(".".join(("rootfaq", *path.relative_to(PACKAGE).with_suffix("").parts)))
    upward = [f"line {line}: {module}" for line, module in imports(path)
              if module.startswith("rootfaq.") and layer_of(module) > mine]
    assert not upward, upward


def test_render_and_export_do_not_import_each_other():
    for path in modules():
        folder = path.relative_to(PACKAGE).parts[0]
        other = {"render": "rootfaq.export", "export": "rootfaq.render"}.get(folder)
        if other:
            assert not [m for _, m in imports(path) if m.startswith(other)], path


def test_the_web_page_imports_neither_the_terminal_nor_the_command_line():
    """web sits beside cli: it writes its own HTML from the views (never rich's render/), and cli starts it,
    never the other way round."""
    for path in modules():
        if path.relative_to(PACKAGE).parts[0] == "web":
            found = [m for _, m in imports(path) if m.startswith(("rootfaq.render", "rootfaq.cli"))]
            assert not found, (path, found)


@pytest.mark.parametrize("library", sorted(ONLY_IN))
def test_each_heavy_library_is_imported_in_one_place(library):
    allowed = ONLY_IN[library]
    users = {str(p.relative_to(PACKAGE)) for p in modules()
             if any(m == library or m.startswith(library + ".") for _, m in imports(p))}
    assert users, f"nothing imports {library}: the table is out of date"
    assert all(u.startswith(allowed) for u in users), sorted(users)


def test_the_checker_sees_an_upward_import():
    """The test above can fail: a lazy import of the search layer inside a corpus module is caught."""
    records = PACKAGE / "corpus" / "records.py"
    source = records.read_text("utf-8") + "\n\ndef _late():\n    from ..search import ranking\n"
    found = [m for _, m in imports(records, source)]
    assert "rootfaq.search.ranking" in found
    assert layer_of("rootfaq.search.ranking") > layer_of("rootfaq.corpus.records")


def search_reach_problems(path: Path, source: str | None = None) -> list[str]:
    """What a views/ or export/ module (or `source` as if it stood there) takes from search beyond the
    functions it calls: a run-time import of the index or store, or an index attribute other than its
    library."""
    import dataclasses
    import importlib
    import inspect

    tree = ast.parse(source if source is not None else path.read_text("utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only and node.level == 2 \
                and (node.module or "").startswith("search"):
            module = f"rootfaq.{node.module}"
            for alias in node.names:
                value = getattr(importlib.import_module(module), alias.name)
                plain = inspect.isfunction(value) or dataclasses.is_dataclass(value) or isinstance(value, (str, float))
                if module in ("rootfaq.search.index", "rootfaq.search.store") or not plain:
                    problems.append(f"imports {module}.{alias.name}")
        if isinstance(node, ast.Attribute) and node.attr not in INDEX_ATTRIBUTES_A_VIEW_READS and (
                (isinstance(node.value, ast.Name) and node.value.id == "index")
                or (isinstance(node.value, ast.Attribute) and node.value.attr == "index")):
            problems.append(f"reads index.{node.attr}")
    return problems


INDEX_ATTRIBUTES_A_VIEW_READS = {"library", "notices", "repairing"}  # the rest is search's own


@pytest.mark.parametrize("path", [p for p in modules() if p.relative_to(PACKAGE).parts[0] in ("views", "export")],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_views_and_export_reach_search_only_through_its_functions(path):
    """Views and export read records from the Library; of search they import the functions they call (and
    what those return), never the index type at run time, and read nothing of an index but its library."""
    assert not search_reach_problems(path)


def test_the_search_reach_check_sees_the_index_type_and_its_attributes():
    """The test above can fail: a view importing OpenIndex at run time, or reading index.records, is caught."""
    view = PACKAGE / "views" / "record.py"
    planted = "from ..search.index import OpenIndex\n\ndef f(index):\n    return index.records\n"
    assert search_reach_problems(view, planted) == ["imports rootfaq.search.index.OpenIndex", "reads index.records"]
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..search.index import OpenIndex\n"
    assert search_reach_problems(view, typed) == []
