"""FIFO message groups: strict order per group, a group blocked while its head is in flight.

AWS rules this module models (recorded in aws-recorded/sqs.snapshot.json):
- a receive takes, from the front of one group, the run of visible messages, and stops at the
  first message that is not visible (so an extended message blocks the ones behind it, while an
  earlier message made visible again is returned although later ones are still in flight);
- groups are served round-robin: a group that was received from goes to the back of the line
  when it becomes available again, behind groups that were waiting all along.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque

from .message import GONE, VISIBLE, Message


class Group:
    __slots__ = ("group_id", "in_flight", "messages", "turn")

    def __init__(self, group_id: str, turn: int) -> None:
        self.group_id = group_id
        self.messages: deque[Message] = deque()
        self.in_flight = 0
        # Place in the round-robin line; None once served, until it is offered again.
        self.turn: int | None = turn

    def head(self) -> Message | None:
        # Removed messages are dropped lazily from the front.
        messages = self.messages
        while messages and messages[0].state is GONE:
            messages.popleft()
        return messages[0] if messages else None

    def available(self) -> bool:
        head = self.head()
        return head is not None and head.state is VISIBLE

    def receivable(self, limit: int) -> list[Message]:
        """Up to `limit` messages of the visible run at the front (removed ones skipped)."""
        run: list[Message] = []
        for message in self.messages:
            if len(run) >= limit:
                break
            if message.state is GONE:
                continue
            if message.state is not VISIBLE:
                break
            run.append(message)
        return run


class GroupIndex:
    """Groups with a ready-heap keyed by their turn in the round-robin line."""

    __slots__ = ("_turns", "groups", "ready")

    def __init__(self) -> None:
        self.groups: dict[str, Group] = {}
        self.ready: list[tuple[int, str]] = []
        self._turns = itertools.count(1)

    def add(self, message: Message) -> None:
        group_id = message.group_id or ""
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = Group(group_id, next(self._turns))
        group.messages.append(message)
        self.offer(group)

    def offer(self, group: Group) -> None:
        """Push the group if it can be received from now; stale entries are skipped on pop."""
        if group.available():
            if group.turn is None:
                group.turn = next(self._turns)
            heapq.heappush(self.ready, (group.turn, group.group_id))

    def settle(self, message: Message) -> None:
        """After `message` changed state: forget empty groups, re-offer available ones."""
        group = self.groups.get(message.group_id or "")
        if group is not None:
            self.settle_group(group)

    def settle_group(self, group: Group) -> None:
        if group.head() is None and group.in_flight == 0:
            self.groups.pop(group.group_id, None)
        else:
            self.offer(group)

    def pop_available(self) -> Group | None:
        """The group whose turn it is; it goes to the back of the line once served."""
        while self.ready:
            turn, group_id = heapq.heappop(self.ready)
            group = self.groups.get(group_id)
            if group is None or group.turn != turn or not group.available():
                continue
            group.turn = None
            return group
        return None

    def peek_available(self) -> Group | None:
        """The group whose turn it is, left in its place (stale entries are dropped)."""
        while self.ready:
            turn, group_id = self.ready[0]
            group = self.groups.get(group_id)
            if group is not None and group.turn == turn and group.available():
                return group
            heapq.heappop(self.ready)
        return None

    def clear(self) -> None:
        self.groups.clear()
        self.ready.clear()
