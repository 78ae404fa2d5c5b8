"""moto's mock lifetime, told to a listener: the start, the stop and the resets of its state.

moto 5 (`moto.core.models.MockAWS`) counts nested activations; every form a suite uses
(`@mock_aws`, `with mock_aws():`, a fixture entering it, class decorators, `start()`/`stop()`)
goes through `start(reset=...)` and `stop(remove_data=...)`, which call `_enable_patching(reset)`
on the outermost start and `_disable_patching(remove_data)` on the outermost stop. Its state is
dropped by `BackendDict.reset()`: on that start when `reset`, on that stop when `remove_data`,
and whenever a test calls `reset()` or moto's reset API itself. Those three methods are wrapped
here; moto's server and proxy modes override them and so are left alone (their state lives in
another process).

Imported only once moto is (by the drop-in, or by the transport while a fake is active and moto
is imported); every copy of moto imported while someone listens is watched (pytester's
in-process runs drop the modules they imported, so moto may be imported anew).
"""

from __future__ import annotations

import functools
import importlib
import sys
from types import ModuleType
from typing import Any, Protocol

from .patching import Patches


class MotoListener(Protocol):
    def moto_started(self, reset: bool) -> None: ...

    def moto_stopped(self, remove_data: bool) -> None: ...

    def moto_reset(self) -> None:
        """moto dropped its state outside its own start and stop."""


_listeners: list[MotoListener] = []
_patches = Patches()
_inside: list[str] = []  # "start" / "stop" while moto's own runs: their resets are theirs


def _enable_patching(original: Any) -> Any:
    @functools.wraps(original)
    def enable(self: Any, reset: bool = True) -> None:
        _inside.append("start")
        try:
            original(self, reset)
        finally:
            _inside.pop()
        for listener in list(_listeners):
            listener.moto_started(reset)

    return enable


def _disable_patching(original: Any) -> Any:
    @functools.wraps(original)
    def disable(self: Any, remove_data: bool) -> None:
        _inside.append("stop")
        try:
            original(self, remove_data)
        finally:
            _inside.pop()
        for listener in list(_listeners):
            listener.moto_stopped(remove_data)

    return disable


def _reset(original: Any) -> Any:
    function = original.__func__  # a classmethod's function

    @functools.wraps(function)
    def reset(cls: Any) -> None:
        function(cls)
        if not _inside:
            for listener in list(_listeners):
                listener.moto_reset()

    return classmethod(reset)


def moto_version() -> str:
    return str(importlib.import_module("moto").__version__)


def has_mock_aws() -> bool:
    """moto 5's single `mock_aws`; moto 4's per-service `mock_sqs` names are not watched."""
    return hasattr(importlib.import_module("moto"), "mock_aws")


def watch(listener: MotoListener) -> None:
    """Tell `listener` about moto's starts, stops and resets until `unwatch`."""
    if not _patches:
        _patches.when_imported("moto.core.models", _wrap_mock)
    if listener not in _listeners:
        _listeners.append(listener)


def _wrap_mock(models: ModuleType) -> None:
    backends = importlib.import_module("moto.core.base_backend").BackendDict
    _patches.wrap(models.MockAWS, "_enable_patching", _enable_patching)
    _patches.wrap(models.MockAWS, "_disable_patching", _disable_patching)
    _patches.wrap(backends, "reset", _reset)


def unwatch(listener: MotoListener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)
    if not _listeners:
        _patches.undo()


def moto_is_active() -> bool:
    """Whether moto's mock is on now (it was started more often than stopped)."""
    models = sys.modules.get("moto.core.models")  # never imported on this question's account
    return models is not None and int(getattr(models.MockAWS, "_nested_count", 0)) > 0
