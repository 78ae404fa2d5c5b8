"""A small, obviously-correct model of a queue, for the stateful tests to compare against.

No heaps, no indexes: every question is answered by scanning a list of live messages. Slow on
purpose; it only has to be right. The rules it encodes (DESIGN.md, engine/fifo.py):
- standard: receive the visible messages in the order they were sent, except that a message
  received three times (in this queue) without a delete goes to the back each time it is
  visible again; any handle a message was given deletes it, and changes its visibility while it
  is in flight (AWS: older handles still work on standard queues);
- FIFO: groups take turns round-robin; a group is open while its first live message is
  visible; a receive takes the visible run at its front; a served group queues up again, at
  the back, when it is open again;
- time-based transitions happen in time order: visibility ends (by moment, then arrival), then
  retention expiries (by enqueue time, then arrival).
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
    state: State = State.VISIBLE
    handle: str | None = None  # the current receipt handle while in flight
    handles: set[str] = field(default_factory=set)  # every receipt handle ever issued
    received_at: float = 0.0
    receive_count: int = 0
    receives_here: int = 0  # receives in its current queue
    rank: int = 0  # place in a standard queue's receive order


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
    turns: dict[str | None, int | None] = field(default_factory=dict)  # FIFO group -> turn
    next_sequence: int = 0
    next_turn: int = 0

    # -- time ------------------------------------------------------------------------------

    def apply_due(self, now: float) -> None:
        due = [m for m in self.messages if m.state is not State.VISIBLE and m.visible_at <= now]
        for message in sorted(due, key=lambda m: (m.visible_at, m.sequence)):
            message.state = State.VISIBLE
            message.handle = None
            self._maybe_move_back(message)
            self._settle(message.group)
        expired = [m for m in self.messages if m.enqueued_at + self.retention <= now]
        for message in sorted(expired, key=lambda m: (m.enqueued_at, m.sequence)):
            self._remove(message)

    def by_state(self, now: float) -> dict[State, list[str]]:
        self.apply_due(now)
        result: dict[State, list[str]] = {state: [] for state in State}
        for message in self.messages:
            result[message.state].append(message.body)
        return result

    # -- FIFO groups -----------------------------------------------------------------------

    def _group(self, group: str | None) -> list[ModelMessage]:
        return [m for m in self.messages if m.group == group]

    def _open(self, group: str | None) -> bool:
        members = self._group(group)
        return bool(members) and members[0].state is State.VISIBLE

    def _settle(self, group: str | None) -> None:
        if not self.fifo or group not in self.turns:
            return
        if not self._group(group):
            del self.turns[group]
        elif self._open(group) and self.turns[group] is None:
            self.turns[group] = self._take_turn()

    def _take_turn(self) -> int:
        self.next_turn += 1
        return self.next_turn

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
        self.apply_due(now)
        if dedup is not None:
            known = self.dedup.get(dedup)
            if known is not None and known[1] > now:
                return known[0]
            self.dedup[dedup] = (body, now + DEDUP_WINDOW)
        state = State.DELAYED if delay > 0 else State.VISIBLE
        self._append(ModelMessage(body, 0, group, now, now + delay, state))
        return body

    def _maybe_move_back(self, message: ModelMessage) -> None:
        if not self.fifo and message.receives_here >= 3:
            message.rank = self.next_sequence
            self.next_sequence += 1

    def _append(self, message: ModelMessage) -> None:
        message.sequence = message.rank = self.next_sequence
        self.next_sequence += 1
        self.messages.append(message)
        if self.fifo and message.group not in self.turns:
            self.turns[message.group] = self._take_turn()
        self._settle(message.group)

    def _remove(self, message: ModelMessage) -> None:
        self.messages.remove(message)
        self._settle(message.group)

    def receive(
        self, max_messages: int, visibility: float, now: float
    ) -> tuple[list[ModelMessage], list[ModelMessage]]:
        """(delivered, moved to the dead-letter queue), in the order the engine must use."""
        self.apply_due(now)
        delivered: list[ModelMessage] = []
        moved: list[ModelMessage] = []
        if not self.fifo:
            visible = [m for m in self.messages if m.state is State.VISIBLE]
            for message in sorted(visible, key=lambda m: m.rank):
                if len(delivered) >= max_messages:
                    break
                self._take(message, visibility, now, delivered, moved)
        while self.fifo and len(delivered) < max_messages:
            waiting = [g for g, turn in self.turns.items() if turn is not None and self._open(g)]
            if not waiting:
                break
            group = min(waiting, key=lambda g: self.turns[g] or 0)
            self.turns[group] = None
            run: list[ModelMessage] = []
            for message in self._group(group):
                if len(run) >= max_messages - len(delivered):
                    break
                if message.state is not State.VISIBLE:
                    break
                run.append(message)
            for message in run:
                self._take(message, visibility, now, delivered, moved)
            self._settle(group)
        for message in moved:
            assert self.dead_letter is not None
            self.dead_letter.apply_due(now)
            enqueued_at = now if self.fifo else message.enqueued_at
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
        return delivered, moved

    def _take(
        self,
        message: ModelMessage,
        visibility: float,
        now: float,
        delivered: list[ModelMessage],
        moved: list[ModelMessage],
    ) -> None:
        if self.dead_letter is not None and message.receive_count >= self.max_receive_count:
            self.messages.remove(message)  # the group is settled once its run is over
            moved.append(message)
            return
        message.state = State.IN_FLIGHT
        message.receive_count += 1
        message.receives_here += 1
        message.received_at = now
        message.visible_at = now + visibility
        message.handle = None  # the caller records the engine's handle with `delivered_as`
        delivered.append(message)

    def delivered_as(self, message: ModelMessage, handle: str) -> None:
        message.handle = handle
        message.handles.add(handle)

    def _holder(self, handle: str, now: float) -> ModelMessage:
        self.apply_due(now)
        for message in self.messages:
            if message.handle == handle and message.state is State.IN_FLIGHT:
                return message
            if not self.fifo and handle in message.handles and message.state is State.IN_FLIGHT:
                return message
        raise Refused("stale")

    def delete(self, handle: str, now: float) -> str:
        try:
            message = self._holder(handle, now)
        except Refused:
            # A standard queue also takes any older handle of a message not in flight.
            named = [m for m in self.messages if handle in m.handles]
            if self.fifo or not named:
                raise
            message = named[0]
        self._remove(message)
        return message.body

    def change_visibility(self, handle: str, timeout: float, now: float) -> str:
        message = self._holder(handle, now)
        if now + timeout - message.received_at > MAX_VISIBILITY:
            raise Refused("limit")
        message.visible_at = now + timeout
        if timeout <= 0:
            message.state = State.VISIBLE
            message.handle = None
            self._maybe_move_back(message)
            self._settle(message.group)
        return message.body

    def purge(self, now: float) -> list[str]:
        self.apply_due(now)
        removed = [m.body for m in self.messages]
        self.messages = []
        self.dedup.clear()  # a purge forgets deduplication ids too
        self.turns.clear()
        return removed
