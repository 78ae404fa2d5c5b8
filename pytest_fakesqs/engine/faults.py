"""Where SQS may misbehave toward a consumer, who decides, and what fired.

SQS delivers at least once, hands out a standard queue's messages in no promised order and may
answer a short poll with nothing; a call may fail with an error its client retries. At each such
opportunity the engine (and, for calls, the fake's call path) asks one `FaultDecider`:
`FaultPlan` decides by seeded probabilities (the options duplicate_delivery, standard_order,
empty_receives and seed), fake.fault_schedule.FaultSchedule by a plan Hypothesis drew. The
`FaultSeam` between them asks the decider, adds the targeted faults a test asked for
(duplicate_next), and records every fault that took effect, in order.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from .fault_options import StandardOrder, check_probability, check_standard_order

if TYPE_CHECKING:
    from .message import Message
    from .settings import QueueKey

# -- what fired -------------------------------------------------------------------------------


@dataclass(slots=True)
class DuplicateFired:
    """A delivery SQS will make once more: `copy` (same MessageId and body) waits in `queue`."""

    kind: ClassVar[str] = "duplicate_delivery"
    source: str  # what asked for it: "duplicate_delivery=0.3", "duplicate_next('orders')", ...
    queue: str
    at: float
    original: Message
    copy: Message
    delay: float  # the copy becomes visible this long after the delivery
    receive_count: int  # the copy's count when made: it was received once it is higher

    @property
    def received(self) -> bool:
        return self.copy.receive_count > self.receive_count


@dataclass(slots=True)
class ReorderFired:
    """A receive from a standard queue handed `first` out ahead of `passed_over`, sent earlier."""

    kind: ClassVar[str] = "standard_order"
    source: str
    queue: str
    at: float
    first: Message
    passed_over: Message


@dataclass(slots=True)
class EmptyFired:
    """A short poll of a queue holding `visible` messages came back empty."""

    kind: ClassVar[str] = "empty_receives"
    source: str
    queue: str
    at: float
    visible: int


@dataclass(slots=True)
class ErrorFired:
    """Call number `call` (`action`) failed `times` times in a row with `code`."""

    kind: ClassVar[str] = "error"
    source: str
    queue: str | None
    at: float
    action: str
    code: str
    status: int
    call: int
    times: int = 1


Fired = DuplicateFired | ReorderFired | EmptyFired | ErrorFired
FiredListener = Callable[[Fired], None]


# -- who decides ------------------------------------------------------------------------------


class FaultDecider:
    """Answers, at each opportunity to misbehave, whether SQS does there. This one never does:
    a decider overrides the opportunities it has faults for. The seam serialises the calls."""

    def attach(self) -> None:
        """A fake starts using this decider: a decider with state starts afresh."""

    @property
    def engine_faults(self) -> bool:
        """Whether it may ever answer yes to the engine's questions below (or only to calls)."""
        return False

    def source(self, kind: str) -> str:
        """What a fault of `kind` it decided stands for, in the words of its option."""
        return kind

    def duplicate(self, queue: str) -> float | None:
        """A message was just received from standard queue `queue`: is it delivered once more,
        and after how many seconds does its copy become visible? None: delivered once."""
        return None

    def reorders(self, queue: str, visible: int) -> bool:
        """A receive from standard queue `queue`, holding `visible` visible messages: does the
        decider want to choose their order (`order` is called next, with some of them)?"""
        return False

    def order(self, queue: str, window: list[Message]) -> None:
        """Rearrange `window` (visible messages, oldest first) into the order handed out."""

    def empties(self, queue: str, visible: int) -> bool:
        """A short poll of `queue`, holding `visible` visible messages: comes it back empty?"""
        return False

    def fails(self, action: str, queue: str | None) -> tuple[str, int] | None:
        """A new call (not a retry) of `action`: does it fail, with which error code and how
        many times in a row (the fake caps that at what the client's retries absorb)?"""
        return None


@dataclass
class FaultPlan(FaultDecider):
    """The seeded decider: each opportunity draws from one generator seeded with `seed`, so the
    same seed (and the same calls) gives the same deliveries."""

    seed: int
    duplicate_delivery: float = 0.0
    standard_order: StandardOrder = "fifo"
    empty_receives: float = 0.0
    _random: random.Random = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_probability("duplicate_delivery", self.duplicate_delivery)
        check_probability("empty_receives", self.empty_receives)
        check_standard_order(self.standard_order)
        self._random = random.Random(self.seed)

    @property
    def active(self) -> bool:
        return bool(self.duplicate_delivery or self.empty_receives or self.shuffles)

    @property
    def shuffles(self) -> bool:
        return self.standard_order == "shuffled"

    engine_faults = active

    def source(self, kind: str) -> str:
        value = getattr(self, kind)
        return f"{kind}={value!r}"

    def duplicate(self, queue: str) -> float | None:
        chosen = bool(self.duplicate_delivery) and self._random.random() < self.duplicate_delivery
        return 0.0 if chosen else None  # the copy is visible at once, behind the queue's others

    def reorders(self, queue: str, visible: int) -> bool:
        return self.shuffles

    def order(self, queue: str, window: list[Message]) -> None:
        self._random.shuffle(window)
        window.reverse()  # handed out from the end of the shuffled list, as it always was

    def empties(self, queue: str, visible: int) -> bool:
        return bool(self.empty_receives) and self._random.random() < self.empty_receives


