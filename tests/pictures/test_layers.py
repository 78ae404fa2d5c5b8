"""Where the pictures sit: they draw plain records, import nothing above them (type-only imports
included), nothing below imports them, and pytest starting up loads none of them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest_fakesqs

PACKAGE = Path(pytest_fakesqs.__file__).parent
# What the pictures may read: the fake's plain records and its text helpers.
RECORDS = {
    "pytest_fakesqs.fake.records",
    "pytest_fakesqs.fake.snapshot",
    "pytest_fakesqs.fake.text",
    "pytest_fakesqs.fake.views",
}
PICTURES = "pytest_fakesqs.pictures"
NEW = {
    "pytest_fakesqs.fake.snapshot",
    "pytest_fakesqs.plugin.pages",
    "pytest_fakesqs.server.dashboard",
}


def imports() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, however guarded."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["pytest_fakesqs", *path.relative_to(PACKAGE).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        here = parts if is_package else parts[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join([*base, *(node.module.split(".") if node.module else [])])
                found.add(module)
                found.update(f"{module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = found
    # The root package is the public API, importing every role; its submodules reach it only
    # because Python loads parents first, which is no dependency of theirs.
    return {
        name: {m for m in found if m in graph and m not in (name, "pytest_fakesqs")}
        for name, found in graph.items()
    }


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def test_the_pictures_import_only_plain_records() -> None:
    graph = imports()
    pictures = [m for m in graph if m.startswith("pytest_fakesqs.pictures")]
    assert len(pictures) >= 5
    for module in pictures:
        outside = {m for m in graph[module] if not m.startswith("pytest_fakesqs.pictures")}
        assert outside <= RECORDS | {"pytest_fakesqs", "pytest_fakesqs.fake"}, module


def test_no_layer_below_imports_the_pictures() -> None:
    graph = imports()
    for module, imported in graph.items():
        if module.startswith(("pytest_fakesqs.plugin", "pytest_fakesqs.server", PICTURES)):
            continue
        assert not any(m.startswith("pytest_fakesqs.pictures") for m in imported), module


def test_no_cycle_runs_through_the_pictures_or_their_callers() -> None:
    graph = imports()
    for module in graph:
        if module.startswith("pytest_fakesqs.pictures") or module in NEW:
            assert module not in reachable(graph, module), f"{module} imports itself"


def test_loading_the_plugin_loads_no_picture() -> None:
    code = (
        "import sys, pytest_fakesqs.plugin, pytest_fakesqs.server.server\n"
        "print(sorted(m for m in sys.modules if m.startswith('pytest_fakesqs.pictures')"
        " or m == 'pytest_fakesqs.server.dashboard'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert loaded.stdout.strip() == "[]"
