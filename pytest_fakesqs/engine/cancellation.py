"""Giving up a long poll whose caller went away (an HTTP client that disconnected).

A transport binds a `Cancellation` to the thread that serves a connection; a long poll on that
thread tells it which condition it waits on, so `cancel()` from another thread wakes it at once
and the poll returns empty instead of holding its thread until its deadline.
"""

from __future__ import annotations

import threading

_bound = threading.local()


class Cancellation:
    """One caller's token. `waiting()` is called by the engine; `cancel()` by its transport."""

    __slots__ = ("_condition", "cancelled")

    def __init__(self) -> None:
        self.cancelled = False
        self._condition: threading.Condition | None = None

    def waiting(self, condition: threading.Condition | None) -> None:
        """A long poll starts (or, with None, stops) waiting on `condition`; its lock is held."""
        self._condition = condition

    def cancel(self) -> None:
        self.cancelled = True  # set before the condition is read: a poll checks it after waiting()
        condition = self._condition
        if condition is not None:
            with condition:
                condition.notify_all()

    def reset(self) -> None:
        self.cancelled = False
        self._condition = None


def bind(token: Cancellation | None) -> None:
    """Make `token` the current thread's (None: unbind)."""
    _bound.token = token


def current() -> Cancellation | None:
    token: Cancellation | None = getattr(_bound, "token", None)
    return token
