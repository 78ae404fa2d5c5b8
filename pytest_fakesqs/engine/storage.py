"""Slot array with tombstones and the id / receipt-handle indexes (DESIGN.md, "The engine")."""

from __future__ import annotations

from collections.abc import Iterator

from .message import Message

COMPACT_MIN_DEAD = 1024


class SlotStore:
    """Messages in arrival order. Removal leaves a tombstone in O(1); compaction is amortised."""

    __slots__ = ("by_handle", "by_id", "compactions", "dead", "slots")

    def __init__(self) -> None:
        self.slots: list[Message | None] = []
        self.dead = 0
        self.by_id: dict[
            str, Message
        ] = {}  # live messages by key (the MessageId, or a duplicate's)
        self.by_handle: dict[str, Message] = {}  # in-flight messages only
        self.compactions = 0

    def __len__(self) -> int:
        return len(self.by_id)

    def add(self, message: Message) -> None:
        message.slot = len(self.slots)
        self.slots.append(message)
        self.by_id[message.key] = message

    def add_all(self, messages: list[Message]) -> None:
        slots, by_id = self.slots, self.by_id
        for message in messages:
            message.slot = len(slots)
            slots.append(message)
            by_id[message.key] = message

    def remove(self, message: Message) -> None:
        self.slots[message.slot] = None
        self.dead += 1
        del self.by_id[message.key]
        if message.receipt_handle is not None:
            self.by_handle.pop(message.receipt_handle, None)
        live = len(self.by_id)
        if self.dead > COMPACT_MIN_DEAD and self.dead > live:
            self._compact()

    def remove_in_flight(self, handles: list[str], messages: list[Message]) -> None:
        """remove() for each of `messages`, all in flight under their current `handles`."""
        slots, by_id, by_handle = self.slots, self.by_id, self.by_handle
        for message in messages:
            slots[message.slot] = None
            del by_id[message.key]
        for handle in handles:
            del by_handle[handle]
        self.dead += len(messages)
        if self.dead > COMPACT_MIN_DEAD and self.dead > len(by_id):
            self._compact()

    def _compact(self) -> None:
        # Order is preserved and every message learns its new slot, so indexes stay valid.
        survivors: list[Message | None] = [m for m in self.slots if m is not None]
        for index, message in enumerate(survivors):
            assert message is not None
            message.slot = index
        self.slots = survivors
        self.dead = 0
        self.compactions += 1

    def clear(self) -> list[Message]:
        live = [m for m in self.slots if m is not None]
        self.slots = []
        self.dead = 0
        self.by_id.clear()
        self.by_handle.clear()
        return live

    def __iter__(self) -> Iterator[Message]:
        return (m for m in self.slots if m is not None)
