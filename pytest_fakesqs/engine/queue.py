"""One queue: indexed storage, its schedule of every time-based transition, one lock.

Every transition is applied lazily, on access, against the clock: no background thread. The
queue changes messages (state, counters, history); its Schedule (schedule.py) only keeps the
moments and answers what is due; its fault opportunities are engine.injected's.

One module past 500 lines: each transition (send, receive, delete, visibility change, purge)
changes the message, the storage's indexes and the schedule together under the queue's lock,
and the batch lanes (enqueue_visible, delete_current) sit beside the general ways they must
agree with; split by transition, each part would reach into the others' state.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator

from . import injected
from .cancellation import PollCondition
from .clock import Clock
from .errors import (
    EngineError,
    MalformedReceiptHandle,
    QueueOverLimit,
    StaleReceiptHandle,
    VisibilityLimitExceeded,
)
from .fifo import GroupIndex
from .handles import decode_handle, new_handles
from .injected import FaultDecisions
from .message import DELAYED, GONE, IN_FLIGHT, VISIBLE, Event, Message, record_last_of_each
from .results import Delivery
from .schedule import Schedule
from .settings import MAX_VISIBILITY, MOVED_BACK_AFTER, QueueKey, QueueSettings
from .storage import SlotStore

_queue_uids = itertools.count(1)
# The events of every message's life as module-level names: see message.VISIBLE for why.
_DELAY_ENDED, _DELETED, _VISIBLE_AGAIN = Event.DELAY_ENDED, Event.DELETED, Event.VISIBLE_AGAIN
_FIRST_SEQUENCE_NUMBER = 10_000_000_000_000_000_000


class Queue:
    def __init__(self, key: QueueKey, settings: QueueSettings, clock: Clock) -> None:
        self.key = key
        self.name = key[2]
        self.uid = f"q{next(_queue_uids)}"
        self.settings = settings
        self.clock = clock
        self.created_at = clock.now()
        self.lock = threading.Lock()
        self.condition = PollCondition(self.lock)
        self.store = SlotStore()
        self.groups = GroupIndex() if settings.fifo else None
        self.schedule = Schedule(settings.retention)
        self._sequence = itertools.count(1)
        self.visible = 0
        self.in_flight = 0
        self.delayed = 0
        self.bytes = 0
        self.deleted = False
        self.last_purge_at: float | None = None
        self.pollers = 0  # long polls waiting on `condition` right now
        # Injected misbehaviour, if the fake asked for any (engine.injected).
        self.faults: FaultDecisions | None = None
        self.duplicates = 0  # injected second deliveries so far (their keys count them)
        self.on_expired: Callable[[Message], None] | None = None  # the broker's, told under lock

    # -- lazy time-based transitions ---------------------------------------------------------

    def apply_due(self, now: float) -> None:
        """Apply every transition whose moment has come. Caller holds the lock."""
        schedule = self.schedule
        if schedule.quiet(now):
            return
        for message in schedule.ended_delays(now):
            self.delayed -= 1
            self._make_visible(message, _DELAY_ENDED, message.visible_at)
        for message in schedule.lapsed_visibility(now):
            self._leave_flight(message)
            self._make_visible(message, _VISIBLE_AGAIN, message.visible_at)
        for moment, _, copy in schedule.appearing_copies(now):
            injected.copy_appears(self, copy, moment)
        for message in schedule.expired(now):
            self._remove(message, Event.EXPIRED, message.enqueued_at + schedule.retention)
            if self.on_expired is not None:
                self.on_expired(message)
        schedule.end_windows(now)

    def reconfigure(self, settings: QueueSettings) -> None:
        """New settings (SetQueueAttributes). Caller holds the lock."""
        self.settings = settings
        self.schedule.retention = settings.retention

    @property
    def work(self) -> int:
        """Entries touched so far: lets tests prove cost does not grow with depth."""
        return self.schedule.work

    @work.setter
    def work(self, value: int) -> None:
        self.schedule.work = value

    @property
    def pruned(self) -> int:
        """Rebuilds of the schedule's orders that dropped stale entries."""
        return self.schedule.pruned

    # -- state changes -------------------------------------------------------------------------

    def _make_visible(self, message: Message, event: Event, moment: float) -> None:
        message.state = VISIBLE
        message.generation += 1
        message.visible_at = moment
        self.visible += 1
        message.record(moment, event)
        if self.groups is not None:
            self.groups.settle(message)
        else:
            if message.receives_here >= MOVED_BACK_AFTER:
                message.rank = next(self._sequence)  # to the back of the queue
            self.schedule.ready(message)

    def _leave_flight(self, message: Message) -> None:
        self.in_flight -= 1
        if message.receipt_handle is not None:
            self.store.by_handle.pop(message.receipt_handle, None)
            message.receipt_handle = None
        if self.groups is not None:
            group = self.groups.groups.get(message.group_id or "")
            if group is not None:
                group.in_flight -= 1

    def _remove(
        self,
        message: Message,
        event: Event,
        moment: float,
        detail: str = "",
        *,
        settle: bool = True,
        upkeep: bool = True,
    ) -> None:
        """Take a live message out for good. `settle=False`: its FIFO group is being served,
        and is settled once its run is over (re-offering it now would give it a turn early).
        `upkeep=False`: the caller removes a batch, and calls _upkeep once after it."""
        state = message.state
        if state is VISIBLE:
            self.visible -= 1
        elif state is DELAYED:
            self.delayed -= 1
        elif state is IN_FLIGHT:
            self._leave_flight(message)
        self.store.remove(message)
        message.state = GONE
        message.generation += 1
        message.receipt_handle = None
        self.bytes -= message.size
        message.record_last(moment, event, detail)
        if self.groups is not None and settle:
            self.groups.settle(message)
        if upkeep:
            self._upkeep(1)

    def _upkeep(self, removed: int) -> None:
        """After `removed` removals: entries at the in-flight order's front that no longer
        count go (deleted in the order received, a message is freed at once instead of
        waiting for a prune), and a prune when it is time."""
        schedule = self.schedule
        schedule.settle_in_flight()
        if schedule.left_stale(removed):
            self._prune()

    def _prune(self) -> None:
        self.schedule.prune(
            visible=self.visible,
            in_flight=self.in_flight,
            delayed=self.delayed,
            live=len(self.store),
        )

    # -- operations (caller holds the lock and has called apply_due) --------------------------

    def enqueue(self, message: Message, delay: float, now: float) -> None:
        groups = self.groups  # set exactly for FIFO queues
        if delay <= 0 and groups is None:
            self.enqueue_visible([message], now)  # a standard queue's one way in, visible
            return
        message.sequence = message.rank = sequence = next(self._sequence)
        message.queue_name = self.name
        if groups is not None:
            message.sequence_number = str(_FIRST_SEQUENCE_NUMBER + sequence)
        self.store.add(message)
        self.bytes += message.size
        schedule = self.schedule
        schedule.retain(message)
        if delay > 0:
            message.state = DELAYED
            message.visible_at = now + delay
            self.delayed += 1
            schedule.delay(message)
        else:
            message.state = VISIBLE
            message.visible_at = now
            self.visible += 1
        if groups is not None:
            groups.add(message)

    def enqueue_visible(self, messages: list[Message], now: float) -> None:
        """Enter a standard queue's messages, visible at once, in send order: a batch in one
        pass (enqueue() of one visible message comes here too)."""
        assert self.groups is None
        sequence, name, size = self._sequence, self.name, 0
        for message in messages:
            message.sequence = message.rank = next(sequence)
            message.queue_name = name
            message.state = VISIBLE
            message.visible_at = now
            size += message.size
        self.store.add_all(messages)
        self.bytes += size
        self.visible += len(messages)
        self.schedule.enter_visible(messages)

    def find_duplicate(self, group_id: str | None, dedup_id: str, now: float) -> Message | None:
        scope = group_id if self.settings.dedup_scope == "messageGroup" else None
        return self.schedule.dedup.find((scope, dedup_id), now)

    def remember_dedup(self, message: Message, now: float) -> None:
        assert message.dedup_id is not None
        scope = message.group_id if self.settings.dedup_scope == "messageGroup" else None
        self.schedule.dedup.remember((scope, message.dedup_id), message, now)

    def remember_attempt(self, attempt_id: str, deliveries: list[Delivery], now: float) -> None:
        """FIFO ReceiveRequestAttemptId: a retry within five minutes replays `deliveries`."""
        self.schedule.attempts.remember(attempt_id, deliveries, now)

    def take(
        self, max_messages: int, visibility_timeout: float, now: float, *, may_move: bool
    ) -> tuple[list[Delivery], list[Message]]:
        """Receive up to `max_messages`. Returns (deliveries, messages to dead-letter).

        A message whose next receive would exceed maxReceiveCount is removed and returned in
        the second list instead of being delivered (the broker moves it outside this lock).
        """
        limit = self.settings.max_in_flight
        if limit is not None and self.in_flight >= limit:
            raise QueueOverLimit(self.name, limit)
        redrive = self.settings.redrive if may_move else None
        deliveries: list[Delivery] = []
        moved: list[Message] = []
        if self.groups is None:
            schedule, faults = self.schedule, self.faults
            window = (
                None
                if faults is None
                else injected.reordered_window(self, faults, max_messages, now)
            )
            while len(deliveries) < max_messages:
                if window is not None:
                    if not window:
                        break
                    batch = [window.pop()]
                else:  # the next ones in receive order, a run at a time
                    batch = schedule.take_ready(max_messages - len(deliveries))
                    if not batch:
                        break
                if redrive is None:
                    deliveries += self._deliver_all(batch, visibility_timeout, now)
                    continue
                for message in batch:
                    if message.receive_count >= redrive.max_receive_count:
                        self._remove(message, Event.MOVED_TO_DLQ, now, redrive.dead_letter_queue[2])
                        moved.append(message)
                        continue
                    deliveries.append(self._deliver(message, visibility_timeout, now))
            if window:
                schedule.return_ready(window)
            if faults is not None:
                injected.duplicate_deliveries(self, faults, deliveries, now)
            return deliveries, moved
        while len(deliveries) < max_messages:
            group = self.groups.pop_available()
            if group is None:
                break
            room = 1 if self.settings.one_message_per_group else max_messages - len(deliveries)
            for message in group.receivable(room):
                self.schedule.work += 1
                if redrive is not None and message.receive_count >= redrive.max_receive_count:
                    self._remove(
                        message, Event.MOVED_TO_DLQ, now, redrive.dead_letter_queue[2], settle=False
                    )
                    moved.append(message)
                    continue
                deliveries.append(self._deliver(message, visibility_timeout, now))
                group.in_flight += 1
            self.groups.settle_group(group)
        return deliveries, moved

    def peek_visible(self) -> Message | None:
        """The message a receive would hand out first, without receiving it (move tasks)."""
        if self.groups is None:
            return self.schedule.first_ready()
        group = self.groups.peek_available()  # peeking keeps the group's turn
        return None if group is None else group.head()

    def take_out(self, message: Message, event: Event, now: float, detail: str = "") -> None:
        """Remove a live message that leaves for another queue (a move task's move)."""
        self._remove(message, event, now, detail)

    def replay(
        self, attempt_id: str, visibility_timeout: float, now: float
    ) -> list[Delivery] | None:
        """An earlier receive's deliveries (same handles) with their visibility timeout reset;
        None when there is none or it was modified since, so the caller receives afresh."""
        attempt = self.schedule.attempts.unmodified(attempt_id, now)
        if attempt is None:
            return None
        for index, delivery in enumerate(attempt.deliveries):
            message = delivery.message
            self.schedule.work += 1
            self._reschedule(message, now + visibility_timeout)
            message.record(now, Event.RECEIVED, f"replayed handle …{delivery.receipt_handle[-8:]}")
            attempt.generations[index] = message.generation
        return list(attempt.deliveries)

    def _deliver(self, message: Message, visibility_timeout: float, now: float) -> Delivery:
        return self._deliver_all([message], visibility_timeout, now)[0]

    def _deliver_all(
        self, messages: list[Message], visibility_timeout: float, now: float
    ) -> list[Delivery]:
        """Hand out each of `messages` (visible ones) under a new receipt handle, in flight
        until `visibility_timeout` from now: a receive's run in one pass."""
        uid, by_handle, schedule = self.uid, self.store.by_handle, self.schedule
        visible_at = now + visibility_timeout
        deliveries: list[Delivery] = []
        handles = new_handles(uid, [m.key for m in messages])
        for message, handle in zip(messages, handles, strict=True):
            message.state = IN_FLIGHT
            message.generation += 1
            message.receive_count += 1
            message.receives_here += 1
            if message.receives_here == MOVED_BACK_AFTER:
                schedule.move_back(message)  # the oldest age skips it from now on
            if message.first_received_at is None:
                message.first_received_at = now
            message.receipt_handle = handle
            message.received_at = now
            message.visible_at = visible_at
            by_handle[handle] = message
            message.record_receive(now, handle)
            deliveries.append(
                Delivery(message, handle, message.receive_count, message.first_received_at)
            )
        self.visible -= len(messages)
        self.in_flight += len(messages)
        schedule.hide_all(messages)
        return deliveries

    # -- restoring a saved queue (`fakesqs serve --state`) --------------------------------------

    def restore_in_flight(
        self, message: Message, handle: str, visible_at: float, received_at: float
    ) -> None:
        """Enter `message` as a receive left it: in flight until `visible_at` under `handle`,
        received at `received_at` (the 12-hour visibility cap counts from it)."""
        message.receive_count -= 1  # the delivery below counts the receive again
        message.receives_here = max(0, message.receives_here - 1)
        self.enqueue(message, 0.0, received_at)
        delivery = self._deliver(message, visible_at - received_at, received_at)
        self.store.by_handle.pop(delivery.receipt_handle, None)
        message.receipt_handle = handle  # the consumer that holds it may still delete
        self.store.by_handle[handle] = message
        if self.groups is not None:  # a FIFO group stays blocked behind its message in flight
            self.groups.groups[message.group_id or ""].in_flight += 1

    def continue_sequence_after(self, sequence_number: int) -> None:
        """Later sends number on from a restored FIFO SequenceNumber."""
        self._sequence = itertools.count(sequence_number - _FIRST_SEQUENCE_NUMBER + 1)

    def _named_by(self, handle: str) -> Message | None:
        """The live message a handle this queue issued names, whether or not it is the
        message's current handle; MalformedReceiptHandle for a handle it never issued."""
        decoded = decode_handle(handle)
        if decoded is None or decoded[0] != self.uid:
            raise MalformedReceiptHandle(handle)
        return self.store.by_id.get(decoded[1])

    def lookup_in_flight(self, handle: str) -> Message:
        """Standard queues: an older handle names its message in flight too (AWS-validated)."""
        message = self.store.by_handle.get(handle) or self._named_by(handle)
        if message is None or (message.receipt_handle != handle and self.groups is not None):
            raise StaleReceiptHandle(handle, message_exists=message is not None)
        if message.state is not IN_FLIGHT:
            raise StaleReceiptHandle(handle, message_exists=True)
        return message

    def delete(self, handle: str, now: float, *, in_flight_only: bool = False) -> Message:
        """On a standard queue any handle it issued deletes its message, expired or older than
        another (verified against AWS), unless `in_flight_only` (see Broker.delete)."""
        message = self._deleted_by(handle, in_flight_only=in_flight_only)
        self._remove(message, _DELETED, now)
        return message

    def delete_all(self, handles: list[str], now: float) -> list[Message | EngineError]:
        """delete() each handle in order: its message, or its error (the handle is malformed
        or stale); the upkeep after a removal is done once for the batch."""
        current = self.delete_current(handles, now)
        if current is not None:  # the usual batch: each handle a message's own, in flight
            return list(current)
        outcomes: list[Message | EngineError] = []
        removed = 0
        for handle in handles:
            try:
                message = self._deleted_by(handle, in_flight_only=False)
            except (MalformedReceiptHandle, StaleReceiptHandle) as error:
                outcomes.append(error)
                continue
            self._remove(message, _DELETED, now, upkeep=False)
            removed += 1
            outcomes.append(message)
        if removed:
            self._upkeep(removed)
        return outcomes

    def delete_current(self, handles: list[str], now: float) -> list[Message] | None:
        """delete_all() of a standard queue's in-flight messages, each named by its current
        handle, in one pass (tests/engine/test_batches.py proves it the same); None, deleting
        nothing, for any other handles (stale, repeated, malformed) or on a FIFO queue."""
        if self.groups is not None:
            return None
        get = self.store.by_handle.get
        messages = [get(handle) for handle in handles]
        if None in messages or len(set(handles)) != len(handles):
            return None
        current: list[Message] = messages  # type: ignore[assignment]  # no None in it, checked
        self._delete_in_flight(handles, current, now)
        return current

    def _delete_in_flight(self, handles: list[str], messages: list[Message], now: float) -> None:
        """_remove(message, DELETED) for each of a batch of messages in flight, named by their
        current `handles`, in one pass (tests/engine/test_batches.py proves it the same)."""
        size = 0
        for message in messages:
            message.state = GONE
            message.generation += 1
            message.receipt_handle = None
            size += message.size
        record_last_of_each(messages, now, _DELETED)
        self.store.remove_in_flight(handles, messages)
        self.in_flight -= len(messages)
        self.bytes -= size
        self._upkeep(len(messages))

    def _deleted_by(self, handle: str, *, in_flight_only: bool) -> Message:
        """The message a delete of `handle` removes; raises when there is none."""
        message = self.store.by_handle.get(handle)
        if message is None:
            message = self._named_by(handle)
            if message is None or in_flight_only or self.groups is not None:
                raise StaleReceiptHandle(handle, message_exists=message is not None)
        return message

    def change_visibility(self, handle: str, timeout: float, now: float) -> Message:
        message = self.lookup_in_flight(handle)
        if now + timeout - message.received_at > MAX_VISIBILITY:
            raise VisibilityLimitExceeded(handle, timeout)
        message.record(now, Event.VISIBILITY_CHANGED, f"{timeout:g}s")
        if timeout <= 0:
            self._leave_flight(message)
            self._make_visible(message, _VISIBLE_AGAIN, now)
            return message
        self._reschedule(message, now + timeout)
        return message

    def _reschedule(self, message: Message, visible_at: float) -> None:
        """An in-flight message gets a new visibility deadline (older heap entries go stale)."""
        message.generation += 1
        message.visible_at = visible_at
        self.schedule.hide(message)
        if self.schedule.left_stale():
            self._prune()

    def purge(self, now: float) -> list[Message]:
        """Remove every message; a purge also forgets deduplication ids and receive attempts
        (AWS behaviour), and injected duplicates yet to appear."""
        removed = self._remove_all(Event.PURGED, now)
        self.last_purge_at = now
        return removed

    def close(self, now: float) -> list[Message]:
        """The queue was deleted: every message leaves with it, long polls wake up."""
        removed = self._remove_all(Event.QUEUE_DELETED, now)
        self.deleted = True
        self.condition.notify_all()
        return removed

    def _remove_all(self, event: Event, now: float) -> list[Message]:
        removed = [m for m in self.store if m.state is not GONE]
        for message in removed:
            self._remove(message, event, now)
        self.schedule.clear()
        if self.groups is not None:
            self.groups.clear()
        return removed

    def live_messages(self) -> Iterator[Message]:
        return iter(self.store)

    def find(self, message_id: str) -> Message | None:
        return self.store.by_id.get(message_id)
