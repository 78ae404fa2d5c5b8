"""The virtual clock: one per fake, injected into the engine, never patched over global time."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Literal

ClockMode = Literal["frozen", "frozen-instant", "autojump", "real", "system"]
CLOCK_MODES: tuple[ClockMode, ...] = ("frozen", "frozen-instant", "autojump", "real", "system")
VIRTUAL_MODES: tuple[ClockMode, ...] = ("frozen", "frozen-instant", "autojump")

# A fixed, recognisable default start so frozen tests are reproducible.
DEFAULT_START = datetime(2024, 1, 1, tzinfo=UTC)
DEFAULT_AUTOJUMP_THRESHOLD = 0.05
# How long a system-clock long poll waits in real time before checking whether time moves at all.
SYSTEM_WAIT_SLICE = 0.05

# How a long poll really waits: (condition, seconds) -> notified; see cancellation.Cancellation.
Block = Callable[[threading.Condition, float], bool]


def _condition_wait(condition: threading.Condition, seconds: float) -> bool:
    return condition.wait(seconds)


class _ServingFor(threading.local):
    """A thread serving a call for another (aiobotocore's offloaded long poll) counts as that
    one. The class default answers for a thread that set none, without the AttributeError a
    getattr() default costs on every call (0.3 us; calling_thread() is on every call's path)."""

    thread_id: int | None = None


_serving_for = _ServingFor()


@contextlib.contextmanager
def serving_for(thread_id: int) -> Iterator[None]:
    """Long polls made in this block count as made by the thread `thread_id`."""
    previous = _serving_for.thread_id
    _serving_for.thread_id = thread_id
    try:
        yield
    finally:
        _serving_for.thread_id = previous


def calling_thread() -> int:
    """The thread a long poll counts as coming from."""
    thread_id = _serving_for.thread_id
    return threading.get_ident() if thread_id is None else thread_id


def to_seconds(amount: float | timedelta) -> float:
    """Accept seconds or a timedelta, as `advance()` does."""
    if isinstance(amount, timedelta):
        return amount.total_seconds()
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise TypeError(f"expected seconds (int or float) or a timedelta, got {amount!r}")
    return float(amount)


def to_epoch(start: datetime | str | float | None) -> float | None:
    """A start moment as epoch seconds; naive datetimes are taken as UTC."""
    if start is None:
        return None
    if isinstance(start, int | float) and not isinstance(start, bool):
        return float(start)
    if isinstance(start, str):
        try:
            start = datetime.fromisoformat(start.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"start must be an ISO-8601 date-time, got {start!r}") from None
    if isinstance(start, datetime):
        if start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
        return start.timestamp()
    raise TypeError(f"start must be a datetime, an ISO-8601 string or epoch seconds, got {start!r}")


class Clock:
    """Time for the engine. `now()` is epoch seconds; `advance()` only ever moves forward.

    frozen         - stands still until moved. An empty long poll from the owner thread (the
                     one that started the fake) jumps to its next deadline at once; from any
                     other thread it first waits like autojump, so a background consumer cannot
                     race time ahead while the test's own thread is busy elsewhere.
    frozen-instant - frozen as it was before that rule: every empty long poll, from any thread,
                     jumps at once.
    autojump       - like frozen, but every long poll first waits a short real threshold for
                     other threads.
    real           - wall clock (plus any advance); long polls block and wake on send.
    system         - reads time.time() at every call, so freezegun / time-machine steer it.
    """

    def __init__(
        self,
        mode: ClockMode = "frozen",
        *,
        start: datetime | str | float | None = None,
        autojump_threshold: float = DEFAULT_AUTOJUMP_THRESHOLD,
    ) -> None:
        if mode not in CLOCK_MODES:
            raise ValueError(f"clock must be one of {', '.join(CLOCK_MODES)}; got {mode!r}")
        self.mode: ClockMode = mode
        # Read on every clock reading: a plain attribute, not a property (the mode never changes).
        self.is_virtual = mode in VIRTUAL_MODES
        self.autojump_threshold = autojump_threshold
        # frozen: this thread's long polls jump at once, every other thread's wait first.
        self.owner_thread = threading.get_ident()
        self._lock = threading.Lock()
        start_epoch = to_epoch(start)
        if self.is_virtual:
            self._now = start_epoch if start_epoch is not None else DEFAULT_START.timestamp()
            self._offset = 0.0
        else:
            self._now = 0.0
            # A start on a wall clock shifts it, so the test still sees the moment it asked for.
            self._offset = 0.0 if start_epoch is None else start_epoch - time.time()

    def claim(self) -> None:
        """Make the calling thread the owner: its long polls on a frozen clock jump at once."""
        self.owner_thread = threading.get_ident()

    def waits_before_jumping(self) -> bool:
        """Whether a long poll made now first waits the threshold for other threads."""
        if self.mode == "autojump":
            return True
        return self.mode == "frozen" and calling_thread() != self.owner_thread

    def now(self) -> float:
        if self.is_virtual:
            return self._now
        return time.time() + self._offset

    def now_datetime(self) -> datetime:
        return datetime.fromtimestamp(self.now(), tz=UTC)

    def advance(self, amount: float | timedelta) -> float:
        """Move time forward by `amount`; returns the new now()."""
        seconds = to_seconds(amount)
        if seconds < 0:
            raise ValueError("time can't go backwards")
        with self._lock:
            if self.is_virtual:
                self._now += seconds
            else:
                self._offset += seconds
        return self.now()

    def advance_to(self, moment: float) -> float:
        """Jump to the epoch second `moment` (never backwards)."""
        with self._lock:
            current = self.now()
            if moment < current:
                raise ValueError("time can't go backwards")
            if self.is_virtual:
                self._now = moment
            else:
                self._offset += moment - current
        return self.now()

    def wait(
        self,
        condition: threading.Condition,
        deadline: float,
        next_event: float | None,
        block: Block | None = None,
    ) -> bool:
        """Called by a long poll with nothing to return, holding `condition`'s lock. Real
        waiting is `block(condition, seconds)` (True: notified), `condition.wait` by default.

        Returns False when the poll should give up (its deadline passed and time cannot move).
        """
        block = block or _condition_wait
        target = deadline if next_event is None else min(deadline, next_event)
        if (
            self.is_virtual
            and self.waits_before_jumping()
            and block(condition, self.autojump_threshold)
        ):
            return True  # woken by a send in another thread
        if self.is_virtual:
            with self._lock:
                self._now = max(self._now, target)
            return True
        before = self.now()
        if self.mode == "system":
            return self._wait_system(condition, target - before, before, block)
        block(condition, max(0.0, target - before))
        return True  # the wall clock moved (or a send woke us): the poll re-checks its deadline

    def _wait_system(
        self, condition: threading.Condition, remaining: float, before: float, block: Block
    ) -> bool:
        # freezegun / time-machine may hold time.time() still: wait a short real slice, then
        # give up if time did not move at all, since no amount of real waiting reaches the deadline.
        if block(condition, min(max(0.0, remaining), SYSTEM_WAIT_SLICE)):
            return True  # woken by a send in another thread
        return self.now() > before
