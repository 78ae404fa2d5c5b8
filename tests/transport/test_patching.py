"""The patching helper: replaces, remembers, undoes newest first, and follows imports."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_fakesqs.transport import import_watch
from pytest_fakesqs.transport.patching import Patches


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


def test_install_runs_once_the_module_has_executed(module_dir: Path) -> None:
    seen: list[ModuleType] = []
    patches = Patches()
    patches.when_imported("watched_package.inner", seen.append)
    try:
        assert seen == []  # nothing imported on our account
        assert "watched_package.inner" not in sys.modules
        import watched_package.inner as inner  # type: ignore[import-not-found]

        assert seen == [inner]
        assert inner.VALUE == 1
        assert inner.__loader__.get_source("watched_package.inner") == "VALUE = 1\n"
    finally:
        patches.undo()
    assert import_watch.followers("watched_package.inner") == []


def test_an_imported_module_is_handed_over_at_once_and_every_fresh_copy_too(
    module_dir: Path,
) -> None:
    import watched_package.inner as first

    seen: list[ModuleType] = []
    patches = Patches()
    patches.when_imported("watched_package.inner", seen.append)
    try:
        assert seen == [first]
        del sys.modules["watched_package.inner"]  # as pytester's in-process runs do
        second = importlib.import_module("watched_package.inner")
        assert second is not first
        assert seen == [first, second]
    finally:
        patches.undo()
    del sys.modules["watched_package.inner"]
    importlib.import_module("watched_package.inner")
    assert len(seen) == 2  # undone: no longer followed


class Library:
    def greet(self) -> str:
        return "hello"

    @classmethod
    def kind(cls) -> str:
        return "library"


class Derived(Library):
    pass


def _louder(original: Callable[..., str]) -> Callable[..., str]:
    return lambda self: original(self).upper()


def test_wrap_and_undo_newest_first() -> None:
    first, second = Patches(), Patches()
    first.wrap(Library, "greet", _louder)
    first.wrap(Library, "greet", _louder)  # once per owner and name
    second.wrap(Library, "greet", lambda original: lambda self: original(self) + "!")
    assert Library().greet() == "HELLO!"
    second.undo()
    assert Library().greet() == "HELLO"
    first.undo()
    assert Library.__dict__["greet"].__qualname__ == "Library.greet"


def test_undo_leaves_a_patch_another_sits_on() -> None:
    ours, theirs = Patches(), Patches()
    ours.wrap(Library, "greet", _louder)
    theirs.wrap(Library, "greet", lambda original: lambda self: original(self) + "!")
    ours.undo()  # out of order: pulling ours would drop theirs too
    assert Library().greet() == "HELLO!"
    theirs.undo()  # puts back what was under ours, not ours
    assert Library().greet() == "hello"
    assert Library.__dict__["greet"].__qualname__ == "Library.greet"
    assert not ours and not theirs


def test_classmethods_and_inherited_attributes() -> None:
    patches = Patches()
    calls: list[str] = []

    def wrap_kind(original: Any) -> Any:
        def kind(cls: type) -> str:
            calls.append(cls.__name__)
            return str(original.__func__(cls)).upper()

        return classmethod(kind)

    patches.wrap(Library, "kind", wrap_kind)
    patches.wrap(Derived, "greet", _louder)  # inherited: Derived gets an attribute of its own
    assert (Derived.kind(), Derived().greet(), Library().greet()) == ("LIBRARY", "HELLO", "hello")
    assert calls == ["Derived"]
    undone: list[str] = []
    patches.when_undone(lambda: undone.append("callback"))
    patches.undo()
    assert undone == ["callback"]
    assert "greet" not in Derived.__dict__
    assert Derived.kind() == "library"


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
        print(Endpoint.__dict__["create_request"].__qualname__)
        print(Endpoint.__dict__["_send"].__qualname__)
        guard.uninstall()
        print(Endpoint.__dict__["create_request"].__qualname__)
        print(Endpoint.__dict__["_send"].__qualname__)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == [
        "_refusing_before_signing.<locals>.create_request",
        "_serving_send.<locals>._send",
        "Endpoint.create_request",
        "Endpoint._send",
    ]
