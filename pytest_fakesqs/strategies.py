"""Hypothesis strategies: `fault_schedules()` explores what SQS may do to a consumer.

    from hypothesis import given
    from pytest_fakesqs import fake_sqs
    from pytest_fakesqs.strategies import fault_schedules

    @given(schedule=fault_schedules())
    def test_payments_are_applied_once(schedule):
        with fake_sqs(faults=schedule) as sqs:
            ...

Every draw shrinks toward no fault (fewer faults in the list), toward the earliest
opportunities (smaller counts), toward a copy visible at once and toward SQS's own throttling;
the only module of the package that imports Hypothesis (install `pytest-fakesqs[hypothesis]`).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ._spelling import nearest
from .api.faults import RETRIED_CODES
from .fake.fault_schedule import (
    MAX_TIMES,
    CallError,
    Duplicate,
    EmptyReceive,
    FaultSchedule,
    PlannedFault,
    Reorder,
)

__all__ = [
    "CallError",
    "Duplicate",
    "EmptyReceive",
    "FaultSchedule",
    "Reorder",
    "fault_schedules",
]

_OPTIONS = ("duplicates", "reorder", "empty_receives", "errors", "max_faults")
# Half the draws fall among the first few opportunities, where a small consumer's are; the rest
# reach further. Either shrinks toward the first.
_EARLY, _LATE = 4, 40
_CALLS_EARLY, _CALLS_LATE = 8, 80  # a consumer makes several calls per message
LONGEST_DELAY = 900  # seconds before a copy appears: past any default visibility timeout
MOST_AHEAD = 10  # a reordered receive hands out one of the first 10 visible messages first


def fault_schedules(
    *,
    duplicates: bool = True,
    reorder: bool = True,
    empty_receives: bool = True,
    errors: bool = True,
    max_faults: int = 8,
    **unknown: Any,
) -> st.SearchStrategy[FaultSchedule]:
    """Schedules of at most `max_faults` faults SQS is allowed to commit: duplicate deliveries
    (and when the copy appears), another order of a standard queue's visible messages, empty
    short polls, and errors its clients retry (`RequestThrottled`, `ThrottlingException`,
    `InternalError`, `ServiceUnavailable`). Turn a kind off with its keyword."""
    __tracebackhide__ = True
    if unknown:
        name = sorted(unknown)[0]
        guess = nearest(name, _OPTIONS)
        hint = f" did you mean {guess}?" if guess else ""
        raise TypeError(
            f"fault_schedules() got an unknown option {name!r};{hint} "
            f"options: {', '.join(_OPTIONS)}"
        )
    kinds = {
        "duplicates": duplicates,
        "reorder": reorder,
        "empty_receives": empty_receives,
        "errors": errors,
    }
    for name, value in kinds.items():
        if not isinstance(value, bool):
            raise TypeError(f"fault_schedules(): {name} must be True or False; got {value!r}")
    if isinstance(max_faults, bool) or not isinstance(max_faults, int) or max_faults < 1:
        raise ValueError(
            f"fault_schedules(): max_faults must be a positive integer; got {max_faults!r}"
        )
    if not any(kinds.values()):
        raise ValueError(
            "fault_schedules(): every kind of fault is off (duplicates, reorder, "
            "empty_receives, errors), so every schedule would be empty; turn one on"
        )
    faults: list[st.SearchStrategy[PlannedFault]] = []
    if duplicates:
        faults.append(
            st.builds(
                Duplicate,
                delivery=_opportunity(_EARLY, _LATE),
                delay=st.integers(0, LONGEST_DELAY),
            )
        )
    if reorder:
        faults.append(
            st.builds(
                Reorder, receive=_opportunity(_EARLY, _LATE), first=st.integers(2, MOST_AHEAD)
            )
        )
    if empty_receives:
        faults.append(st.builds(EmptyReceive, poll=_opportunity(_EARLY, _LATE)))
    if errors:
        faults.append(
            st.builds(
                CallError,
                call=_opportunity(_CALLS_EARLY, _CALLS_LATE),
                code=st.sampled_from(RETRIED_CODES),
                times=st.integers(1, MAX_TIMES),
            )
        )
    return st.lists(st.one_of(faults), max_size=max_faults).map(_schedule)


def _opportunity(early: int, late: int) -> st.SearchStrategy[int]:
    return st.integers(1, early) | st.integers(1, late)


def _schedule(faults: list[PlannedFault]) -> FaultSchedule:
    return FaultSchedule(*faults)
