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
    """When the oldest live message entered the queue; amortised O(1).

    Messages already gone found first in the retention order are dropped for good, as
    `apply_due` would drop them later.
    """
    expiry = queue._expiry
    while expiry:
        message = expiry.peek()
        if message.state is not State.GONE:
            return message.enqueued_at
        expiry.pop()
        queue.work += 1
    return None
