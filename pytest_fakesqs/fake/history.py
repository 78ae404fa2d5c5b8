"""Every message the fake saw, with its timeline across queues (`fakesqs.history()`)."""

from __future__ import annotations

import threading
from collections import deque

from ..engine import (
    Broker,
    Event,
    Message,
    Queue,
    State,
    Story,
    finished_stories,
    story_queue,
    story_timeline,
)
from .records import PRIVATE, HistoryEvent, moment
from .text import abridge, offset, short_id


class MessageLog:
    """Remembers every message sent while the fake is active, and each copy a move made.

    A move (to a dead-letter queue and back) copies the message with its history, so the
    latest copy's timeline is the whole story; the earlier copies say which queue it was in.
    A message deleted for good is kept as its Story: the garbage collector does not scan it.
    With a `limit`, only the `limit` most recently finished messages (deleted, expired, purged)
    are remembered; the oldest is forgotten as each one finishes, in O(1).
    """

    def __init__(self, broker: Broker, *, limit: int | None = None) -> None:
        self._lock = threading.Lock()
        # The first copy of each message, or its Story once it was deleted for good: one map,
        # touched once per message as it is sent and once as it is deleted; a Story holds
        # nothing the garbage collector scans. Later copies (moves) are rare.
        self._first: dict[str, Message | Story] = {}
        self._moves: dict[str, list[tuple[str, Message]]] = {}
        # Who sent each message (its SenderId, shown on the "sent" event): one sender for
        # most tests, so only messages of a different one take an entry.
        self._usual_sender: str | None = None
        self._usual_system: object = None  # the usual sender's shared {"SenderId": ...}
        self._other_senders: dict[str, str] = {}
        self._broker = broker
        broker.sent_listeners.append(self._sent)
        broker.moved_listeners.append(self._moved)
        broker.deleted_listeners.append(self._deleted)
        broker.removed_listeners.append(self._removed)
        self.limit = limit
        self.forgotten = 0  # finished messages dropped to stay within the limit
        self._finished: deque[str] = deque()  # ids in the order they finished, with a limit
        # Injected second deliveries that left without a delete (expired, purged): each is
        # a copy of its message with its own fate, which the message's own story does not tell.
        self._lost_duplicates: list[tuple[str, Message]] = []

    def _sent(self, queue: Queue, messages: list[Message]) -> None:
        first = self._first
        with self._lock:
            for message in messages:
                if first.setdefault(message.message_id, message) is not message:
                    self._moves.setdefault(message.message_id, []).append((queue.name, message))
                    continue
                system = message.system
                if system is self._usual_system:  # most messages: one check, no lookup
                    continue
                sender = None if system is None else system.get("SenderId")
                if sender is None or sender == self._usual_sender:
                    continue
                if self._usual_sender is None:
                    self._usual_sender, self._usual_system = sender, system
                else:
                    self._other_senders[message.message_id] = sender

    def _deleted(self, messages: list[Message]) -> None:
        """A message deleted for good is kept as its Story from now on (one that was moved
        keeps its copies: its first one is not the one deleted)."""
        first = self._first
        with self._lock:
            for message, story in zip(messages, finished_stories(messages), strict=True):
                message_id = message.message_id
                if story is not None and first.get(message_id) is message:
                    first[message_id] = story
                if self.limit is not None:
                    self._finish(message_id)

    def _removed(self, messages: list[Message]) -> None:
        with self._lock:
            for message in messages:
                if message.key != message.message_id:
                    self._lost_duplicates.append((message.queue_name, message))
                if self.limit is not None:
                    self._finish(message.message_id)

    def _finish(self, message_id: str) -> None:
        """Count one more finished message, forgetting the oldest past the limit. Lock held."""
        finished = self._finished
        finished.append(message_id)
        if len(finished) > (self.limit or 0):
            oldest = finished.popleft()
            if self._first.pop(oldest, None) is not None:
                self.forgotten += 1
            self._moves.pop(oldest, None)
            self._other_senders.pop(oldest, None)

    def _moved(self, _source: Queue, target: Queue, message: Message) -> None:
        self._sent(target, [message])

    def _copies(self, message_id: str) -> list[tuple[str, Message | Story]]:
        """Every copy of one message, oldest first, each with the queue it was in."""
        first = self._first.get(message_id)
        if first is None:
            return []
        queue_name = first.queue_name if isinstance(first, Message) else story_queue(first)
        return [(queue_name, first), *self._moves.get(message_id, ())]

    def _latest_copy(self, message_id: str) -> Message | Story:
        moves = self._moves.get(message_id)
        if moves:
            return moves[-1][1]
        return self._first[message_id]

    def knows(self, message_id: str) -> bool:
        return message_id in self._first

    def latest(self, message_id: str) -> tuple[str, Message]:
        """The queue and latest copy of a message that was not deleted (see not_deleted)."""
        with self._lock:
            queue_name, latest = self._copies(message_id)[-1]
        if not isinstance(latest, Message):
            raise LookupError(f"message {message_id!r} was deleted")
        return queue_name, latest

    def message_ids(self) -> list[str]:
        with self._lock:
            return list(self._first)

    def numbers(self) -> dict[str, int]:
        """Each message's place in the order sent, from 1, while none was forgotten (with a
        history_limit, only the ones remembered: then there is no telling)."""
        with self._lock:
            if self.forgotten:
                return {}
            return {message_id: number for number, message_id in enumerate(self._first, 1)}

    def events(self, message_id: str) -> list[HistoryEvent]:
        """The timeline of one message, each event tagged with the queue it happened in."""
        with self._lock:
            copies = self._copies(message_id)
        if not copies:
            forgotten = (
                f" (or it was forgotten: history_limit={self.limit} keeps only the most recently "
                f"finished messages, and {self.forgotten} were forgotten)"
                if self.forgotten
                else ""
            )
            raise LookupError(
                f"no message with id {message_id!r} was sent while the fake was on{forgotten}"
            )
        return self._events(message_id, copies)

    def copy_events(self, queue_name: str, copy: Message) -> list[HistoryEvent]:
        """The timeline of one copy of a message (an injected duplicate), in `queue_name`."""
        return self._events(copy.message_id, [(queue_name, copy)])

    def _events(
        self, message_id: str, copies: list[tuple[str, Message | Story]]
    ) -> list[HistoryEvent]:
        sender = self._other_senders.get(message_id, self._usual_sender)
        events: list[HistoryEvent] = []
        for queue_name, copy in copies:
            timeline = copy.timeline() if isinstance(copy, Message) else story_timeline(copy)
            for at, event, detail in timeline[len(events) :]:
                if event is Event.SENT and not detail and sender is not None:
                    detail = f"by {sender}"
                events.append(
                    HistoryEvent(
                        at=moment(at),
                        event=event.value,
                        detail=detail,
                        queue=queue_name,
                        message_id=message_id,
                        _token=PRIVATE,
                    )
                )
        return events

    def not_deleted(self) -> list[str]:
        """Ids of the messages whose story did not end with a delete, in the order sent."""
        with self._lock:
            latest = [(mid, self._latest_copy(mid)) for mid in self._first]
        return [
            mid
            for mid, message in latest
            if isinstance(message, Message)
            and (message.state is not State.GONE or _last_event(message) is not Event.DELETED)
        ]

    def duplicates_not_deleted(self) -> list[tuple[str, Message]]:
        """Injected second deliveries whose copy was not deleted: gone without a delete, then
        those still waiting in their queue; each with the queue it was in."""
        with self._lock:
            lost = list(self._lost_duplicates)
        waiting: list[tuple[str, Message]] = []
        for queue in self._broker.queues():
            if queue.duplicates:  # only a queue that ever made a copy can hold one
                with queue.lock:
                    waiting += [
                        (queue.name, m) for m in queue.live_messages() if m.key != m.message_id
                    ]
        return lost + waiting


