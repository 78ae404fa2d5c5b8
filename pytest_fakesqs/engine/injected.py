"""The engine's fault opportunities: where SQS may misbehave within its contract, the engine asks
a FaultDecisions (engine.faults.FaultSeam, which asks the fake's decider and records what fired)
and acts on the answer.

Three opportunities, each one question:
- a standard queue's receive: which visible messages go first (`reorders`, then `reorder` of a
  window of candidates);
- each delivery from a standard queue: deliver it once more later, and when (`copy_delay`; then
  `duplicated` is told of the copy);
- a short poll: come back empty although messages are available (`empty_receive`).

The caller holds the queue's lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .message import Event, Message

if TYPE_CHECKING:
    from .results import Delivery
    from .schedule import Schedule
    from .settings import QueueKey

# How many candidates a reordered receive chooses from, per message asked for.
WINDOW_PER_MESSAGE = 10


class FaultDecisions(Protocol):
    """What the engine asks at its fault opportunities; every answer may be random."""

    def reorders(self, queue: QueueKey, visible: int) -> bool:
        """Does this receive from a standard queue holding `visible` visible messages choose
        its messages out of send order?"""
        ...

    def reorder(self, queue: QueueKey, window: list[Message], now: float) -> None:
        """Put the candidates (oldest first) in the order they are handed out (in place)."""
        ...

    def copy_delay(self, queue: QueueKey, message: Message) -> float | None:
        """None: this delivery happens once. A number: SQS delivers the message once more,
        that many seconds from now (0: visible again at once)."""
        ...

    def duplicated(
        self, queue: QueueKey, original: Message, copy: Message, delay: float, now: float
    ) -> None:
        """The copy `copy_delay` asked for was made: it appears `delay` seconds from `now`."""
        ...

    def empty_receive(self, queue: QueueKey, visible: int, now: float) -> bool:
        """Does this short poll of a queue holding `visible` visible messages come back empty
        although messages are available?"""
        ...


class MisbehavingQueue(Protocol):
    """What injected misbehaviour uses of a queue (engine.queue.Queue)."""

    key: QueueKey
    name: str
    schedule: Schedule
    duplicates: int
    visible: int

    def enqueue(self, message: Message, delay: float, now: float) -> None: ...


def reordered_window(
    queue: MisbehavingQueue, faults: FaultDecisions, max_messages: int, now: float
) -> list[Message] | None:
    """The candidates of a reordered receive, reversed so the first to hand out pops last;
    None when this receive keeps send order."""
    if not faults.reorders(queue.key, queue.visible):
        return None
    window = queue.schedule.take_ready(max_messages * WINDOW_PER_MESSAGE)
    faults.reorder(queue.key, window, now)
    window.reverse()
    return window


def duplicate_deliveries(
    queue: MisbehavingQueue, faults: FaultDecisions, deliveries: list[Delivery], now: float
) -> None:
    """At-least-once delivery: a second copy of each delivered message the plan picks, same
    MessageId and body, delivered later. At most one per message: copies are skipped."""
    for delivery in deliveries:
        original = delivery.message
        if original.key != original.message_id or original.duplicated:
            continue
        delay = faults.copy_delay(queue.key, original)
        if delay is None:
            continue
        queue.duplicates += 1
        copy = original.copy()
        copy.key = f"{original.message_id}#duplicate-{queue.duplicates}"
        copy.receive_count = original.receive_count
        copy.first_received_at = original.first_received_at
        copy.enqueued_at = original.enqueued_at
        original.duplicated = True
        copy.duplicated = True
        later = f" (it appears after {delay:g}s)" if delay > 0 else ""
        detail = f"injected: SQS will deliver this message once more{later}"
        original.record(now, Event.DUPLICATED, detail)
        if delay <= 0:
            copy.record(now, Event.DUPLICATED, detail)
            queue.enqueue(copy, 0.0, now)
        else:
            queue.schedule.add_copy(copy, now + delay)
        faults.duplicated(queue.key, original, copy, max(delay, 0.0), now)


def copy_appears(queue: MisbehavingQueue, copy: Message, moment: float) -> None:
    """An injected duplicate scheduled for later enters its queue, visible."""
    copy.record(moment, Event.DUPLICATED, "injected: the second delivery arrives")
    queue.enqueue(copy, 0.0, moment)
