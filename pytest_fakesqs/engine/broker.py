"""The queue registry: create / find / delete queues, long polls, dead-letter moves.

One module past 500 lines, as one idea: every operation that takes a queue's lock, catches up
move tasks and tells the listeners lives here, so that discipline is read (and changed) in one
place; the batch lanes (send_plain, delete_current) sit beside the general ways they must agree
with.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cancellation
from .clock import Clock
from .errors import (
    EngineError,
    QueueAlreadyExists,
    QueueNotFound,
)
from .handles import MessageIds
from .injected import FaultDecisions
from .message import Event, Message, State
from .move_tasks import MoveTaskRunner
from .queue import Queue
from .results import Delivery, SendResult
from .settings import QueueKey, QueueSettings

DeadLetterListener = Callable[[Queue, Queue, Message], None]
SentListener = Callable[[Queue, list[Message]], None]  # one call per send or batch
DeletedListener = Callable[[list[Message]], None]  # one call per delete or batch
ReceivedListener = Callable[[Queue, list[Delivery]], None]  # one call per receive, even empty


@dataclass(slots=True)
class Outgoing:
    """What a sender hands the engine; `size` is computed by the api (body plus attributes)."""

    body: str
    size: int
    attributes: Any = None
    system: dict[str, Any] | None = None
    delay: float | None = None  # None: the queue's DelaySeconds
    group_id: str | None = None
    dedup_id: str | None = None
    body_digest: str | None = None  # the api's MD5 of the body, kept so receives reuse it


class Broker:
    """All queues of one fake. One lock for the registry plus one per queue."""

    def __init__(self, clock: Clock, *, seed: int | None = None) -> None:
        self.clock = clock
        # Message ids are drawn from `seed` (a fake passes the test's), in the order sent.
        self.new_message_id = MessageIds(seed)
        self._lock = threading.Lock()
        self._queues: dict[QueueKey, Queue] = {}
        self._deleted_at: dict[QueueKey, float] = {}
        self.dead_letter_listeners: list[DeadLetterListener] = []
        # Told of the messages that entered a queue by one send or batch (FIFO duplicates are not).
        self.sent_listeners: list[SentListener] = []
        # Told of every copy a move makes (dead-lettered or redriven), after it arrived.
        self.moved_listeners: list[DeadLetterListener] = []
        # Told of the messages a delete or batch deleted by receipt handle, after the fact.
        self.deleted_listeners: list[DeletedListener] = []
        # Told of the messages that left for good without a delete: expired, purged, or in a
        # queue that was deleted (an expiry is told under its queue's lock, as it happens).
        self.removed_listeners: list[DeletedListener] = []
        # Told of every receive once it returns (empty ones too), in the receiving thread.
        self.received_listeners: list[ReceivedListener] = []
        self.faults: FaultDecisions | None = None
        self.move_tasks = MoveTaskRunner(self)

    def set_faults(self, plan: FaultDecisions | None) -> None:
        """Turn injected misbehaviour on (or off, with None) for every queue, old and new."""
        self.faults = plan
        for queue in self.queues():
            queue.faults = plan

    # -- registry ------------------------------------------------------------------------------

    def create_queue(self, key: QueueKey, settings: QueueSettings) -> Queue:
        with self._lock:
            if key in self._queues:
                raise QueueAlreadyExists(key[2])
            queue = Queue(key, settings, self.clock)
            queue.faults = self.faults
            queue.on_expired = self._expired
            self._queues[key] = queue
            self._deleted_at.pop(key, None)
            return queue

    def get(self, key: QueueKey) -> Queue:
        queue = self._queues.get(key)
        if queue is None:
            raise QueueNotFound(key[2])
        return queue

    def find(self, key: QueueKey) -> Queue | None:
        return self._queues.get(key)

    def delete_queue(self, key: QueueKey) -> Queue:
        self.move_tasks.catch_up(self.clock.now())  # moves due before the delete still happen
        with self._lock:
            queue = self._queues.pop(key, None)
            if queue is None:
                raise QueueNotFound(key[2])
            self._deleted_at[key] = self.clock.now()
        with queue.lock:
            removed = queue.close(self.clock.now())
        self.notify_removed(removed)
        return queue

    def deleted_at(self, key: QueueKey) -> float | None:
        return self._deleted_at.get(key)

    def queues(self) -> list[Queue]:
        with self._lock:
            return list(self._queues.values())

    # -- messages ------------------------------------------------------------------------------

    def send(self, queue: Queue, outgoing: Outgoing) -> SendResult:
        entered: list[Message] = []
        message = self._send_all(queue, [outgoing], entered)[0]
        return SendResult(message, duplicate=not entered)

    def send_many(self, queue: Queue, outgoings: list[Outgoing]) -> list[Message]:
        """Send in order under one lock acquisition (a batch costs one lock, not ten).

        Returns each outgoing's message: the one it became, or (a FIFO duplicate) the original.
        """
        return self._send_all(queue, outgoings, None)

    def send_plain(
        self, queue: Queue, bodies: list[str], digests: list[str], system: dict[str, Any] | None
    ) -> list[Message]:
        """send_many() of messages that are a body and nothing else (no attributes, delay, group
        or deduplication id), each body's size its length (the api sends bodies of printable
        ASCII this way) and `digests` their MD5s: the usual batch, with no Outgoing per message.
        tests/engine/test_batches.py proves it leaves what send_many leaves."""
        if self.move_tasks.unfinished:  # as in _send_all
            self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            if queue.groups is None and not queue.settings.delay:
                ids = self.new_message_id.many(len(bodies))
                messages = [
                    Message(message_id, body, now, len(body), None, system, None, None, digest)
                    for message_id, body, digest in zip(ids, bodies, digests, strict=True)
                ]
                queue.enqueue_visible(messages, now)
                if queue.pollers:  # as in _send_all
                    queue.condition.notify(len(messages))
            else:
                messages = []
        if not messages:  # a FIFO queue or one with a delay: the general way
            outgoings = [
                Outgoing(body, len(body), None, system, None, None, None, digest)
                for body, digest in zip(bodies, digests, strict=True)
            ]
            return self._send_all(queue, outgoings, None)
        for listener in self.sent_listeners:
            listener(queue, messages)
        return messages

    def _send_all(
        self, queue: Queue, outgoings: list[Outgoing], entered: list[Message] | None
    ) -> list[Message]:
        """`send_many`, also listing in `entered` the messages that did enter the queue."""
        if self.move_tasks.unfinished:  # catch_up's own first look, saving the call when none runs
            self.move_tasks.catch_up(self.clock.now())
        results: list[Message] = []
        duplicate_at: set[int] = set()  # positions whose message was already in the queue
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            fifo = queue.settings.fifo
            queue_delay = queue.settings.delay
            new_message_id = self.new_message_id
            delayed_any = False
            if not fifo and not queue_delay and not any(o.delay for o in outgoings):
                # The usual send: every message visible at once, entered in one pass.
                results = [
                    Message(
                        new_message_id(),
                        o.body,
                        now,
                        o.size,
                        o.attributes,
                        o.system,
                        o.group_id,
                        o.dedup_id,
                        o.body_digest,
                    )
                    for o in outgoings
                ]
                queue.enqueue_visible(results, now)
            else:
                for outgoing in outgoings:
                    if fifo and outgoing.dedup_id is not None:
                        original = queue.find_duplicate(outgoing.group_id, outgoing.dedup_id, now)
                        if original is not None:
                            duplicate_at.add(len(results))
                            results.append(original)
                            continue
                    message = Message(
                        new_message_id(),
                        outgoing.body,
                        now,
                        outgoing.size,
                        outgoing.attributes,
                        outgoing.system,
                        outgoing.group_id,
                        outgoing.dedup_id,
                        outgoing.body_digest,
                    )
                    delay = queue_delay if outgoing.delay is None else outgoing.delay
                    delayed_any = delayed_any or delay > 0
                    queue.enqueue(message, delay, now)
                    if fifo and outgoing.dedup_id is not None:
                        queue.remember_dedup(message, now)
                    results.append(message)
            if queue.pollers:  # waking nobody still costs a Condition round-trip per send
                if delayed_any:  # every poll re-reads its next event: a delay may end first
                    queue.condition.notify_all()
                else:  # one poll per message: the others would only find the queue empty
                    queue.condition.notify(len(results) - len(duplicate_at))
        fresh = (
            [m for i, m in enumerate(results) if i not in duplicate_at] if duplicate_at else results
        )
        if entered is not None:
            entered.extend(fresh)
        for listener in self.sent_listeners:
            listener(queue, fresh)
        return results

    def receive(
        self,
        queue: Queue,
        max_messages: int = 1,
        visibility_timeout: float | None = None,
        wait_seconds: float = 0.0,
        attempt_id: str | None = None,
    ) -> list[Delivery]:
        """Receive up to `max_messages`, long-polling up to `wait_seconds` on the clock.

        On a FIFO queue, `attempt_id` (ReceiveRequestAttemptId) replays the messages and
        receipt handles of an earlier receive with the same id, within 5 minutes, as long as
        none of them was modified since.
        """
        deliveries = self._receive(
            queue, max_messages, visibility_timeout, wait_seconds, attempt_id
        )
        if self.received_listeners:
            for listener in self.received_listeners:
                listener(queue, deliveries)
        return deliveries

    def _receive(
        self,
        queue: Queue,
        max_messages: int,
        visibility_timeout: float | None,
        wait_seconds: float,
        attempt_id: str | None,
    ) -> list[Delivery]:
        timeout = (
            queue.settings.visibility_timeout if visibility_timeout is None else visibility_timeout
        )
        deadline = self.clock.now() + wait_seconds
        # SQS short polls sample a subset of its servers, so an empty answer is allowed.
        may_empty = wait_seconds <= 0 and self.faults is not None
        while True:
            if self.move_tasks.unfinished:  # as in _send_all
                self.move_tasks.catch_up(self.clock.now())
            dead_letter_queue = self._dead_letter_queue(queue)
            next_move = (
                self.move_tasks.next_move_at(into=queue.key) if self.move_tasks.unfinished else None
            )
            with queue.lock:
                now = self.clock.now()
                queue.apply_due(now)
                if may_empty:
                    may_empty = False  # asked once per receive, before anything is taken
                    if self._empties(queue, now):
                        return []
                if attempt_id is not None and queue.settings.fifo:
                    replayed = queue.replay(attempt_id, timeout, now)
                    if replayed is not None:
                        return replayed
                deliveries, moved = queue.take(
                    max_messages, timeout, now, may_move=dead_letter_queue is not None
                )
                if deliveries and attempt_id is not None and queue.settings.fifo:
                    queue.remember_attempt(attempt_id, deliveries, now)
                keep_polling = (
                    not deliveries
                    and not moved
                    and not queue.deleted
                    and now < deadline
                    and self._wait(
                        queue, deadline, _earliest(queue.schedule.next_visible_at(), next_move)
                    )
                )
                if not keep_polling and queue.pollers and queue.visible:
                    # This poll leaves messages behind (it took its fill, or gave up after a
                    # send woke it): pass the wake-up on, so no visible message waits unseen.
                    queue.condition.notify()
            if moved and dead_letter_queue is not None:
                self._dead_letter(queue, dead_letter_queue, moved)
            if deliveries or not (keep_polling or (moved and now < deadline)):
                return deliveries

    def _empties(self, queue: Queue, now: float) -> bool:
        faults = self.faults
        return faults is not None and faults.empty_receive(queue.key, queue.visible, now)

    # -- what is scheduled ---------------------------------------------------------------------

    def next_visible_at(self, queue: Queue) -> float | None:
        """The next moment a message may become receivable in `queue`: a delay ending, a
        visibility timeout lapsing, an injected duplicate appearing, or a move task's next move
        into it (which may bring one). What is due by now is applied first."""
        now = self.clock.now()
        self.move_tasks.catch_up(now)
        next_move = self.move_tasks.next_move_at(into=queue.key)
        with queue.lock:
            queue.apply_due(now)
            return _earliest(queue.schedule.next_visible_at(), next_move)

    def next_event_at(
        self, queue: Queue | None = None, *, include_expiry: bool = False
    ) -> float | None:
        """The next moment something is scheduled to happen in `queue` (in any queue, when
        None): a message becoming visible (next_visible_at's moments) or a move task's move
        into or out of it; with `include_expiry`, also a retention period or a deduplication
        window running out. None when nothing is. What is due by now is applied first, so the
        moment is later than now."""
        now = self.clock.now()
        self.move_tasks.catch_up(now)
        watched = self.queues() if queue is None else [queue]
        moments: list[float | None] = []
        for each in watched:
            with each.lock:
                each.apply_due(now)
                moments.append(each.schedule.next_event_at(include_expiry=include_expiry))
        if queue is None:
            moments.append(self.move_tasks.next_move_at())
        else:
            moments.append(self.move_tasks.next_move_touching({queue.key}))
        return _earliest(*moments)

    def _wait(self, queue: Queue, deadline: float, next_event: float | None) -> bool:
        """A long poll's wait, counted so senders notify only when someone is waiting; False
        (give up) once the caller's transport cancelled it (its client went away)."""
        token = cancellation.current()
        if token is not None:
            token.waiting(queue.condition)
            if token.cancelled:
                token.waiting(None)
                return False
        queue.pollers += 1
        try:
            block = None if token is None else token.block
            return self.clock.wait(queue.condition, deadline, next_event, block) and not (
                token is not None and token.cancelled
            )
        finally:
            queue.pollers -= 1
            if token is not None:
                token.waiting(None)

    def _dead_letter_queue(self, queue: Queue) -> Queue | None:
        redrive = queue.settings.redrive
        return None if redrive is None else self._queues.get(redrive.dead_letter_queue)

    def _dead_letter(self, source: Queue, target: Queue, messages: list[Message]) -> None:
        for message in messages:
            self.transfer(source, target, message, keep_enqueue_time=not source.settings.fifo)

    def transfer(
        self,
        source: Queue,
        target: Queue,
        message: Message,
        *,
        keep_enqueue_time: bool,
        event: Event = Event.ARRIVED_FROM,
        dead_letter: bool = True,
    ) -> Message:
        """Copy a removed message into `target`, keeping its id, body and history.

        A dead-letter move keeps the receive count and records the source; a redrive (a move
        task, `dead_letter=False`) arrives as a fresh message: count 0, no dead-letter source.
        """
        with target.lock:
            now = self.clock.now()
            target.apply_due(now)
            moved = message.copy()
            if dead_letter:
                moved.system = {**(moved.system or {}), "dead_letter_source": source.key}
                moved.receive_count = message.receive_count
                moved.first_received_at = message.first_received_at
            else:
                (moved.system or {}).pop("dead_letter_source", None)
            moved.record(now, event, source.name)
            if not keep_enqueue_time:
                moved.enqueued_at = now
            target.enqueue(moved, 0.0, now)
            target.condition.notify_all()
        for listener in self.moved_listeners:
            listener(source, target, moved)
        if dead_letter:
            for listener in self.dead_letter_listeners:
                listener(source, target, moved)
        return moved

    def delete(self, queue: Queue, handle: str, *, in_flight_only: bool = False) -> Message:
        """Delete by receipt handle. On a standard queue an expired or older handle deletes its
        message too (AWS), unless `in_flight_only` (a trigger whose job outlived the visibility
        timeout models a poller that already took the message back)."""
        self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            message = queue.delete(handle, now, in_flight_only=in_flight_only)
        for listener in self.deleted_listeners:
            listener([message])
        return message

    def delete_many(self, queue: Queue, handles: list[str]) -> list[Message | EngineError]:
        """Delete in order under one lock; each handle's outcome is its message or its error."""
        if self.move_tasks.unfinished:  # as in _send_all
            self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            outcomes = queue.delete_all(handles, now)
        if self.deleted_listeners:
            deleted = [m for m in outcomes if isinstance(m, Message)]
            for listener in self.deleted_listeners:
                listener(deleted)
        return outcomes

    def delete_current(self, queue: Queue, handles: list[str]) -> bool:
        """delete_many() of a batch of a standard queue's in-flight messages, each named by its
        current handle (the usual delete batch), in one pass; False, deleting nothing, when any
        handle is not such (stale, repeated, malformed) or the queue is FIFO: then delete_many
        says what becomes of each one."""
        if self.move_tasks.unfinished:  # as in _send_all
            self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            deleted = queue.delete_current(handles, now)
        if deleted is None:
            return False
        for listener in self.deleted_listeners:
            listener(deleted)
        return True

    def change_visibility(self, queue: Queue, handle: str, timeout: float) -> Message:
        self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            message = queue.change_visibility(handle, timeout, now)
            if timeout <= 0:
                queue.condition.notify_all()
            return message

    def purge(self, queue: Queue) -> list[Message]:
        self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            now = self.clock.now()
            queue.apply_due(now)
            removed = queue.purge(now)
        self.notify_removed(removed)
        return removed

    def _expired(self, message: Message) -> None:
        self.notify_removed([message])

    def notify_removed(self, messages: list[Message]) -> None:
        """Tell the removed_listeners: `messages` left for good without a delete."""
        if messages:
            for listener in self.removed_listeners:
                listener(messages)

    def refresh(self, queue: Queue) -> Queue:
        """Apply due transitions so counters are current; returns the queue for chaining."""
        self.move_tasks.catch_up(self.clock.now())
        with queue.lock:
            queue.apply_due(self.clock.now())
        return queue

    def states(self, queue: Queue) -> dict[State, list[Message]]:
        """Peek: live messages by state, in arrival order, with no side effects."""
        self.refresh(queue)
        by_state: dict[State, list[Message]] = {state: [] for state in State}
        with queue.lock:
            for message in queue.live_messages():
                by_state[message.state].append(message)
        return by_state


def _earliest(*moments: float | None) -> float | None:
    known = [moment for moment in moments if moment is not None]
    return min(known) if known else None
