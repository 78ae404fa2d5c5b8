"""FIFO message groups: strict order per group, a group blocked while any message is in flight."""

from __future__ import annotations

import heapq
from collections import deque

from .message import Message, State


class Group:
    __slots__ = ("group_id", "in_flight", "messages")

    def __init__(self, group_id: str) -> None:
        self.group_id = group_id
        self.messages: deque[Message] = deque()
        self.in_flight = 0

    def head(self) -> Message | None:
        # Removed messages are dropped lazily from the front.
        messages = self.messages
        while messages and messages[0].state is State.GONE:
            messages.popleft()
        return messages[0] if messages else None

    def available(self) -> bool:
        head = self.head()
        return self.in_flight == 0 and head is not None and head.state is State.VISIBLE


class GroupIndex:
    """Groups with a ready-heap keyed by their head's arrival sequence (oldest group first)."""

    __slots__ = ("groups", "ready")

    def __init__(self) -> None:
        self.groups: dict[str, Group] = {}
        self.ready: list[tuple[int, str]] = []

    def add(self, message: Message) -> None:
        group_id = message.group_id or ""
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = Group(group_id)
        group.messages.append(message)
        self.offer(group)

    def offer(self, group: Group) -> None:
        """Push the group if it can be received from now; duplicates are skipped on pop."""
        if group.available():
            head = group.head()
            assert head is not None
            heapq.heappush(self.ready, (head.sequence, group.group_id))

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
        while self.ready:
            sequence, group_id = heapq.heappop(self.ready)
            group = self.groups.get(group_id)
            if group is None or not group.available():
                continue
            head = group.head()
            if head is not None and head.sequence == sequence:
                return group
        return None

    def clear(self) -> None:
        self.groups.clear()
        self.ready.clear()
