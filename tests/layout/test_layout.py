"""The layout's rules, checked on the source: no import cycles, layers that import only
downwards, packages by role with few loose modules, small modules, a pinned public surface."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib

import pytest

from .imports import PACKAGE, cycles, import_graph, modules

# Lowest first: each layer may import only the layers before it (and itself).
LAYERS = ("engine", "api", "protocol", "transport")
# Size follows cohesion: past ~500 lines a module says in its docstring why it is one idea;
# none grows past 600.
SOFT_MAX_LINES = 500
MAX_LINES = 600
MAX_LOOSE_MODULES = 3  # at the package top, besides __init__ and __main__


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_import_graph_has_no_cycles() -> None:
    assert cycles(import_graph()) == []


def test_cycles_are_found_when_there_are_some() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    allowed = {*LAYERS[: LAYERS.index(layer) + 1], "_lazy", "_spelling"}  # helpers of every layer
    wrong = {
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if layer_of(module) == layer
        for target in targets
        if layer_of(target) not in allowed and target != "pytest_fakesqs"
    }
    assert sorted(wrong) == []


@pytest.mark.parametrize("layer", ["engine", "api"])
def test_the_engine_and_the_api_never_see_botocore_or_http(layer: str) -> None:
    foreign = ("botocore", "boto3", "urllib3", "http", "socket", "pytest")
    seen = []
    for module, path in modules().items():
        if layer_of(module) == layer:
            text = path.read_text()
            seen += [
                f"{module}: {name}"
                for name in foreign
                if f"\nimport {name}" in text or f"\nfrom {name}" in text
            ]
    assert seen == []


def test_few_modules_lie_loose_at_the_package_top() -> None:
    loose = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    )
    assert len(loose) <= MAX_LOOSE_MODULES, loose


def test_no_module_is_over_600_lines() -> None:
    long = {
        name: len(path.read_text().splitlines())
        for name, path in modules().items()
        if len(path.read_text().splitlines()) > MAX_LINES
    }
    assert long == {}


def test_a_module_past_500_lines_says_why_in_its_docstring() -> None:
    """A long module is fine when it is one idea; its docstring says which and why, in a
    sentence that names its length ("One module past 500 lines: ..."), so a reader knows the
    length was chosen, not drifted into."""
    unexplained = []
    for name, path in modules().items():
        text = path.read_text()
        if len(text.splitlines()) <= SOFT_MAX_LINES:
            continue
        docstring = ast.get_docstring(ast.parse(text)) or ""
        if f"past {SOFT_MAX_LINES} lines" not in " ".join(docstring.split()):
            unexplained.append(name)
    assert unexplained == []


PUBLIC_NAMES = [
    "Backlog",
    "Call",
    "DeadLetter",
    "FakeSQS",
    "FakeSQSServer",
    "FakeSQSWarning",
    "HistoryEvent",
    "IdleReport",
    "InvocationContext",
    "MessageView",
    "Options",
    "QueueView",
    "RealSQSBlocked",
    "RefusedDelivery",
    "TriggerReport",
    "fake_sqs",
]


def test_the_public_names_are_pinned_and_each_resolves() -> None:
    import pytest_fakesqs

    assert pytest_fakesqs.__all__ == PUBLIC_NAMES
    for name in PUBLIC_NAMES:
        assert getattr(pytest_fakesqs, name).__name__ == name
    assert set(PUBLIC_NAMES) <= set(dir(pytest_fakesqs))
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        pytest_fakesqs.nothing  # noqa: B018


def test_the_entry_points_are_pinned() -> None:
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"fakesqs": "pytest_fakesqs.server.cli:main"}
    assert project["entry-points"]["pytest11"] == {"fakesqs": "pytest_fakesqs.plugin"}
    from pytest_fakesqs.server.cli import main

    assert callable(main)


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    probe = (
        "import sys, pytest_fakesqs, pytest_fakesqs.plugin\n"
        "heavy = ('botocore', 'boto3', 'urllib3', 'hypothesis', 'pytest_fakesqs.fake.facade', "
        "'pytest_fakesqs.api.service', 'pytest_fakesqs.engine.broker', 'pytest_fakesqs.transport', "
        "'greenlet', 'httptools', 'prometheus_client', "
        "'pytest_fakesqs.engine.faults', 'pytest_fakesqs.fake.fault_schedule')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_only_the_strategies_module_imports_hypothesis() -> None:
    importers = sorted(
        module
        for module, path in modules().items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            name.split(".")[0] == "hypothesis"
            for name in (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        )
    )
    assert set(importers) == {"pytest_fakesqs.strategies"}


def test_a_run_without_sqs_tests_loads_only_what_reading_the_options_needs(
    pytester: pytest.Pytester,
) -> None:
    # pytest starts, registers and reads the options, prints its header (the plugin's line
    # included) and runs plain tests: the options' types, the fixtures' bodies, the engine, the
    # api, the transport and contract mode never load (a fresh process: this one has them all).
    pytester.makeconftest(
        """
        import sys

        def pytest_sessionfinish(session):
            loaded = sorted(m for m in sys.modules if m.startswith("pytest_fakesqs"))
            print("loaded:", " ".join(loaded))
        """
    )
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess("-s", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fakesqs: clock=frozen, region=us-east-1, *"])
    (line,) = [line for line in result.stdout.lines if "loaded:" in line]
    loaded = set(line.partition("loaded:")[2].split())
    assert "pytest_fakesqs.plugin.guard" in loaded  # blocking is on: the guard waits for botocore
    never = {
        "pytest_fakesqs.fake.options",
        "pytest_fakesqs.engine",
        "pytest_fakesqs.api",
        "pytest_fakesqs.protocol",
        "pytest_fakesqs.transport.serving",
        "pytest_fakesqs.transport.patching",
        "pytest_fakesqs.contract.sqs",
        "pytest_fakesqs.contract.session",
        "pytest_fakesqs.plugin.fixtures",
        "pytest_fakesqs.plugin.options",
        "pytest_fakesqs.plugin.refusals",
        "pytest_fakesqs.plugin.moto_lifetime",
        "pytest_fakesqs.plugin.pages",
    }
    assert sorted(loaded & never) == []
