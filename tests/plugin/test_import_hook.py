"""The import hook the guard uses: a function runs right after a module is first imported."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from pytest_fakesqs.plugin.import_hook import ImportWatch


@pytest.fixture
def module_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("watched_package", "watched_package.inner"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    package = tmp_path / "watched_package"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "inner.py").write_text("VALUE = 1\n")
    return tmp_path


def test_the_function_runs_once_the_module_has_executed(module_dir: Path) -> None:
    seen: list[ModuleType] = []
    watch = ImportWatch()
    watch.watch("watched_package.inner", seen.append)
    try:
        assert seen == []  # nothing imported on our account
        import watched_package.inner as inner  # type: ignore[import-not-found]

        assert seen == [inner]
        assert inner.VALUE == 1
        assert inner.__loader__.get_source("watched_package.inner") == "VALUE = 1\n"
    finally:
        watch.close()
    assert watch not in sys.meta_path


def test_an_already_imported_module_is_handed_over_at_once(module_dir: Path) -> None:
    import watched_package.inner as inner

    seen: list[ModuleType] = []
    watch = ImportWatch()
    watch.watch("watched_package.inner", seen.append)
    assert seen == [inner]
    assert watch not in sys.meta_path


def test_the_guard_patches_botocore_when_it_is_first_imported() -> None:
    # In a fresh interpreter: botocore is forgotten, then imported again after the guard waits.
    script = textwrap.dedent(
        """
        import sys
        from pytest_fakesqs.plugin.guard import Guard

        for name in [m for m in sys.modules if m.split(".")[0] in ("botocore", "boto3")]:
            del sys.modules[name]
        guard = Guard()
        guard.install()
        assert "botocore.endpoint" not in sys.modules
        from botocore.endpoint import Endpoint
        print(Endpoint.__dict__["_send"].__qualname__)
        guard.uninstall()
        print(Endpoint.__dict__["_send"].__qualname__)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == [
        "Guard._patch_botocore.<locals>._send",
        "Endpoint._send",
    ]
