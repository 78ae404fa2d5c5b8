"""Run a function right after a module is first imported, without importing it ourselves.

The guard patches botocore only once the code under test imports it, so a run that never
touches botocore never pays for it. If the module is already imported, the function runs now.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

AfterImport = Callable[[ModuleType], None]


class _ThenCall(importlib.abc.Loader):
    """The module's own loader, and `after(module)` once the module has executed."""

    def __init__(self, loader: importlib.abc.Loader, after: AfterImport) -> None:
        self._loader = loader
        self._after = after

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._after(module)

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, resource readers...
        return getattr(self._loader, name)


class ImportWatch(importlib.abc.MetaPathFinder):
    """A `sys.meta_path` finder that only wraps the loaders of the modules it watches."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[str, AfterImport] = {}

    def watch(self, name: str, after: AfterImport) -> None:
        """`after(module)` once `name` is imported: now if it already is, else when it is."""
        module = sys.modules.get(name)
        if module is not None:
            after(module)
            return
        with self._lock:
            self._watched[name] = after
            if self not in sys.meta_path:
                sys.meta_path.insert(0, self)

    def close(self) -> None:
        with self._lock:
            self._watched.clear()
            if self in sys.meta_path:
                sys.meta_path.remove(self)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        with self._lock:
            after = self._watched.pop(fullname, None)
        if after is None:
            return None
        spec = _spec_from_the_other_finders(self, fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ThenCall(spec.loader, after)
        return spec


def _spec_from_the_other_finders(
    watch: ImportWatch,
    fullname: str,
    path: Sequence[str] | None,
    target: ModuleType | None,
) -> importlib.machinery.ModuleSpec | None:
    for finder in list(sys.meta_path):
        find_spec = getattr(finder, "find_spec", None)
        if finder is watch or find_spec is None:
            continue
        spec: importlib.machinery.ModuleSpec | None = find_spec(fullname, path, target)
        if spec is not None:
            return spec
    return None
