"""Peeking at what a queue has scheduled, for test helpers: nothing here changes a message.

Reads the queue's heaps directly; the caller holds the queue's lock.
"""

from __future__ import annotations

from .message import Message, State
from .order import heap_prefix
from .queue import Queue


def due_by(queue: Queue, moment: float) -> list[Message]:
    """Messages with a visibility, delay or retention transition due at or before `moment`.

    Walks only the heap entries that are due (a heap's due entries form a subtree at its root),
    so the cost is the number of due entries, not the queue's depth.
    """
    due: list[Message] = []
    for heap in (queue._delayed, queue._in_flight):
        for _, _, generation, message in heap_prefix(heap, lambda e: e[0] <= moment):
            if generation == message.generation:
                due.append(message)
    due.extend(
        message
        for message in queue._expiry.due(moment - queue.settings.retention)
        if message.state is not State.GONE
    )
    return due


def oldest_enqueued_at(queue: Queue) -> float | None:
    """When the oldest live message entered the queue, skipping those received
    MOVED_BACK_AFTER times or more in it without a delete, as ApproximateAgeOfOldestMessage
    does (CloudWatch metrics page of the SQS developer guide: a poison message does not count,
    even with a redrive policy); amortised O(1)."""
    oldest = queue._expiry.oldest_fresh()
    return None if oldest is None else oldest.enqueued_at
