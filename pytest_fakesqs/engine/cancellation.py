"""How a long poll waits, and gives up when its caller went away (an HTTP client that hung up).

A transport binds a `Cancellation` to the caller it serves (a thread, or an event loop's task:
the binding is a context variable, so each has its own). A long poll tells the token which
condition it waits on, so `cancel()` from anywhere wakes it at once and the poll returns empty
instead of holding its caller until its deadline. The token also decides *how* to wait:
`block()` is `condition.wait()` by default; an event-loop transport overrides it to park the
poll on the queue's `PollCondition` and give its thread back to the loop until a send (or the
timeout) wakes it, so a waiting long poll costs no thread.
"""

from __future__ import annotations

import contextvars
import threading
from collections import OrderedDict
from collections.abc import Callable

_bound: contextvars.ContextVar[Cancellation | None] = contextvars.ContextVar(
    "fakesqs_cancellation", default=None
)

Wake = Callable[[], None]


class PollCondition(threading.Condition):
    """A queue's condition: threads wait on it as on any `Condition`; a waiter that must not
    block its thread parks a `wake` callback instead. `notify(n)` wakes n waiters of either
    kind, parked ones first (in the order they parked), so one send wakes one long poll."""

    def __init__(self, lock: threading.Lock) -> None:
        super().__init__(lock)
        self._parked: OrderedDict[Wake, None] = OrderedDict()

    def park(self, wake: Wake) -> None:
        """Call `wake` (once) at a later notify; the lock is held."""
        self._parked[wake] = None

    def unpark(self, wake: Wake) -> None:
        """Forget `wake` if no notify took it yet; the lock is held."""
        self._parked.pop(wake, None)

    @property
    def parked(self) -> int:
        return len(self._parked)

    def notify(self, n: int = 1) -> None:
        parked = self._parked
        woken = 0
        while parked and woken < n:
            wake, _ = parked.popitem(last=False)
            wake()
            woken += 1
        if woken < n:
            super().notify(n - woken)

    def notify_all(self) -> None:
        parked = self._parked
        while parked:
            parked.popitem(last=False)[0]()
        super().notify_all()


class Cancellation:
    """One caller's token. `waiting()` and `block()` are called by the engine; `cancel()` by
    its transport."""

    __slots__ = ("_condition", "cancelled")

    def __init__(self) -> None:
        self.cancelled = False
        self._condition: threading.Condition | None = None

    def waiting(self, condition: threading.Condition | None) -> None:
        """A long poll starts (or, with None, stops) waiting on `condition`; its lock is held."""
        self._condition = condition

    def block(self, condition: threading.Condition, timeout: float) -> bool:
        """Wait on `condition` (its lock held) up to `timeout` real seconds; True if notified."""
        return condition.wait(timeout)

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
    """Make `token` the current caller's (None: unbind)."""
    _bound.set(token)


def current() -> Cancellation | None:
    return _bound.get()
