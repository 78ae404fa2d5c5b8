"""Backlog alerts for a game server's match queue: warn, then page, on the age of the oldest
message (how long a player has waited), reporting count and bytes alongside.

In production the snapshot comes from CloudWatch (ApproximateAgeOfOldestMessage,
ApproximateNumberOfMessagesVisible, ...); in tests from `fakesqs.queue(name).backlog()`,
which has the same three numbers and moves with the virtual clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Snapshot(Protocol):
    @property
    def count(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def oldest_age(self) -> float: ...


@dataclass(frozen=True)
class Thresholds:
    warn_after: float = 60.0  # seconds the oldest message may wait before we warn
    page_after: float = 300.0  # ... before someone is woken up


@dataclass(frozen=True)
class Alert:
    level: str  # "ok" | "warn" | "page"
    text: str


def evaluate(queue: str, snapshot: Snapshot, thresholds: Thresholds = Thresholds()) -> Alert:
    age = snapshot.oldest_age
    if age >= thresholds.page_after:
        level = "page"
    elif age >= thresholds.warn_after:
        level = "warn"
    else:
        level = "ok"
    text = f"{queue}: {snapshot.count} messages, {snapshot.bytes} bytes, oldest waiting {age:.0f}s"
    return Alert(level, text)
