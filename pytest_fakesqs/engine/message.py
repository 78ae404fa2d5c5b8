"""A message as the engine stores it: one small slotted object per message."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from typing import Any


class State(enum.IntEnum):
    DELAYED = 0
    VISIBLE = 1
    IN_FLIGHT = 2
    GONE = 3  # deleted, expired, purged or moved to a dead-letter queue


# Reading an enum member off its class goes through the enum's metaclass, about 50 ns on Python
# 3.11: hot paths read these module-level names instead (a cached global, a few ns).
DELAYED, VISIBLE, IN_FLIGHT, GONE = State.DELAYED, State.VISIBLE, State.IN_FLIGHT, State.GONE


class Event(enum.Enum):
    """What can happen to a message; the history records these on the virtual clock."""

    SENT = "sent"
    DELAY_ENDED = "delay ended"
    RECEIVED = "received"
    VISIBILITY_CHANGED = "visibility changed"
    VISIBLE_AGAIN = "visible again"
    MOVED_TO_DLQ = "moved to dead-letter queue"
    ARRIVED_FROM = "arrived from"
    MOVED_BACK = "moved back"
    DELETED = "deleted"
    EXPIRED = "expired"
    PURGED = "purged"
    QUEUE_DELETED = "queue deleted"
    DUPLICATED = "duplicated"
    INJECTED_ERROR = "injected error"


# (moment, event, detail): detail is a short human string, e.g. the receipt handle's tail.
HistoryEntry = tuple[float, Event, str]
_EVENTS = {event.value: event for event in Event}
_DELETED = Event.DELETED.value
# A history is stored flat, in one tuple: (queue name, sent_at, moment, event value, detail,
# moment, ...); the queue is the one the message was first in (a move copies the history).
# Holding only floats and strings, it is one object the garbage collector scans once and then
# stops tracking, where a list of entries would be several objects, each scanned on every full
# collection, for every message ever sent. Past this length a history becomes a list instead,
# so a message changed thousands of times does not copy its history on every change.
_FLAT_LIMIT = 3 * 16 + 2
# A message deleted for good, as plain data: its history as stored, sealed as a tuple (so it
# starts with the name of the queue the message was sent to).
Story = tuple[Any, ...]


# A receive is stored with its count's code and the handle's tail, and its "#2 handle …1a2b3c4d"
# detail is written only when the history is read: receives are the most frequent event.
_RECEIVED = "received#"
_RECEIVED_CODES = tuple(f"{_RECEIVED}{count}" for count in range(1001))


def story_queue(story: Story) -> str:
    """The name of the queue a finished message was sent to."""
    name: str = story[0]
    return name


def story_timeline(story: Story) -> list[HistoryEntry]:
    """The full history of a finished message, from its Story."""
    return [(story[1], Event.SENT, ""), *_restored(story)]


def _restored(log: Sequence[Any]) -> Iterator[HistoryEntry]:
    """A stored history's entries after the send, with their events as Event members again."""
    for i in range(2, len(log) - 2, 3):
        value, detail = log[i + 1], log[i + 2]
        if value.startswith(_RECEIVED):
            yield log[i], Event.RECEIVED, f"#{value[len(_RECEIVED) :]} handle …{detail}"
        else:
            yield log[i], _EVENTS[value], detail


