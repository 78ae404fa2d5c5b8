"""`FaultSchedule`: faults at chosen opportunities, the decider Hypothesis explores with.

Each kind of fault counts its own opportunities, from 1, in the order the fake meets them: the
deliveries from standard queues (a duplicate), the receives from a standard queue holding two or
more visible messages (another order), the short polls of a queue holding visible messages (an
empty answer), the calls (an error). A schedule names the opportunities it misbehaves at, so the
same test with the same schedule meets the same opportunities and gets the same deliveries: a
schedule replays exactly, and Hypothesis can shrink it (fewer faults, earlier opportunities).

This module imports no Hypothesis (`pytest_fakesqs.strategies` draws schedules) and nothing
heavy: the options name `FaultSchedule` as the type of `faults=`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.faults import FaultDecider

if TYPE_CHECKING:
    from ..engine.message import Message

MAX_TIMES = 4  # legacy mode's default budget absorbs 4 failures; the fake caps it per client


def _check_opportunity(owner: str, name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{owner}: {name} counts opportunities from 1; got {value!r}")


@dataclass(frozen=True)
class Duplicate:
    """The `delivery`-th delivery from a standard queue (1: the first) comes once more: a copy,
    same MessageId and body, visible `delay` seconds later (also after the original was
    deleted, as SQS's at-least-once delivery allows)."""

    delivery: int
    delay: int = 0

    def __post_init__(self) -> None:
        _check_opportunity("Duplicate", "delivery", self.delivery)
        if isinstance(self.delay, bool) or not isinstance(self.delay, int) or self.delay < 0:
            raise ValueError(f"Duplicate: delay must be >= 0 seconds; got {self.delay!r}")


@dataclass(frozen=True)
class Reorder:
    """At the `receive`-th receive from a standard queue holding two or more visible messages,
    the `first`-th of them in send order (2: the second; the last if there are fewer) is
    handed out first. FIFO queues are never reordered."""

    receive: int
    first: int = 2

    def __post_init__(self) -> None:
        _check_opportunity("Reorder", "receive", self.receive)
        if isinstance(self.first, bool) or not isinstance(self.first, int) or self.first < 2:
            raise ValueError(
                f"Reorder: first must be 2 or more (1 is the usual order); got {self.first!r}"
            )


@dataclass(frozen=True)
class EmptyReceive:
    """The `poll`-th short poll (WaitTimeSeconds 0) of a queue holding visible messages comes
    back empty, as a short poll that sampled none of the servers holding them does."""

    poll: int

    def __post_init__(self) -> None:
        _check_opportunity("EmptyReceive", "poll", self.poll)


@dataclass(frozen=True)
class CallError:
    """The `call`-th call (a retry is part of its call) fails `times` times in a row with
    `code`, an error SQS returns and botocore retries; never more often than the client's
    retry mode absorbs (standard: 2, legacy: 4), so the code under test sees the retries only."""

    call: int
    code: str = "RequestThrottled"
    times: int = 1

    def __post_init__(self) -> None:
        from .._spelling import did_you_mean
        from ..api.faults import RETRIED_CODES  # the error table: only once a schedule exists

        _check_opportunity("CallError", "call", self.call)
        if self.code not in RETRIED_CODES:
            raise ValueError(
                f"CallError: code must be an error clients retry, one of "
                f"{', '.join(RETRIED_CODES)}; got {self.code!r}"
                f"{did_you_mean(str(self.code), RETRIED_CODES)}"
            )
        if (
            isinstance(self.times, bool)
            or not isinstance(self.times, int)
            or not 1 <= self.times <= MAX_TIMES
        ):
            raise ValueError(f"CallError: times must be 1 to {MAX_TIMES}; got {self.times!r}")


PlannedFault = Duplicate | Reorder | EmptyReceive | CallError
PLANNED_KINDS = (Duplicate, Reorder, EmptyReceive, CallError)

# What the last run of each schedule fired. Hypothesis prints a failing example before it runs
# it once more, so a fresh schedule equal to one already run shows what that run fired: a
# schedule replays exactly, so it is what this run will fire too.
_LAST_FIRED: OrderedDict[tuple[PlannedFault, ...], list[str]] = OrderedDict()
_REMEMBERED = 256


class FaultSchedule(FaultDecider):
    """Faults at chosen opportunities (Duplicate, Reorder, EmptyReceive, CallError); usually
    drawn by `pytest_fakesqs.strategies.fault_schedules()`, and given to a fake with
    `fake_sqs(faults=...)`, `@pytest.mark.fakesqs(faults=...)` or `fakesqs.use_faults(...)`.

    `fired` says what actually happened, in order; a fake that starts with the schedule starts
    its count of opportunities afresh, so one schedule can be replayed.
    """

    def __init__(self, *faults: PlannedFault) -> None:
        for fault in faults:
            if not isinstance(fault, PLANNED_KINDS):
                raise TypeError(
                    "FaultSchedule takes Duplicate, Reorder, EmptyReceive and CallError faults; "
                    f"got {fault!r}"
                )
        self.faults = faults
        # One fault per opportunity: a later one at the same opportunity changes nothing.
        self._duplicates: dict[int, Duplicate] = {}
        self._reorders: dict[int, Reorder] = {}
        self._empties: dict[int, EmptyReceive] = {}
        self._errors: dict[int, CallError] = {}
        for fault in faults:
            if isinstance(fault, Duplicate):
                self._duplicates.setdefault(fault.delivery, fault)
            elif isinstance(fault, Reorder):
                self._reorders.setdefault(fault.receive, fault)
            elif isinstance(fault, EmptyReceive):
                self._empties.setdefault(fault.poll, fault)
            else:
                self._errors.setdefault(fault.call, fault)
        self._explain: Callable[[], list[str]] | None = None
        self._fired: list[str] | None = None  # what the finished run fired
        self.attach()

    # -- a run ---------------------------------------------------------------------------------

    def attach(self) -> None:
        self._deliveries = self._receives = self._polls = self._calls = 0
        self._reordering: Reorder | None = None
        self._explain = None
        self._fired = None

    def explain_with(self, explain: Callable[[], list[str]]) -> None:
        """The fake that runs this schedule says, when asked, what fired so far."""
        self._explain = explain

    def finish(self) -> None:
        """The run is over (its fake stopped): what fired stays, for `fired` and the repr."""
        if self._explain is not None:
            self._fired = self._explain()
            self._explain = None
            _remember(self.faults, self._fired)

    @property
    def fired(self) -> list[str]:
        """The faults that actually happened, in order, as short sentences."""
        if self._explain is not None:
            return self._explain()
        return list(self._fired or ())

    # -- the decisions -------------------------------------------------------------------------

    @property
    def engine_faults(self) -> bool:
        return bool(self._duplicates or self._reorders or self._empties)

    def source(self, kind: str) -> str:
        return "faults="

    def duplicate(self, queue: str) -> float | None:
        self._deliveries += 1
        planned = self._duplicates.get(self._deliveries)
        return None if planned is None else float(planned.delay)

    def reorders(self, queue: str, visible: int) -> bool:
        if visible < 2:
            return False
        self._receives += 1
        self._reordering = self._reorders.get(self._receives)
        return self._reordering is not None

    def order(self, queue: str, window: list[Message]) -> None:
        planned, self._reordering = self._reordering, None
        if planned is not None and len(window) >= 2:
            window.insert(0, window.pop(min(planned.first, len(window)) - 1))

    def empties(self, queue: str, visible: int) -> bool:
        if not visible:
            return False
        self._polls += 1
        return self._polls in self._empties

    def fails(self, action: str, queue: str | None) -> tuple[str, int] | None:
        self._calls += 1
        planned = self._errors.get(self._calls)
        return None if planned is None else (planned.code, planned.times)

    # -- as a value ----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FaultSchedule) and other.faults == self.faults

    def __hash__(self) -> int:
        return hash(self.faults)

    def __repr__(self) -> str:
        planned = ", ".join(map(repr, self.faults))
        if self._explain is not None or self._fired is not None:
            fired: list[str] | None = self.fired
        else:
            fired = _LAST_FIRED.get(self.faults)
        shown = "" if fired is None else f"{', ' if planned else ''}fired={fired!r}"
        return f"FaultSchedule({planned}{shown})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis prints a failing example with this: the repr, not how it was drawn."""
        printer.text(repr(self))


def _remember(faults: tuple[PlannedFault, ...], fired: list[str]) -> None:
    _LAST_FIRED[faults] = fired
    _LAST_FIRED.move_to_end(faults)
    while len(_LAST_FIRED) > _REMEMBERED:
        _LAST_FIRED.popitem(last=False)
