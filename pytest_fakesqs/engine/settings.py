"""What the engine needs to know about a queue's configuration (the api owns the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

QueueKey = tuple[str, str, str]  # (region, account_id, queue name)

DEDUP_WINDOW = 300.0  # FIFO deduplication interval and ReceiveRequestAttemptId lifetime
MAX_VISIBILITY = 43200.0  # a message may stay in flight at most 12 h after its receive
# Received this often without a delete, a standard queue's message moves to the back, and the
# oldest age (CloudWatch's ApproximateAgeOfOldestMessage) skips it [SQS developer guide].
MOVED_BACK_AFTER = 3


@dataclass
class RedriveTarget:
    dead_letter_queue: QueueKey
    max_receive_count: int


@dataclass
class QueueSettings:
    fifo: bool = False
    visibility_timeout: float = 30.0
    delay: float = 0.0
    retention: float = 345600.0
    redrive: RedriveTarget | None = None
    dedup_scope: Literal["queue", "messageGroup"] = "queue"
    # Past this many in-flight messages a receive fails with OverLimit; None means no error.
    max_in_flight: int | None = 120_000
    # YMQ hands out at most one message per group per FIFO receive.
    one_message_per_group: bool = False
