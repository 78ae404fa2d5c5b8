"""Every moment one queue has scheduled, with one owner: the Schedule.

A queue's messages wait for moments: a delay to end, a visibility timeout to lapse, an injected
duplicate to appear, a retention period to run out, a deduplication id or receive attempt to be
forgotten. The Schedule keeps each kind in its own order and answers three questions about them:

- what is due by now (`ended_delays`, `lapsed_visibility`, `appearing_copies`, `expired`,
  `end_windows`; `due_by` peeks without taking anything);
- when the next event is (`next_visible_at`: a message becoming visible; `next_expiry_at`:
  retention and deduplication windows; `next_event_at` either);
- what can be dropped (`prune`: entries left stale by deletes and reschedules).

It also keeps a standard queue's visible messages in receive order (`next_ready`, ...). It
changes no message: the queue applies each transition (state, counters, history) itself. The
caller holds the queue's lock.

Entries are dropped lazily: a message deleted, or rescheduled since, leaves its entry where it is
until it comes to the front. Entries that would come to the front only when a visibility timeout
or a retention period runs out (never, on a frozen clock) would keep every deleted message alive,
so an order is rebuilt once its stale entries outnumber its live ones by `stale_slack`:
amortised O(1).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

from .attempts import ReceiveAttempts
from .dedup import DedupWindow
from .message import DELAYED, GONE, IN_FLIGHT, VISIBLE, Message
from .order import MessageOrder, RetentionOrder, TimedEntry, heap_prefix

# Also how many removals or reschedules pass between two looks at the orders.
STALE_SLACK = 1024
_NOTHING: tuple[Message, ...] = ()  # what a question with no due answer returns, allocation-free
CopyEntry = tuple[float, int, Message]  # (moment it appears, order of decision, the copy)


class Schedule:
    """The timed entries of one queue; see the module docstring for what it answers."""

    __slots__ = (
        "_copies",
        "_copy_order",
        "_delayed",
        "_in_flight",
        "_ready",
        "_retained",
        "_stale_made",
        "attempts",
        "dedup",
        "pruned",
        "retention",
        "stale_slack",
        "work",
    )

    def __init__(self, retention: float) -> None:
        self.retention = retention  # MessageRetentionPeriod, seconds; the queue keeps it current
        # A standard queue's visible messages in send order (rank), each exactly once.
        self._ready = MessageOrder("rank")
        self._delayed: list[TimedEntry] = []  # until visible_at, while DELAYED
        self._in_flight: list[TimedEntry] = []  # until visible_at, while IN_FLIGHT
        self._retained = RetentionOrder()  # every live message, oldest first
        self._copies: list[CopyEntry] = []  # injected duplicates that have not appeared yet
        self._copy_order = 0
        self.dedup = DedupWindow()  # FIFO MessageDeduplicationId
        self.attempts = ReceiveAttempts()  # FIFO ReceiveRequestAttemptId
        self.work = 0  # entries touched: lets tests prove cost does not grow with depth
        self.pruned = 0  # rebuilds that dropped stale entries
        self.stale_slack = STALE_SLACK
        self._stale_made = 0

    # -- what a message waits for ----------------------------------------------------------

    def retain(self, message: Message) -> None:
        """A message entered the queue: it expires `retention` after its enqueued_at."""
        self._retained.push(message)

    def enter_visible(self, messages: list[Message]) -> None:
        """A standard queue's batch, just sent and visible at once, in send order: retain()
        and ready() for each, a batch at a time."""
        self._retained.extend(messages)
        self._ready.extend(messages)

    def delay(self, message: Message) -> None:
        """A DELAYED message becomes visible at its visible_at."""
        heapq.heappush(
            self._delayed, (message.visible_at, message.sequence, message.generation, message)
        )

    def hide(self, message: Message) -> None:
        """An IN_FLIGHT message becomes visible again at its visible_at (an earlier entry of
        the same message goes stale: the generation tells them apart)."""
        heapq.heappush(
            self._in_flight, (message.visible_at, message.sequence, message.generation, message)
        )

    def hide_all(self, messages: list[Message]) -> None:
        """hide() each of `messages`, in order."""
        in_flight, push = self._in_flight, heapq.heappush
        for message in messages:
            push(in_flight, (message.visible_at, message.sequence, message.generation, message))

    def ready(self, message: Message) -> None:
        """A standard queue's message became visible: it joins the receive order by rank."""
        self._ready.push(message)

    def move_back(self, message: Message) -> None:
        """Received MOVED_BACK_AFTER times: the oldest age skips it from now on."""
        self._retained.move_back(message)

    def add_copy(self, copy: Message, appears_at: float) -> None:
        """An injected duplicate that enters the queue at `appears_at`."""
        self._copy_order += 1
        heapq.heappush(self._copies, (appears_at, self._copy_order, copy))

    # -- a standard queue's receive order --------------------------------------------------

    def next_ready(self) -> Message | None:
        """Take the first visible message of the receive order, or None."""
        ready = self._ready
        while True:
            try:
                message = ready.pop()
            except IndexError:  # empty: cheaper to learn here than to ask first
                return None
            self.work += 1
            if message.state is VISIBLE:
                return message
            # deleted or expired since: dropped, as it came first

    def take_ready(self, count: int) -> list[Message]:
        """next_ready() up to `count` times, a run of the order at a time: the first `count`
        visible messages of the receive order (fewer when it runs out)."""
        ready = self._ready
        taken: list[Message] = []
        while len(taken) < count:
            popped = ready.pop_many(count - len(taken))
            if not popped:
                break
            self.work += len(popped)
            taken += [message for message in popped if message.state is VISIBLE]
        return taken

    def first_ready(self) -> Message | None:
        """The message next_ready would take, left in place."""
        ready = self._ready
        while ready:
            message = ready.peek()
            self.work += 1
            if message.state is VISIBLE:
                return message
            ready.pop()
        return None

    def return_ready(self, messages: list[Message]) -> None:
        """Put messages taken from the receive order back; each goes back by its rank."""
        for message in messages:
            self._ready.push(message)

    # -- what is due -----------------------------------------------------------------------

    def quiet(self, now: float) -> bool:
        """Whether nothing is due by `now`: no delay, visibility, copy, retention or window
        ends, and no deleted message waits at the retention order's front. One look at each
        head, so apply_due skips the eight calls that would each find nothing (most requests);
        tests/engine/test_model.py checks at every step that those calls then do nothing."""
        delayed, in_flight, copies = self._delayed, self._in_flight, self._copies
        if (
            (delayed and delayed[0][0] <= now)
            or (in_flight and in_flight[0][0] <= now)
            or (copies and copies[0][0] <= now)
        ):
            return False
        # RetentionOrder.pop_finished's own shortcut case, read the same way: one deque.
        fresh, moved_back = self._retained.fresh, self._retained.moved_back
        if fresh._heap or moved_back._in_order or moved_back._heap:
            return False
        in_order = fresh._in_order
        if in_order:
            oldest = in_order[0]
            if oldest.state is GONE or oldest.enqueued_at + self.retention <= now:
                return False
        # The windows' own first look in expire(), read from here (engine-internal heaps).
        dedup, attempts = self.dedup._expiry, self.attempts._expiry
        return not (dedup and dedup[0][0] <= now) and not (attempts and attempts[0][0] <= now)

    def ended_delays(self, now: float) -> Sequence[Message]:
        """Take the DELAYED messages whose delay ended by `now`, soonest first."""
        delayed = self._delayed
        if not delayed or delayed[0][0] > now:
            return _NOTHING
        return self._take_due(delayed, now, DELAYED)

    def lapsed_visibility(self, now: float) -> Sequence[Message]:
        """Take the IN_FLIGHT messages whose visibility timeout lapsed by `now`."""
        in_flight = self._in_flight
        if not in_flight or in_flight[0][0] > now:
            return _NOTHING
        return self._take_due(in_flight, now, IN_FLIGHT)

    def _take_due(self, heap: list[TimedEntry], now: float, state: Any) -> list[Message]:
        due: list[Message] = []
        while heap and heap[0][0] <= now:
            _, _, generation, message = heapq.heappop(heap)
            self.work += 1
            if generation == message.generation and message.state is state:
                due.append(message)
        return due

    def appearing_copies(self, now: float) -> Sequence[CopyEntry]:
        """Take the injected duplicates due to appear by `now`: (moment, order, copy)."""
        copies = self._copies
        if not copies or copies[0][0] > now:
            return ()
        due: list[CopyEntry] = []
        while copies and copies[0][0] <= now:
            due.append(heapq.heappop(copies))
            self.work += 1
        return due

    def expired(self, now: float) -> Sequence[Message]:
        """Take the live messages whose retention period ran out by `now`, oldest first.

        Messages deleted since are dropped too as they come first (messages are mostly deleted
        in the order sent, so most leave here, in O(1), not at a rebuild)."""
        expired, popped = self._retained.pop_finished(self.retention, now)
        if not popped:
            return _NOTHING
        self.work += popped
        return expired

    def end_windows(self, now: float) -> None:
        """Forget deduplication ids and receive attempts whose five minutes are over."""
        self.dedup.expire(now)
        self.attempts.expire(now)

    def due_by(self, moment: float) -> list[Message]:
        """Peek: the messages with a delay, visibility, copy or retention moment at or before
        `moment`. Walks only the entries that are due (a heap's due entries form a subtree at
        its root), so the cost is the number of due entries, not the queue's depth."""
        due: list[Message] = []
        for heap in (self._delayed, self._in_flight):
            for _, _, generation, message in heap_prefix(heap, lambda e: e[0] <= moment):
                if generation == message.generation:
                    due.append(message)
        due.extend(copy for _, _, copy in heap_prefix(self._copies, lambda e: e[0] <= moment))
        due.extend(
            message
            for message in self._retained.due(moment - self.retention)
            if message.state is not GONE
        )
        return due

    # -- when ------------------------------------------------------------------------------

    def next_visible_at(self) -> float | None:
        """The next moment a message becomes visible: a delay ending, a visibility timeout
        lapsing, an injected duplicate appearing. Stale entries in front are dropped first,
        so the moment is one at which something does happen."""
        moments = [
            moment
            for moment in (
                self._first_live(self._delayed, DELAYED),
                self._first_live(self._in_flight, IN_FLIGHT),
                self._copies[0][0] if self._copies else None,
            )
            if moment is not None
        ]
        return min(moments) if moments else None

    def next_expiry_at(self) -> float | None:
        """The next moment something is forgotten: a live message's retention period running
        out, a deduplication id's or a receive attempt's five minutes ending."""
        moments = [
            moment
            for moment in (
                self._first_expiry(),
                self.dedup.next_expiry_at(),
                self.attempts.next_expiry_at(),
            )
            if moment is not None
        ]
        return min(moments) if moments else None

    def next_event_at(self, *, include_expiry: bool = False) -> float | None:
        """next_visible_at, or with `include_expiry` the earlier of it and next_expiry_at."""
        visible = self.next_visible_at()
        if not include_expiry:
            return visible
        expiry = self.next_expiry_at()
        return min((m for m in (visible, expiry) if m is not None), default=None)

    def _first_live(self, heap: list[TimedEntry], state: Any) -> float | None:
        while heap:
            _, _, generation, message = heap[0]
            if generation == message.generation and message.state is state:
                return heap[0][0]
            heapq.heappop(heap)
            self.work += 1
        return None

    def _first_expiry(self) -> float | None:
        retained = self._retained
        oldest = retained.first()
        while oldest is not None and oldest.state is GONE:
            retained.pop()
            self.work += 1
            oldest = retained.first()
        return None if oldest is None else oldest.enqueued_at + self.retention

    def oldest_enqueued_at(self) -> float | None:
        """When the oldest live message entered the queue, skipping those received
        MOVED_BACK_AFTER times or more in it without a delete, as ApproximateAgeOfOldestMessage
        does (CloudWatch metrics page of the SQS developer guide: a poison message does not
        count, even with a redrive policy); amortised O(1)."""
        oldest = self._retained.oldest_fresh()
        return None if oldest is None else oldest.enqueued_at

    # -- upkeep ----------------------------------------------------------------------------

    def settle_in_flight(self) -> None:
        """An in-flight message left (deleted, mostly in the order received): entries at the
        front that no longer count go now, so deleted messages are not kept until a prune."""
        self._first_live(self._in_flight, IN_FLIGHT)

    def left_stale(self, count: int = 1) -> bool:
        """`count` removals or reschedules left a stale entry each: True when it is time to
        prune (once every stale_slack of them)."""
        before = self._stale_made
        self._stale_made = before + count
        return before // self.stale_slack != self._stale_made // self.stale_slack

    def prune(self, *, visible: int, in_flight: int, delayed: int, live: int) -> None:
        """Rebuild each order that is mostly stale, given how many messages of the queue are
        in each state (`live`: all of them). In place, so a caller holding an order keeps a
        valid one. The tests are the due questions' own, written out: a call per entry would
        double a rebuild's cost."""
        slack = self.stale_slack
        if len(self._in_flight) > 2 * in_flight + slack:
            self._rebuild(
                self._in_flight,
                [e for e in self._in_flight if e[2] == e[3].generation and e[3].state is IN_FLIGHT],
            )
        if len(self._delayed) > 2 * delayed + slack:
            self._rebuild(
                self._delayed,
                [e for e in self._delayed if e[2] == e[3].generation and e[3].state is DELAYED],
            )
        if len(self._ready) > 2 * visible + slack:  # a FIFO queue's order stays empty
            self._keep(self._ready, lambda message: message.state is VISIBLE)
        if len(self._retained) > 2 * live + slack:
            self._keep(self._retained, lambda message: message.state is not GONE)

    def _rebuild(self, heap: list[Any], kept: list[Any]) -> None:
        self.work += len(heap)
        self.pruned += 1
        heap[:] = kept
        heapq.heapify(heap)

    def _keep(
        self, order: MessageOrder | RetentionOrder, is_live: Callable[[Message], bool]
    ) -> None:
        self.work += len(order)
        self.pruned += 1
        order.keep(is_live)

    def clear(self) -> None:
        """Forget everything (a purge): every order, every window, every pending copy."""
        self._ready.clear()
        self._delayed.clear()
        self._in_flight.clear()
        self._retained.clear()
        self._copies.clear()
        self.dedup.clear()
        self.attempts.clear()

    def sizes(self) -> dict[str, int]:
        """How many entries each order holds, stale ones included (for the cost tests)."""
        return {
            "ready": len(self._ready),
            "delayed": len(self._delayed),
            "in_flight": len(self._in_flight),
            "retained": len(self._retained),
            "copies": len(self._copies),
        }

    @property
    def moved_back_skipped(self) -> int:
        """Entries the oldest-age order dropped as they came first (for the cost tests)."""
        return self._retained.skipped