# -- the seam ---------------------------------------------------------------------------------


class FaultSeam:
    """Between the opportunities and the decider (engine.injected.FaultDecisions): asks it, one
    caller at a time, applies the duplicates a test forced (duplicate_next) first, and records
    what fired, in order. Callers hold a queue's lock; the seam never takes one."""

    def __init__(self, decider: FaultDecider, *, limit: int | None = None) -> None:
        self.decider = decider
        # With a `limit` (a fake left running, history_limit), only the latest are kept.
        self.fired: deque[Fired] = deque(maxlen=limit)
        self.listeners: list[FiredListener] = []
        # duplicate_next(queue, times): the next `times` deliveries from that queue, whatever
        # the decider says.
        self.forced_duplicates: dict[QueueKey, int] = {}  # still to come
        self.forced_asked: dict[QueueKey, int] = {}  # asked for in all
        self.forced_sources: dict[QueueKey, str] = {}
        # What the warnings about faults that never happened need to say why.
        self.standard_deliveries = 0
        self.receives_with_choice = 0  # receives from a standard queue with >= 2 visible
        self.standard_receives = 0
        self.short_polls_with_messages = 0
        self.short_polls = 0
        self.calls = 0  # new calls (not retries) the decider was asked about
        self._copy_sources: dict[str, str] = {}  # message id -> who asked for its copy
        self._lock = threading.Lock()
        decider.attach()

    @property
    def engine_faults(self) -> bool:
        return self.decider.engine_faults or bool(self.forced_duplicates)

    def force_duplicates(self, queue: QueueKey, times: int, source: str) -> None:
        """The next `times` deliveries from `queue` come twice, whatever the decider says."""
        with self._lock:
            self.forced_duplicates[queue] = self.forced_duplicates.get(queue, 0) + times
            self.forced_asked[queue] = self.forced_asked.get(queue, 0) + times
            self.forced_sources.setdefault(queue, source)

    def fired_so_far(self) -> list[Fired]:
        with self._lock:
            return list(self.fired)

    def record(self, fired: Fired) -> None:
        with self._lock:
            self.fired.append(fired)
        for listener in self.listeners:
            listener(fired)

    # -- engine.injected.FaultDecisions --------------------------------------------------------

    def reorders(self, queue: QueueKey, visible: int) -> bool:
        with self._lock:
            self.standard_receives += 1
            if visible >= 2:
                self.receives_with_choice += 1
            return self.decider.reorders(queue[2], visible)

    def reorder(self, queue: QueueKey, window: list[Message], now: float) -> None:
        if not window:
            return
        natural_first = window[0]
        with self._lock:
            self.decider.order(queue[2], window)
        if window[0] is not natural_first:
            source = self.decider.source("standard_order")
            self.record(ReorderFired(source, queue[2], now, window[0], natural_first))

    def copy_delay(self, queue: QueueKey, message: Message) -> float | None:
        with self._lock:
            self.standard_deliveries += 1
            forced = self.forced_duplicates.get(queue, 0)
            if forced:
                if forced == 1:
                    del self.forced_duplicates[queue]
                else:
                    self.forced_duplicates[queue] = forced - 1
                self._copy_sources[message.message_id] = self.forced_sources[queue]
                return 0.0
            delay = self.decider.duplicate(queue[2])
            if delay is not None:
                self._copy_sources[message.message_id] = self.decider.source("duplicate_delivery")
            return delay

    def duplicated(
        self, queue: QueueKey, original: Message, copy: Message, delay: float, now: float
    ) -> None:
        with self._lock:
            source = self._copy_sources.pop(original.message_id)
        fired = DuplicateFired(source, queue[2], now, original, copy, delay, copy.receive_count)
        self.record(fired)

    def empty_receive(self, queue: QueueKey, visible: int, now: float) -> bool:
        with self._lock:
            self.short_polls += 1
            if visible:
                self.short_polls_with_messages += 1
            empty = self.decider.empties(queue[2], visible)
        if empty and visible:
            self.record(EmptyFired(self.decider.source("empty_receives"), queue[2], now, visible))
        return empty

    # -- the fake's call path ------------------------------------------------------------------

    def fails(self, action: str, queue: str | None) -> tuple[str, int, int] | None:
        """(error code, failures in a row, this call's number from 1), or None: it passes."""
        with self._lock:
            self.calls += 1
            decided = self.decider.fails(action, queue)
            return None if decided is None else (*decided, self.calls)
