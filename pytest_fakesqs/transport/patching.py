"""Patching other libraries: one helper that replaces attributes, remembers, and undoes.

Every patch this package puts on botocore, aiobotocore, moto or kombu goes through `Patches`:
`wrap(owner, name, make)` puts `make(current)` in place of `owner.name`, `undo()` puts back what
was there, newest first. `when_imported(module, install)` runs `install(module)` now if the
module is imported, else right after its import, and again for every fresh copy of it (pytest's
in-process runs drop the modules they imported, so a library may be imported anew under a fake
that is still active); nothing here ever imports a patched library itself.

An undo never pulls a patch that another one now sits on (that would drop the other one too):
it is left in place until the one on top is undone, which then puts back what was under both.
Meanwhile it only passes calls on, as every patch here decides per call from its module's state
whether to act.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from .import_watch import AfterImport, follow, unfollow

_ABSENT = object()  # the owner had no attribute of its own by that name (it was inherited)


class _Applied:
    """One attribute replaced (a plain class: this module loads on every pytest run)."""

    __slots__ = ("name", "owner", "previous", "replacement")

    def __init__(self, owner: Any, name: str, previous: Any, replacement: Any) -> None:
        self.owner = owner
        self.name = name
        self.previous = previous  # the owner's own value before, or _ABSENT
        self.replacement = replacement


class Patches:
    """What one part of this package changed in other libraries, to be undone newest first."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._steps: list[_Applied | Callable[[], None]] = []  # undone from the end
        self._imports: list[tuple[str, AfterImport]] = []

    def wrap(self, owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        """Put `make(current)` in place of `owner.name`, once per owner and name. `current` is
        the owner's own attribute as stored (a classmethod object, say), else the inherited one."""
        with self._lock:
            if not self.replaced(owner, name):
                own = vars(owner)
                self.replace(owner, name, make(own[name] if name in own else getattr(owner, name)))

    def replace(self, owner: Any, name: str, value: Any) -> None:
        """Set `owner.name = value`, remembering the owner's own value to put back."""
        with self._lock:
            previous = vars(owner).get(name, _ABSENT)
            self._steps.append(_Applied(owner, name, previous, value))
            setattr(owner, name, value)

    def replaced(self, owner: Any, name: str) -> bool:
        with self._lock:
            return any(
                isinstance(step, _Applied) and step.owner is owner and step.name == name
                for step in self._steps
            )

    def when_undone(self, undo: Callable[[], None]) -> None:
        """Call `undo()` on `undo()`, in turn with the attributes put back (newest first)."""
        with self._lock:
            self._steps.append(undo)

    def when_imported(self, module: str, install: AfterImport) -> None:
        """`install(module)` now if `module` is imported, and after each later import of it."""
        with self._lock:
            self._imports.append((module, install))
        follow(module, install)
        loaded = sys.modules.get(module)
        if loaded is not None:
            install(loaded)

    def undo(self) -> None:
        """Stop following imports and put every replaced attribute back, newest first."""
        with self._lock:
            imports, self._imports = self._imports, []
            steps, self._steps = self._steps, []
        for module, install in imports:
            unfollow(module, install)
        for patch in reversed(steps):
            if not isinstance(patch, _Applied):
                patch()
            elif vars(patch.owner).get(patch.name, _ABSENT) is not patch.replacement:
                _left_in_place[id(patch.replacement)] = patch  # another sits on it: see above
            else:
                previous = _under_the_left(patch.previous)
                if previous is _ABSENT:
                    delattr(patch.owner, patch.name)
                else:
                    setattr(patch.owner, patch.name, previous)

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._steps or self._imports)


# Undone patches another patch sat on, by id of their replacement: when that other one is undone,
# what it puts back is what was under them.
_left_in_place: dict[int, _Applied] = {}


def _under_the_left(value: Any) -> Any:
    left = _left_in_place.get(id(value))
    while left is not None and left.replacement is value:
        del _left_in_place[id(value)]
        value = left.previous
        left = _left_in_place.get(id(value))
    return value
