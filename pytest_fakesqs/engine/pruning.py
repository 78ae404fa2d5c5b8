"""Dropping a queue's stale heap entries, so deleted messages are not kept alive.

Heaps are cleaned lazily: an entry whose message was deleted, or rescheduled since, stays until it
comes to the top. Entries that would come to the top only when a visibility timeout or retention
period runs out (never, on a frozen clock) would keep every deleted message alive, so a heap is
rebuilt once its stale entries outnumber its live ones by STALE_SLACK: amortised O(1).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any, Protocol

from .message import State

if TYPE_CHECKING:
    from .fifo import GroupIndex
    from .order import MessageOrder, RetentionOrder, TimedEntry
    from .storage import SlotStore


class PrunableQueue(Protocol):
    """The heaps and counters of a queue (engine.queue.Queue) that pruning reads and rebuilds."""

    stale_slack: int
    visible: int
    in_flight: int
    delayed: int
    work: int
    pruned: int
    groups: GroupIndex | None
    store: SlotStore
    _ready: MessageOrder
    _delayed: list[TimedEntry]
    _in_flight: list[TimedEntry]
    _expiry: RetentionOrder


# Also how many removals or reschedules pass between two looks at the heaps.
STALE_SLACK = 1024


def prune_stale_entries(queue: PrunableQueue) -> None:
    """Rebuild each heap of `queue` that is mostly stale. Caller holds the queue's lock.

    In place, so a caller holding a heap (apply_due's loop) keeps a valid one. The tests are
    apply_due's and take's, written out: a call per entry would double a rebuild's cost."""
    slack = queue.stale_slack
    in_flight, delayed, visible, gone = State.IN_FLIGHT, State.DELAYED, State.VISIBLE, State.GONE
    if len(queue._in_flight) > 2 * queue.in_flight + slack:
        _rebuild(
            queue,
            queue._in_flight,
            [e for e in queue._in_flight if e[2] == e[3].generation and e[3].state is in_flight],
        )
    if len(queue._delayed) > 2 * queue.delayed + slack:
        _rebuild(
            queue,
            queue._delayed,
            [e for e in queue._delayed if e[2] == e[3].generation and e[3].state is delayed],
        )
    if queue.groups is None and len(queue._ready) > 2 * queue.visible + slack:
        queue.work += len(queue._ready)
        queue.pruned += 1
        queue._ready.keep(lambda message: message.state is visible)
    if len(queue._expiry) > 2 * len(queue.store) + slack:
        queue.work += len(queue._expiry)
        queue.pruned += 1
        queue._expiry.keep(lambda message: message.state is not gone)


def _rebuild(queue: PrunableQueue, heap: list[Any], kept: list[Any]) -> None:
    queue.work += len(heap)
    queue.pruned += 1
    heap[:] = kept
    heapq.heapify(heap)
