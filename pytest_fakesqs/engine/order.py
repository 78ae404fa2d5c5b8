"""Messages in (key, sequence) order, smallest first: a standard queue's receive order (key:
`rank`, the send order, later for a message moved to the back) and every queue's retention
order (key: `enqueued_at`). The key is the attribute named when the order is made.

Most messages arrive in that order already (sent now, with the next rank and sequence), so they
go to a deque as they are: O(1) in and out however deep the queue, and no entry object per
message for the garbage collector to count. Only a message that arrives out of order (visible
again after a receive, a dead-lettered message that keeps its enqueue time) pays a heap's
O(log n) and an entry.
A pop takes the smaller of the two fronts, so the order is exactly a single heap's.

A message's key must not change while it is in the order. One that leaves it some other way
(deleted, expired) stays until it comes to the front, and the reader skips it; `keep` drops such
messages all at once.
"""

from __future__ import annotations

import heapq
import operator
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .message import GONE, Message
from .settings import MOVED_BACK_AFTER

TimedEntry = tuple[float, int, int, Message]  # (moment, sequence, generation, message)
_HeapEntry = tuple[float, int, Message]  # (moment, sequence, message); the pair is unique


class MessageOrder:
    __slots__ = ("_heap", "_in_order", "_key")

    def __init__(self, key: str) -> None:
        self._key: Callable[[Message], float] = operator.attrgetter(key)
        self._in_order: deque[Message] = deque()
        self._heap: list[_HeapEntry] = []

    def push(self, message: Message) -> None:
        in_order = self._in_order
        if in_order:
            last = in_order[-1]
            moment, last_moment = self._key(message), self._key(last)
            if moment < last_moment or (moment == last_moment and message.sequence < last.sequence):
                heapq.heappush(self._heap, (moment, message.sequence, message))
                return
        in_order.append(message)

    def extend(self, messages: list[Message]) -> None:
        """push() each of `messages`, which are in order among themselves (a batch just sent):
        when the first is in order after the last one here, so are all of them."""
        in_order = self._in_order
        if in_order and messages:
            first, last = messages[0], in_order[-1]
            moment, last_moment = self._key(first), self._key(last)
            if moment < last_moment or (moment == last_moment and first.sequence < last.sequence):
                for message in messages:
                    self.push(message)
                return
        in_order.extend(messages)

    def _heap_is_first(self) -> bool:
        heap, in_order = self._heap, self._in_order
        if not heap:
            return False
        if not in_order:
            return True
        first = in_order[0]
        moment, top = self._key(first), heap[0]
        return top[0] < moment or (top[0] == moment and top[1] < first.sequence)

    def pop(self) -> Message:
        """The first message; IndexError when there is none (as a deque or list says it)."""
        if self._heap and self._heap_is_first():
            return heapq.heappop(self._heap)[2]
        return self._in_order.popleft()

    def pop_many(self, count: int) -> list[Message]:
        """pop() up to `count` times, fewer when the order runs out first."""
        in_order = self._in_order
        if self._heap:
            taken: list[Message] = []
            while len(taken) < count and self:
                taken.append(self.pop())
            return taken
        return [in_order.popleft() for _ in range(min(count, len(in_order)))]

    def peek(self) -> Message:
        """The first message, left in place; IndexError when there is none."""
        if self._heap and self._heap_is_first():
            return self._heap[0][2]
        return self._in_order[0]

    def first(self) -> Message | None:
        """The first message, left in place, or None when the order is empty."""
        if self._heap and self._heap_is_first():
            return self._heap[0][2]
        in_order = self._in_order
        return in_order[0] if in_order else None

    def due(self, limit: float) -> Iterator[Message]:
        """Every message whose moment is at or before `limit`; costs what it yields, not the
        depth (the deque's due messages are a prefix, a heap's a subtree at its root)."""
        for message in self._in_order:
            if self._key(message) > limit:
                break
            yield message
        for _, _, message in heap_prefix(self._heap, lambda entry: entry[0] <= limit):
            yield message

    def keep(self, is_live: Callable[[Message], bool]) -> None:
        """Drop every message `is_live` refuses; the order of the rest is unchanged."""
        self._in_order = deque(m for m in self._in_order if is_live(m))
        self._heap = [e for e in self._heap if is_live(e[2])]
        heapq.heapify(self._heap)

    def clear(self) -> None:
        self._in_order.clear()
        self._heap.clear()

    def __len__(self) -> int:
        return len(self._in_order) + len(self._heap)

    def __bool__(self) -> bool:
        return bool(self._in_order) or bool(self._heap)


