"""`advance_to_next_event`: jump to the next moment a message changes state, say what changed."""

from __future__ import annotations

from ..engine import Broker, Message, Queue
from .records import PRIVATE, HistoryEvent, moment


def advance_to_next_event(broker: Broker, queue: Queue | None = None) -> list[HistoryEvent]:
    """Move the clock to the next visibility, delay or retention moment (of `queue`, if given).

    Returns the events that happened by then, in every queue; an empty list (and no move) when
    nothing is scheduled.
    """
    watched = [queue] if queue is not None else broker.queues()
    watched_names = {each.name for each in watched}
    changes: list[HistoryEvent] = []
    # A moment may change nothing a history shows (a deduplication window ending): keep going
    # until something in the watched queues did.
    while not any(change.queue in watched_names for change in changes):
        target = broker.next_event_at(queue, include_expiry=True)
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