class Message:
    """One message in one queue. Timestamps are epoch seconds on the fake's clock."""

    __slots__ = (
        "_log",
        "attributes",
        "body",
        "body_digest",
        "dedup_id",
        "duplicated",
        "enqueued_at",
        "first_received_at",
        "generation",
        "group_id",
        "key",
        "message_id",
        "queue_name",
        "rank",
        "receipt_handle",
        "receive_count",
        "received_at",
        "receives_here",
        "sent_at",
        "sequence",
        "sequence_number",
        "size",
        "slot",
        "state",
        "system",
        "visible_at",
    )

    def __init__(
        self,
        message_id: str,
        body: str,
        sent_at: float,
        size: int,
        attributes: Any = None,
        system: dict[str, Any] | None = None,
        group_id: str | None = None,
        dedup_id: str | None = None,
        body_digest: str | None = None,
    ) -> None:
        self.message_id = message_id
        self.key = message_id  # storage identity; an injected duplicate gets its own
        self.duplicated = False  # an injected second delivery exists (or this is it)
        self.body = body
        self.body_digest = body_digest  # computed by the api once, at send
        # Message attributes in the api layer's own form; the engine only stores them.
        self.attributes = attributes
        # Rare system attributes (AWSTraceHeader, DeadLetterQueueSourceArn, SenderId...).
        self.system = system
        self.group_id = group_id
        self.dedup_id = dedup_id
        self.size = size
        self.sent_at = sent_at
        self.enqueued_at = sent_at
        self.visible_at = sent_at
        self.first_received_at: float | None = None
        self.receive_count = 0
        self.received_at = sent_at  # the latest receive, for the 12-hour visibility cap
        self.receipt_handle: str | None = None
        # Receives in the queue this copy is in (ApproximateReceiveCount carries over a move).
        self.receives_here = 0
        self.state = VISIBLE
        self.generation = 0  # bumped on every transition, so stale heap entries are recognised
        self.sequence = 0  # queue-local arrival order
        # Place in a standard queue's receive order: its sequence, or a later one once it has
        # moved to the back (received three times without a delete).
        self.rank = 0
        self.sequence_number: str | None = None  # FIFO's public SequenceNumber
        self.slot = -1
        self.queue_name = ""  # the queue this copy is in, set as it enters one
        # The flat history (see _FLAT_LIMIT), created on the first event after "sent".
        self._log: tuple[Any, ...] | list[Any] | None = None

    def record(self, moment: float, event: Event, detail: str = "") -> None:
        self._append(moment, event._value_, detail)  # _value_: a plain attribute, no descriptor

    def record_receive(self, moment: float, handle: str) -> None:
        """Record this receive, numbered by the receive count, with the handle's tail."""
        count = self.receive_count
        if count < len(_RECEIVED_CODES):
            value, detail = _RECEIVED_CODES[count], handle[-8:]
        else:
            value, detail = Event.RECEIVED._value_, f"#{count} handle …{handle[-8:]}"
        if self._log is None:  # the usual first receive: _append's first case, without a call
            self._log = (self.queue_name, self.sent_at, moment, value, detail)
        else:
            self._append(moment, value, detail)

    def _append(self, moment: float, value: str, detail: str) -> None:
        log = self._log
        if log is None:
            self._log = (self.queue_name, self.sent_at, moment, value, detail)
        elif isinstance(log, tuple):
            if len(log) < _FLAT_LIMIT:
                self._log = log + (moment, value, detail)  # noqa: RUF005 - see record_last_of_each
            else:
                self._log = [*log, moment, value, detail]
        else:
            log += (moment, value, detail)

    def record_last(self, moment: float, event: Event, detail: str = "") -> None:
        """Record the event that takes the message out of its queue; the history is final
        from here (a move records on the copy), so it is sealed as a tuple."""
        record_last_of_each([self], moment, event, detail)

    @property
    def history(self) -> list[HistoryEntry]:
        """Every event after the send, oldest first."""
        return list(_restored(self._log or ()))

    def copy(self) -> Message:
        """The same message, fresh for another slot or queue: content, ids and history so far."""
        copy = Message(
            self.message_id,
            self.body,
            sent_at=self.sent_at,
            size=self.size,
            attributes=self.attributes,
            system=None if self.system is None else dict(self.system),
            group_id=self.group_id,
            dedup_id=self.dedup_id,
            body_digest=self.body_digest,
        )
        copy.queue_name = self.queue_name  # until the copy enters its own queue
        log = self._log  # a tuple is shared: nothing changes it in place
        copy._log = list(log) if type(log) is list else log
        return copy

    def timeline(self) -> list[HistoryEntry]:
        """The full history, including the send that is implied by sent_at."""
        return [(self.sent_at, Event.SENT, ""), *_restored(self._log or ())]

    def __repr__(self) -> str:
        return (
            f"Message(id={self.message_id!r}, state={self.state.name}, "
            f"receive_count={self.receive_count}, body={self.body[:40]!r})"
        )


def record_last_of_each(
    messages: list[Message], moment: float, event: Event, detail: str = ""
) -> None:
    """Message.record_last() of each, in one call: a delete batch's ten pay one call."""
    value = event._value_
    for message in messages:
        log = message._log
        if type(log) is tuple:
            # Concatenating makes one tuple; (*log, ...) would build a list first.
            message._log = log + (moment, value, detail)  # noqa: RUF005
        elif log is None:
            message._log = (message.queue_name, message.sent_at, moment, value, detail)
        else:
            message._log = (*log, moment, value, detail)


def finished_stories(messages: list[Message]) -> list[Story | None]:
    """The Story of each message that was deleted, so nothing can happen to it any more (a move
    or a duplicate happens to a live message, and records on its copy); None for any other."""
    return [
        log if m.state is GONE and type(log := m._log) is tuple and log[-2] == _DELETED else None
        for m in messages
    ]