class RetentionOrder:
    """Every live message of a queue by (enqueued_at, sequence), for retention, in two parts:
    `fresh`, messages received fewer than MOVED_BACK_AFTER times in this queue, whose first is
    the oldest age CloudWatch reports (ApproximateAgeOfOldestMessage skips the others), and
    `moved_back`, the others. A message moved back stays in `fresh` as a stale entry until it
    comes first there, so each move costs one push and one pop: O(log n), whatever the depth.
    The interface is MessageOrder's; an order without moved-back messages costs what one does.
    """

    __slots__ = ("fresh", "moved_back", "skipped")

    def __init__(self) -> None:
        self.fresh = MessageOrder("enqueued_at")
        self.moved_back = MessageOrder("enqueued_at")
        self.skipped = 0  # entries dropped from `fresh` as they came first: the cost tests' count

    def push(self, message: Message) -> None:
        self.fresh.push(message)

    def extend(self, messages: list[Message]) -> None:
        self.fresh.extend(messages)

    def move_back(self, message: Message) -> None:
        self.moved_back.push(message)

    def oldest_fresh(self) -> Message | None:
        """The oldest message received fewer than MOVED_BACK_AFTER times, or None; whatever
        is first before it (gone, or moved back) leaves `fresh` for good."""
        return self._first_of_fresh(drop_gone=True)

    def _first_of_fresh(self, *, drop_gone: bool = False) -> Message | None:
        # A moved-back entry is dropped as it comes first; a gone one is the reader's to drop
        # (apply_due pops it and counts it), unless `drop_gone`.
        fresh = self.fresh
        first = fresh.first()
        while first is not None and (
            first.receives_here >= MOVED_BACK_AFTER if first.state is not GONE else drop_gone
        ):
            fresh.pop()
            self.skipped += 1
            first = fresh.first()
        return first

    def _first_part(self) -> MessageOrder | None:
        fresh_first, back_first = self._first_of_fresh(), self.moved_back.first()
        if fresh_first is None:
            return None if back_first is None else self.moved_back
        if back_first is None or (fresh_first.enqueued_at, fresh_first.sequence) <= (
            back_first.enqueued_at,
            back_first.sequence,
        ):
            return self.fresh
        return self.moved_back

    def first(self) -> Message | None:
        part = self._first_part()
        return None if part is None else part.first()

    def pop_finished(self, retention: float, now: float) -> tuple[list[Message], int]:
        """Pop, oldest first, every message at the front that is gone or whose retention ran
        out by `now`; returns the expired (live) ones among them, and how many were popped.

        Usually the order is one deque in send order (nothing arrived late, nothing moved
        back): then each pop is a look at its front, with none of first()/pop()'s layers (4% of
        the fake's own instructions in the stress cycle); tests/engine/test_retention_order.py
        proves it pops what the general way below pops."""
        fresh, moved_back = self.fresh, self.moved_back
        if fresh._heap or moved_back._in_order or moved_back._heap:
            return self._pop_finished_in_parts(retention, now)
        in_order = fresh._in_order
        expired: list[Message] = []
        popped = 0
        while in_order:
            oldest = in_order[0]
            if oldest.state is not GONE:
                if oldest.enqueued_at + retention > now:
                    break
                expired.append(oldest)
            in_order.popleft()
            popped += 1
        return expired, popped

    def _pop_finished_in_parts(self, retention: float, now: float) -> tuple[list[Message], int]:
        expired: list[Message] = []
        popped = 0
        oldest = self.first()
        while oldest is not None:
            gone = oldest.state is GONE
            if not gone and oldest.enqueued_at + retention > now:
                break
            self.pop()
            popped += 1
            if not gone:
                expired.append(oldest)
            oldest = self.first()
        return expired, popped

    def peek(self) -> Message:
        part = self._first_part()
        if part is None:
            raise IndexError("peek from an empty order")
        return part.peek()

    def pop(self) -> Message:
        part = self._first_part()
        if part is None:
            raise IndexError("pop from an empty order")
        return part.pop()

    def due(self, limit: float) -> Iterator[Message]:
        for message in self.fresh.due(limit):
            if message.receives_here < MOVED_BACK_AFTER:  # else it is due in `moved_back`
                yield message
        yield from self.moved_back.due(limit)

    def keep(self, is_live: Callable[[Message], bool]) -> None:
        self.fresh.keep(lambda m: m.receives_here < MOVED_BACK_AFTER and is_live(m))
        self.moved_back.keep(is_live)

    def clear(self) -> None:
        self.fresh.clear()
        self.moved_back.clear()

    def __len__(self) -> int:
        return len(self.fresh) + len(self.moved_back)

    def __bool__(self) -> bool:
        return bool(self.fresh) or bool(self.moved_back)


def heap_prefix(heap: list[Any], is_due: Callable[[Any], bool]) -> Iterator[Any]:
    """The entries of a heap that `is_due` accepts, when those form a subtree at its root (as
    "moment <= limit" does): costs what it yields, not the heap's size."""
    pending = [0]
    while pending:
        index = pending.pop()
        if index < len(heap) and is_due(heap[index]):
            yield heap[index]
            pending.extend((2 * index + 1, 2 * index + 2))
