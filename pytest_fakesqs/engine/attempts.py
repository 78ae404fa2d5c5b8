"""FIFO ReceiveRequestAttemptId: receives remembered for 5 minutes so a retry can replay them."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .message import State
from .settings import DEDUP_WINDOW

if TYPE_CHECKING:
    from .results import Delivery


@dataclass(slots=True)
class ReceiveAttempt:
    expires_at: float
    deliveries: list[Delivery]
    generations: list[int]  # each message's generation when delivered: changed means modified


class ReceiveAttempts:
    """Attempt id -> the receive it named; expiry is heap-driven like every other deadline."""

    __slots__ = ("_attempts", "_expiry")

    def __init__(self) -> None:
        self._attempts: dict[str, ReceiveAttempt] = {}
        self._expiry: list[tuple[float, str]] = []

    def expire(self, now: float) -> None:
        expiry = self._expiry
        while expiry and expiry[0][0] <= now:
            _expires_at, attempt_id = heapq.heappop(expiry)
            attempt = self._attempts.get(attempt_id)
            if attempt is not None and attempt.expires_at <= now:
                del self._attempts[attempt_id]

    def remember(self, attempt_id: str, deliveries: list[Delivery], now: float) -> None:
        expires_at = now + DEDUP_WINDOW  # usable for 5 minutes after the first receive
        generations = [delivery.message.generation for delivery in deliveries]
        self._attempts[attempt_id] = ReceiveAttempt(expires_at, list(deliveries), generations)
        heapq.heappush(self._expiry, (expires_at, attempt_id))

    def unmodified(self, attempt_id: str, now: float) -> ReceiveAttempt | None:
        """The attempt, if it is still valid and none of its messages was deleted, had its
        visibility changed or expired since; a modified attempt is forgotten."""
        attempt = self._attempts.get(attempt_id)
        if attempt is None or attempt.expires_at <= now:
            return None
        for delivery, generation in zip(attempt.deliveries, attempt.generations, strict=True):
            message = delivery.message
            if (
                message.state is not State.IN_FLIGHT
                or message.receipt_handle != delivery.receipt_handle
                or message.generation != generation
            ):
                del self._attempts[attempt_id]
                return None
        return attempt

    def next_expiry_at(self) -> float | None:
        """When the next remembered attempt is forgotten (entries renewed since are skipped)."""
        expiry = self._expiry
        while expiry:
            expires_at, attempt_id = expiry[0]
            attempt = self._attempts.get(attempt_id)
            if attempt is not None and attempt.expires_at == expires_at:
                return expires_at
            heapq.heappop(expiry)
        return None

    def clear(self) -> None:
        self._attempts.clear()
        self._expiry.clear()
