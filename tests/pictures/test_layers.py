"""Where the pictures sit: they draw plain records, import nothing above them (type-only imports
included), nothing below imports them, and pytest starting up loads none of them. (That the
whole graph has no cycle is tests/layout's.)"""

from __future__ import annotations

import subprocess
import sys

from ..layout.imports import import_graph

# What the pictures may read: the fake's plain records and its text helpers.
RECORDS = {
    "pytest_fakesqs.fake.records",
    "pytest_fakesqs.fake.snapshot",
    "pytest_fakesqs.fake.text",
    "pytest_fakesqs.fake.views",
}
PICTURES = "pytest_fakesqs.pictures"


def test_the_pictures_import_only_plain_records() -> None:
    graph = import_graph()
    pictures = [m for m in graph if m.startswith("pytest_fakesqs.pictures")]
    assert len(pictures) >= 5
    for module in pictures:
        outside = {m for m in graph[module] if not m.startswith("pytest_fakesqs.pictures")}
        assert outside <= RECORDS | {"pytest_fakesqs", "pytest_fakesqs.fake"}, module


def test_no_layer_below_imports_the_pictures() -> None:
    graph = import_graph()
    for module, imported in graph.items():
        if module.startswith(("pytest_fakesqs.plugin", "pytest_fakesqs.server", PICTURES)):
            continue
        assert not any(m.startswith("pytest_fakesqs.pictures") for m in imported), module


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
