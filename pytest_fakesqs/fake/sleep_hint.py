"""A hint for a test that sleeps in real time on the fake's virtual clock, then finds nothing.

`time.sleep(31)` to let a visibility timeout pass is what a test against real SQS does; on the
fake's clock it moves nothing, so the next receive comes back empty and the test fails with
`KeyError: 'Messages'`. When the test's own thread spent over a second of real time between two
calls while the virtual clock stood still, and the second call is a receive that came back
empty, the failure report says what to do instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..engine import Clock
from ..engine.clock import calling_thread
from ..protocol import WireHandler
from ..protocol.dispatch import CallRecord

# Real seconds between two calls, the clock standing still, before an empty receive is a hint.
REAL_SECONDS = 1.0


class SleepWatch:
    """Watches the calls of the thread that started the fake; remembers one hint."""

    def __init__(
        self, handler: WireHandler, clock: Clock, *, real_time: Callable[[], float] | None = None
    ) -> None:
        self.clock = clock
        # Where real time is read: tests pass a controllable source instead of sleeping.
        self.real_time = real_time or time.monotonic
        self._last: tuple[float, float] | None = None  # (virtual, real) after the last call
        self.hint: str | None = None
        if clock.is_virtual:  # on a wall clock, sleeping does move time
            handler.listeners.append(self._heard)

    def _heard(self, record: CallRecord) -> None:
        clock = self.clock
        if calling_thread() != clock.owner_thread:
            return  # a consumer thread may well wait for real; only the test's own is judged
        last, real = self._last, self.real_time()
        self._last = (clock.now(), real)
        if record.action != "ReceiveMessage" or last is None or self.hint is not None:
            return
        stood_still = record.at == last[0]
        waited = real - last[1]
        empty = record.error is None and not (record.result or {}).get("Messages")
        if empty and stood_still and waited > REAL_SECONDS:
            self.hint = (
                f"hint: a receive came back empty after the test's thread spent {waited:.1f}s "
                "of real time while the fake's clock stood still: sleeping does not move the "
                f"fake's clock, fakesqs.advance(...) does (here: fakesqs.advance({waited:.0f}))"
            )
