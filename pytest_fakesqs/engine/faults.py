"""Misbehaviour SQS is allowed: duplicate delivery, unordered standard queues, empty receives.

All randomness comes from one seeded generator, so the same seed gives the same deliveries.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .message import Message
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

    # -- the engine's questions (engine.injected.FaultDecisions) --------------------------------

    def reorders(self, queue: QueueKey) -> bool:
        return self.standard_order == "shuffled"

    def reorder(self, queue: QueueKey, window: list[Message]) -> None:
        with self._lock:
            self.random.shuffle(window)
        window.reverse()  # handed out from the end of the shuffle, as the fake always has

    def copy_delay(self, queue: QueueKey, message: Message) -> float | None:
        """Forced duplicates first (duplicate_next), then duplicate_delivery's probability;
        a copy is visible at once."""
        with self._lock:
            forced = self.forced_duplicates.get(queue, 0)
            if forced:
                if forced == 1:
                    del self.forced_duplicates[queue]
                else:
                    self.forced_duplicates[queue] = forced - 1
                return 0.0
            if self.duplicate_delivery and self.random.random() < self.duplicate_delivery:
                return 0.0
            return None

    def empty_receive(self, queue: QueueKey) -> bool:
        if not self.empty_receives:
            return False
        with self._lock:
            return self.random.random() < self.empty_receives

    def notify(self, kind: str, queue_name: str, message_id: str | None, detail: str) -> None:
        for listener in self.listeners:
            listener(kind, queue_name, message_id, detail)
