"""`advance_to_next_event`: jump to the next moment a message changes state, say what changed.

A moment at which messages only expire (retention) is not an event unless asked for: a loop
that jumps from event to event must not run on past the test's point and destroy what it checks
(the dead-letter queue's messages expire too, days later on the virtual clock).
"""

from __future__ import annotations

from ..engine import Broker, Message, Queue
from .records import PRIVATE, HistoryEvent, moment


def advance_to_next_event(
    broker: Broker, queue: Queue | None = None, *, include_expiry: bool = False
) -> list[HistoryEvent]:
    """Move the clock to the next visibility, delay or move-task moment (of `queue`, if given;
    retention expiry too with `include_expiry`).

    Returns the events that happened by then, in every queue (an expiry the clock passed on the
    way is one of them); an empty list (and no move) when nothing is scheduled.
    """
    watched = [queue] if queue is not None else broker.queues()
    watched_names = {each.name for each in watched}
    changes: list[HistoryEvent] = []
    # A moment may change nothing a history shows (a deduplication window ending): keep going
    # until something in the watched queues did.
    while not any(change.queue in watched_names for change in changes):
        target = broker.next_event_at(queue, include_expiry=include_expiry)
        if target is None:
            break
        changes += _step_to(broker, target)
    return sorted(changes, key=lambda change: (change.at, change.queue))


def _step_to(broker: Broker, target: float) -> list[HistoryEvent]:
    every_queue = broker.queues()
    before: list[tuple[Queue, Message, int]] = []
    for each in every_queue:
        with each.lock:
            before += [(each, m, len(m.timeline())) for m in each.schedule.due_by(target)]
    journal = broker.move_tasks.journal
    moves_before = len(journal)
    broker.clock.advance_to(max(target, broker.clock.now()))
    for each in every_queue:
        broker.refresh(each)
    # A move's last two entries: leaving the source, arriving in the destination.
    moved = [
        (queue_name, message, at, event, detail)
        for message, source, destination in journal[moves_before:]
        for queue_name, (at, event, detail) in zip(
            (source, destination), message.timeline()[-2:], strict=True
        )
    ]
    return [
        HistoryEvent(
            at=moment(at),
            event=event.value,
            detail=detail,
            queue=queue_name,
            message_id=message.message_id,
            _token=PRIVATE,
        )
        for queue_name, message, at, event, detail in moved
    ] + [
        HistoryEvent(
            at=moment(at),
            event=event.value,
            detail=detail,
            queue=each.name,
            message_id=message.message_id,
            _token=PRIVATE,
        )
        for each, message, seen in before
        for at, event, detail in message.timeline()[seen:]
    ]
