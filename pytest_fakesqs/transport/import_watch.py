"""Run a function right after a module is imported, each time it is, never importing it.

A `sys.meta_path` finder that wraps only the loaders of the modules followed: the real-SQS
guard waits here for botocore on every pytest run (so a run that never imports botocore never
pays for it), and the patches (patching.py) follow each fresh copy of a library they patch.
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
    """The module's own loader, and the followers' installs once the module has executed."""

    def __init__(self, loader: importlib.abc.Loader, name: str) -> None:
        self._loader = loader
        self._name = name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        for install in _watch.followers(self._name):
            install(module)

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, resource readers...
        return getattr(self._loader, name)


class ImportWatch(importlib.abc.MetaPathFinder):
    """A `sys.meta_path` finder that only wraps the loaders of the modules followed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._followed: dict[str, list[AfterImport]] = {}

    def follow(self, name: str, install: AfterImport) -> None:
        with self._lock:
            self._followed.setdefault(name, []).append(install)
            if self not in sys.meta_path:
                sys.meta_path.insert(0, self)

    def unfollow(self, name: str, install: AfterImport) -> None:
        with self._lock:
            installs = self._followed.get(name, [])
            if install in installs:
                installs.remove(install)
            if not installs:
                self._followed.pop(name, None)
            if not self._followed and self in sys.meta_path:
                sys.meta_path.remove(self)

    def followers(self, name: str) -> list[AfterImport]:
        with self._lock:
            return list(self._followed.get(name, ()))

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        with self._lock:
            if fullname not in self._followed:
                return None
        spec = _spec_from_the_other_finders(self, fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ThenCall(spec.loader, fullname)
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


_watch = ImportWatch()  # one finder for every follower in this copy of the package


def follow(module: str, install: AfterImport) -> None:
    """`install(module)` after every import of `module` from now on (not for one already
    imported: see Patches.when_imported)."""
    _watch.follow(module, install)


def unfollow(module: str, install: AfterImport) -> None:
    _watch.unfollow(module, install)


def followers(module: str) -> list[AfterImport]:
    return _watch.followers(module)