def _last_event(message: Message) -> Event:
    return message.timeline()[-1][1]


def render_timeline(
    events: list[HistoryEvent], *, started_at: float, verbose: bool, limit: int = 6
) -> list[str]:
    """One line per event, times as offsets from the fake's start; the oldest elided if long."""
    if verbose or len(events) <= limit:
        shown, elided = events, 0
    else:  # keep the send, then the most recent events: how it began and how it ended
        shown, elided = [events[0], *events[-(limit - 2) :]], len(events) - limit + 1
    lines = []
    for index, event in enumerate(shown):
        if index == 1 and elided:
            lines.append(f"{'…':>9}  {elided} more events (add -v to show all)")
        detail = f" {event.detail}" if event.detail else ""
        lines.append(
            f"{offset(event.at.timestamp() - started_at):>9}  {event.queue}: {event.event}{detail}"
        )
    return lines


def describe_message(message: Message, queue_name: str, *, verbose: bool, now: float) -> str:
    """`1b9d6bcd in orders: in flight for 25s more, received 2 times, body '{"id": 1}'`."""
    body = abridge(message.body, verbose=verbose)
    return (
        f"{short_id(message.message_id)} in {queue_name}: {_state(message, now)}, "
        f"{_received(message.receive_count)}, body {body}"
    )


def describe_duplicate(message: Message, queue_name: str, *, verbose: bool, now: float) -> str:
    """`1b9d6bcd in orders: injected duplicate, expired, never received, body 'x'`: the
    receives counted are the copy's own, since it was made."""
    timeline = message.timeline()
    made = max(i for i, (_, event, _) in enumerate(timeline) if event is Event.DUPLICATED)
    own = sum(1 for _, event, _ in timeline[made:] if event is Event.RECEIVED)
    body = abridge(message.body, verbose=verbose)
    return (
        f"{short_id(message.message_id)} in {queue_name}: injected duplicate, "
        f"{_state(message, now)}, {_received(own)}, body {body}"
    )


def _state(message: Message, now: float) -> str:
    return {
        State.VISIBLE: "visible",
        State.DELAYED: f"delayed for {message.visible_at - now:g}s more",
        State.IN_FLIGHT: f"in flight for {message.visible_at - now:g}s more",
    }.get(message.state, _last_event(message).value)


def _received(count: int) -> str:
    return {0: "never received", 1: "received once"}.get(count, f"received {count} times")
