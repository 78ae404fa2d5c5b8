"""One request served on the event loop: a greenlet that runs the synchronous handler, and parks
(instead of blocking the loop's thread) while a long poll waits.

The SQS layers below are synchronous: a long poll is a loop in the engine that waits on its
queue's condition. Each request runs in a greenlet of its own on the loop's thread; when the
engine waits, `block()` parks the greenlet on the queue's `PollCondition` and switches back to
the loop. A send (from the loop, or from a test's thread in-process) wakes it through
`call_soon_threadsafe`, a timer ends the wait when its time is up, `cancel()` when the client
hangs up: the first of the three resumes the greenlet, which carries on where it stopped. A
waiting poll costs a greenlet (a few KiB), never a thread.

Invariant the loop relies on: a greenlet switches away only in `block()`, after releasing the
queue's lock, and holds no other lock then (the engine waits nowhere else), so no callback on
the loop ever waits for a lock a parked greenlet holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

from greenlet import greenlet

from ..engine import cancellation
from ..engine.cancellation import PollCondition
from ..protocol import WireRequest, WireResponse

Answer = Callable[[WireRequest], WireResponse]
Finished = Callable[["RequestRun", WireResponse], None]


class RequestRun(cancellation.Cancellation):
    """A request being answered: its greenlet and its long poll's cancellation token."""

    __slots__ = (
        "_answer",
        "_finished",
        "_greenlet",
        "_loop",
        "_loop_thread",
        "_notified",
        "_waiting",
    )

    def __init__(self, loop: asyncio.AbstractEventLoop, answer: Answer, finished: Finished) -> None:
        super().__init__()
        self._loop = loop
        self._loop_thread = threading.get_ident()  # made on the loop's thread
        self._finished = finished
        self._greenlet = greenlet(self._main)
        self._waiting = False
        self._notified = self._on_notify  # one bound method: the key it is parked under
        self._answer = answer

    def start(self, request: WireRequest) -> None:
        """Run the request on the loop until it is answered or parks (on the loop's thread)."""
        self._step(request)

    def _main(self, request: WireRequest) -> WireResponse:
        cancellation.bind(self)  # this greenlet's own context: no other request sees it
        return self._answer(request)

    def _step(self, value: Any) -> None:
        result = self._greenlet.switch(value)
        if self._greenlet.dead:
            self._finished(self, result)

    def block(self, condition: threading.Condition, timeout: float) -> bool:
        if not isinstance(condition, PollCondition) or self._greenlet is not greenlet.getcurrent():
            return condition.wait(timeout)  # not on this run's greenlet: wait as a thread does
        condition.park(self._notified)
        self._waiting = True
        timer = self._loop.call_later(timeout, self._resume, False)
        condition.release()
        try:
            notified: bool = self._greenlet.parent.switch()  # type: ignore[union-attr]
        finally:
            timer.cancel()
            condition.acquire()
            condition.unpark(self._notified)
        return notified

    def cancel(self) -> None:
        self.cancelled = True
        if self._waiting:
            self._loop.call_soon_threadsafe(self._resume, False)

    def _on_notify(self) -> None:
        # Called by PollCondition.notify, under the queue's lock, from whichever thread sent.
        if threading.get_ident() == self._loop_thread:
            self._loop.call_soon(self._resume, True)
        else:
            # A closed loop (RuntimeError): the server stopped, and nobody is left to wake.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._resume, True)

    def _resume(self, notified: bool) -> None:
        if not self._waiting:
            return  # the timer, a notify or a cancel already resumed it
        self._waiting = False
        self._step(notified)

    @property
    def parked(self) -> bool:
        """Whether its long poll waits right now."""
        return self._waiting
