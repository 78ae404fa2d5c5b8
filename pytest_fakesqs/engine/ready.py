"""The receive order of a standard queue: entries by (moment, sequence), smallest first.

Most entries arrive in that order already (a message sent now, with the next sequence), so they
go to a deque: O(1) in and O(1) out, however deep the queue. Only an entry that arrives out of
order (a redelivery whose moment is earlier than the newest entry's) pays a heap's O(log n).
A pop takes the smaller of the two fronts, so the order is exactly a single heap's.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable

from .message import Message, State

TimedEntry = tuple[float, int, int, Message]  # (moment, sequence, generation, message)


def is_visible_entry(entry: TimedEntry) -> bool:
    """Whether a ready entry still describes its message; receives skip the others."""
    return entry[2] == entry[3].generation and entry[3].state is State.VISIBLE


class ReadyQueue:
    __slots__ = ("_heap", "_in_order")

    def __init__(self) -> None:
        self._in_order: deque[TimedEntry] = deque()
        self._heap: list[TimedEntry] = []

    def push(self, entry: TimedEntry) -> None:
        in_order = self._in_order
        if in_order:
            last = in_order[-1]
            if entry[0] < last[0] or (entry[0] == last[0] and entry[1] < last[1]):
                heapq.heappush(self._heap, entry)
                return
        in_order.append(entry)

    def pop(self) -> TimedEntry:
        """The first entry; IndexError when there is none (as a deque or list says it)."""
        # (moment, sequence, generation) is unique, so comparing entries never reaches Message.
        in_order, heap = self._in_order, self._heap
        if heap and (not in_order or heap[0] < in_order[0]):
            return heapq.heappop(heap)
        return in_order.popleft()

    def peek(self) -> TimedEntry:
        in_order, heap = self._in_order, self._heap
        if heap and (not in_order or heap[0] < in_order[0]):
            return heap[0]
        return in_order[0]

    def keep(self, is_live: Callable[[TimedEntry], bool]) -> None:
        """Drop every entry `is_live` refuses; the order of the rest is unchanged."""
        self._in_order = deque(e for e in self._in_order if is_live(e))
        self._heap = [e for e in self._heap if is_live(e)]
        heapq.heapify(self._heap)

    def clear(self) -> None:
        self._in_order.clear()
        self._heap.clear()

    def __len__(self) -> int:
        return len(self._in_order) + len(self._heap)

    def __bool__(self) -> bool:
        return bool(self._in_order) or bool(self._heap)
