"""A small, obviously-correct model of a queue, for the stateful tests to compare against.

No heaps, no indexes, no laziness: every question is answered by scanning a list of live
messages against the current time. Slow on purpose; it only has to be right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_fakesqs.engine import DEDUP_WINDOW, MAX_VISIBILITY, State


@dataclass
class ModelMessage:
    body: str
    sequence: int  # arrival order in its current queue
    group: str | None
    enqueued_at: float
    visible_at: float  # when it becomes (or became) receivable
    handle: str | None = None  # the latest receipt handle, meaningful only while in flight
    received_at: float = 0.0
    receive_count: int = 0


class Refused(Exception):
    """The model's way of saying the engine must raise; `kind` names the engine error."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class ModelQueue:
    fifo: bool
    retention: float
    dead_letter: ModelQueue | None = None
    max_receive_count: int = 0
    messages: list[ModelMessage] = field(default_factory=list)  # live, in arrival order
    dedup: dict[str, tuple[str, float]] = field(default_factory=dict)  # id -> (body, until)
    next_sequence: int = 0

    # -- what a message is, now ------------------------------------------------------------

    def in_flight(self, message: ModelMessage, now: float) -> bool:
        return message.handle is not None and now < message.visible_at

    def state(self, message: ModelMessage, now: float) -> State:
        if now >= message.visible_at:
            return State.VISIBLE
        return State.IN_FLIGHT if message.handle is not None else State.DELAYED

    def live(self, now: float) -> list[ModelMessage]:
        """Drop what retention expired, then the live messages in arrival order."""
        self.messages = [m for m in self.messages if now < m.enqueued_at + self.retention]
        return self.messages

    def by_state(self, now: float) -> dict[State, list[str]]:
        result: dict[State, list[str]] = {state: [] for state in State}
        for message in self.live(now):
            result[self.state(message, now)].append(message.body)
        return result

    # -- operations ------------------------------------------------------------------------

    def send(
        self,
        body: str,
        now: float,
        *,
        delay: float = 0.0,
        group: str | None = None,
        dedup: str | None = None,
    ) -> str:
        """Returns the body of the message that is (or already was) queued."""
        self.live(now)
        if dedup is not None:
            known = self.dedup.get(dedup)
            if known is not None and known[1] > now:
                return known[0]
            self.dedup[dedup] = (body, now + DEDUP_WINDOW)
        self._append(ModelMessage(body, 0, group, now, now + delay))
        return body

    def _append(self, message: ModelMessage) -> None:
        message.sequence = self.next_sequence
        self.next_sequence += 1
        self.messages.append(message)

    def receive(
        self, max_messages: int, visibility: float, now: float
    ) -> tuple[list[ModelMessage], list[ModelMessage]]:
        """(delivered, moved to the dead-letter queue), in the order the engine must use."""
        live = self.live(now)
        delivered: list[ModelMessage] = []
        moved: list[ModelMessage] = []
        if self.fifo:
            candidates = self._fifo_candidates(live, now, max_messages)
        else:
            visible = [m for m in live if self.state(m, now) is State.VISIBLE]
            candidates = sorted(visible, key=lambda m: (m.visible_at, m.sequence))
        for message in candidates:
            if len(delivered) >= max_messages:
                break
            if self.dead_letter is not None and message.receive_count >= self.max_receive_count:
                moved.append(message)
                continue
            delivered.append(message)
        for message in moved:
            self.messages.remove(message)
            assert self.dead_letter is not None
            enqueued_at = now if self.fifo else message.enqueued_at
            self.dead_letter.live(now)
            self.dead_letter._append(
                ModelMessage(
                    message.body,
                    0,
                    message.group,
                    enqueued_at,
                    now,
                    receive_count=message.receive_count,
                )
            )
        for message in delivered:
            message.receive_count += 1
            message.received_at = now
            message.visible_at = now + visibility
            message.handle = None  # the caller records the engine's handle
        return delivered, moved

    def _fifo_candidates(
        self, live: list[ModelMessage], now: float, max_messages: int
    ) -> list[ModelMessage]:
        """Whole runs of visible messages from unblocked groups, oldest group head first."""
        groups: dict[str | None, list[ModelMessage]] = {}
        for message in live:
            groups.setdefault(message.group, []).append(message)
        open_groups = [
            messages
            for messages in groups.values()
            if not any(self.in_flight(m, now) for m in messages)
            and self.state(messages[0], now) is State.VISIBLE
        ]
        open_groups.sort(key=lambda messages: messages[0].sequence)
        candidates: list[ModelMessage] = []
        takeable = 0  # messages that will really be delivered, not moved
        for messages in open_groups:
            for message in messages:
                if takeable >= max_messages or self.state(message, now) is not State.VISIBLE:
                    break
                candidates.append(message)
                if not (
                    self.dead_letter is not None and message.receive_count >= self.max_receive_count
                ):
                    takeable += 1
            if takeable >= max_messages:
                break
        return candidates

    def _holder(self, handle: str, now: float) -> ModelMessage:
        for message in self.live(now):
            if message.handle == handle and self.in_flight(message, now):
                return message
        raise Refused("stale")

    def delete(self, handle: str, now: float) -> str:
        message = self._holder(handle, now)
        self.messages.remove(message)
        return message.body

    def change_visibility(self, handle: str, timeout: float, now: float) -> str:
        message = self._holder(handle, now)
        if now + timeout - message.received_at > MAX_VISIBILITY:
            raise Refused("limit")
        message.visible_at = now + timeout
        if timeout <= 0:
            message.handle = None
        return message.body

    def purge(self, now: float) -> list[str]:
        removed = [m.body for m in self.live(now)]
        self.messages = []
        return removed
