"""FIFO deduplication: ids remembered for 5 minutes, even after their message is deleted."""

from __future__ import annotations

import heapq

from .message import Message
from .settings import DEDUP_WINDOW

DedupKey = tuple[str | None, str]  # (group id when scoped per message group, dedup id)


class DedupWindow:
    """Dedup id -> the message first sent with it; expiry is heap-driven."""

    __slots__ = ("_entries", "_expiry")

    def __init__(self) -> None:
        self._entries: dict[DedupKey, tuple[Message, float]] = {}
        self._expiry: list[tuple[float, DedupKey]] = []

    def find(self, key: DedupKey, now: float) -> Message | None:
        entry = self._entries.get(key)
        return entry[0] if entry is not None and entry[1] > now else None

    def remember(self, key: DedupKey, message: Message, now: float) -> None:
        self._entries[key] = (message, now + DEDUP_WINDOW)
        heapq.heappush(self._expiry, (now + DEDUP_WINDOW, key))

    def expire(self, now: float) -> None:
        expiry = self._expiry
        while expiry and expiry[0][0] <= now:
            _expires_at, key = heapq.heappop(expiry)
            entry = self._entries.get(key)
            if entry is not None and entry[1] <= now:
                del self._entries[key]

    def next_expiry_at(self) -> float | None:
        """When the next remembered id is forgotten (entries renewed since are skipped)."""
        expiry = self._expiry
        while expiry:
            expires_at, key = expiry[0]
            entry = self._entries.get(key)
            if entry is not None and entry[1] == expires_at:
                return expires_at
            heapq.heappop(expiry)
        return None

    def live(self, now: float) -> list[tuple[DedupKey, Message, float]]:
        """Every id still remembered at `now`: (key, its message, when it is forgotten)."""
        return [(key, m, until) for key, (m, until) in self._entries.items() if until > now]

    def clear(self) -> None:
        self._entries.clear()
        self._expiry.clear()
