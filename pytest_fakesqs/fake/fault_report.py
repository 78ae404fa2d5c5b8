"""Faults in words: what fired ("duplicate of message 1 (order-1), visible again at +0s"), and
the faults a test configured that never happened, for the warnings issued at teardown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine import Event, Message, State
from ..engine.faults import (
    DuplicateFired,
    EmptyFired,
    ErrorFired,
    FaultPlan,
    FaultSeam,
    Fired,
    ReorderFired,
)
from .text import offset, plural, short_id

BODY_PREVIEW = 24


def describe(fired: Fired, numbers: Mapping[str, int]) -> str:
    """One fault that fired, as a short sentence; messages are numbered in the order sent."""
    if isinstance(fired, DuplicateFired):
        return (
            f"duplicate of {_message(fired.original, numbers)}, "
            f"visible again at {offset(fired.delay)}"
        )
    if isinstance(fired, ReorderFired):
        return (
            f"{_message(fired.first, numbers)} handed out before "
            f"{_message(fired.passed_over, numbers)}"
        )
    if isinstance(fired, EmptyFired):
        return (
            f"short poll of {fired.queue} came back empty "
            f"({plural(fired.visible, 'message')} visible)"
        )
    return _error(fired)


def _message(message: Message, numbers: Mapping[str, int]) -> str:
    number = numbers.get(message.message_id)
    name = f"message {number}" if number is not None else f"message {short_id(message.message_id)}"
    body = " ".join(message.body.split())
    if len(body) > BODY_PREVIEW:
        body = body[: BODY_PREVIEW - 1] + "…"
    return f"{name} ({body})"


def _error(fired: ErrorFired) -> str:
    on = f" on {fired.queue}" if fired.queue else ""
    call = f"call {fired.call} ({fired.action}{on})" if fired.call else f"{fired.action}{on}"
    times = "" if fired.times == 1 else f" {fired.times} times in a row"
    how = ", retried by the client" if fired.call else f", as {fired.source} asked"
    return f"{call} failed{times} with {fired.code} (HTTP {fired.status}){how}"


# -- faults that never happened ---------------------------------------------------------------


@dataclass(frozen=True)
class PendingFault:
    """A targeted fault the test asked for that has not fired in full: `source` in the test's
    words ("fail_next('SendMessage', 'RequestThrottled', times=2)"), how many of `times` fired,
    and what would have fired it."""

    source: str
    fired: int
    times: int
    trigger: str  # "SendMessage call", "delivery from orders"


def never_happened(
    seam: FaultSeam, pending: list[PendingFault], *, configured: set[str] | None
) -> list[str]:
    """One sentence per configured fault the test never observed. `configured`: the option
    names the test itself set (None: all of them); the ini file's are the suite's business."""
    texts: list[str] = []
    plan = seam.decider if isinstance(seam.decider, FaultPlan) else None

    def asked(name: str) -> bool:
        return plan is not None and (configured is None or name in configured)

    sources = list(dict.fromkeys(seam.forced_sources.values()))
    if plan is not None and asked("duplicate_delivery") and plan.duplicate_delivery:
        sources.insert(0, plan.source("duplicate_delivery"))
    for source in sources:
        texts += _unreceived_duplicates(seam, source)
    shuffled = plan is not None and asked("standard_order") and plan.shuffles
    if plan is not None and shuffled and not seam.receives_with_choice:
        texts.append(
            f"{plan.source('standard_order')}: no receive had more than one message to "
            f"order ({_receives(seam)})"
        )
    emptied = any(isinstance(fired, EmptyFired) for fired in seam.fired)
    if plan is not None and asked("empty_receives") and plan.empty_receives and not emptied:
        texts.append(
            f"{plan.source('empty_receives')}: no short poll came back empty ({_short_polls(seam)})"
        )
    texts += [_pending(fault) for fault in pending]
    return texts


def _unreceived_duplicates(seam: FaultSeam, source: str) -> list[str]:
    injected = [f for f in seam.fired if isinstance(f, DuplicateFired) and f.source == source]
    if not injected:
        if source.startswith("duplicate_next"):
            return []  # said by its pending entry: the delivery to duplicate never came
        if not seam.standard_deliveries:
            return [
                f"{source}: no duplicate was injected (no message was received from a standard queue)"
            ]
        return [
            f"{source}: no duplicate was injected "
            f"({plural(seam.standard_deliveries, 'delivery')} from standard queues, none picked)"
        ]
    unreceived = [fired for fired in injected if not fired.received]
    if not unreceived:
        return []
    fates = _fates(unreceived)
    if len(unreceived) == len(injected):
        verb = "was" if len(injected) == 1 else "were"
        return [
            f"{source}: {plural(len(injected), 'duplicate')} {verb} injected and never "
            f"received ({fates})"
        ]
    verb = "was" if len(unreceived) == 1 else "were"
    return [
        f"{source}: {len(unreceived)} of {len(injected)} injected duplicates {verb} never "
        f"received ({fates})"
    ]


_GONE = {
    Event.EXPIRED: "expired from {queue}",
    Event.PURGED: "purged from {queue}",
    Event.QUEUE_DELETED: "deleted with {queue}",
    Event.MOVED_TO_DLQ: "moved from {queue} to its dead-letter queue",
}


def _fates(unreceived: list[DuplicateFired]) -> str:
    waiting: list[str] = []
    gone: list[str] = []
    for fired in unreceived:
        copy = fired.copy
        if copy.state is not State.GONE:
            if fired.queue not in waiting:
                waiting.append(fired.queue)
            continue
        event = copy.timeline()[-1][1]
        phrase = _GONE.get(event, "gone from {queue}").format(queue=fired.queue)
        if phrase not in gone:
            gone.append(phrase)
    parts = [f"still waiting in {' and '.join(waiting)} when the test ended"] if waiting else []
    return "; ".join(parts + gone)


def _receives(seam: FaultSeam) -> str:
    if not seam.standard_receives:
        return "no message was received from a standard queue"
    return (
        f"{plural(seam.standard_receives, 'receive')} from standard queues, each with at most "
        "one visible message"
    )


def _short_polls(seam: FaultSeam) -> str:
    if not seam.short_polls:
        return "no short poll was made; a long poll (WaitTimeSeconds > 0) is never emptied"
    if not seam.short_polls_with_messages:
        return f"{plural(seam.short_polls, 'short poll')}, none while a message was visible"
    return f"{plural(seam.short_polls_with_messages, 'short poll')} found messages, none picked"


def _pending(fault: PendingFault) -> str:
    if not fault.fired:
        return f"{fault.source}: never fired (no {fault.trigger} came after it)"
    return (
        f"{fault.source}: fired {fault.fired} of {fault.times} times "
        f"(no further {fault.trigger} came)"
    )
