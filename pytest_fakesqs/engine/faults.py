"""Misbehaviour SQS is allowed: duplicate delivery, unordered standard queues, empty receives.

All randomness comes from one seeded generator, so the same seed gives the same deliveries.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .settings import QueueKey

StandardOrder = Literal["fifo", "shuffled"]
# (fault kind, queue name, message id or None, detail) -> None
FaultListener = Callable[[str, str, str | None, str], None]


@dataclass
class FaultPlan:
    seed: int
    duplicate_delivery: float = 0.0
    standard_order: StandardOrder = "fifo"
    empty_receives: float = 0.0
    forced_duplicates: dict[QueueKey, int] = field(default_factory=dict)
    listeners: list[FaultListener] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("duplicate_delivery", "empty_receives"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"{name} must be a probability between 0 and 1; got {value!r}")
        if self.standard_order not in ("fifo", "shuffled"):
            raise ValueError(
                f"standard_order must be 'fifo' or 'shuffled'; got {self.standard_order!r}"
            )
        self.random = random.Random(self.seed)
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return bool(
            self.duplicate_delivery
            or self.empty_receives
            or self.standard_order == "shuffled"
            or self.forced_duplicates
        )

    def duplicate(self, key: QueueKey) -> bool:
        """Should this delivery from a standard queue be delivered once more later?"""
        with self._lock:
            forced = self.forced_duplicates.get(key, 0)
            if forced:
                if forced == 1:
                    del self.forced_duplicates[key]
                else:
                    self.forced_duplicates[key] = forced - 1
                return True
            return bool(self.duplicate_delivery) and self.random.random() < self.duplicate_delivery

    def empty(self) -> bool:
        """Should this short-poll receive come back empty although messages are available?"""
        if not self.empty_receives:
            return False
        with self._lock:
            return self.random.random() < self.empty_receives

    def shuffle(self, items: list[object]) -> None:
        with self._lock:
            self.random.shuffle(items)

    def notify(self, kind: str, queue_name: str, message_id: str | None, detail: str) -> None:
        for listener in self.listeners:
            listener(kind, queue_name, message_id, detail)
