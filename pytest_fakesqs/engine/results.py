"""What queue operations hand back: snapshots safe to read after the queue lock is released."""

from __future__ import annotations

from dataclasses import dataclass

from .message import Message


# Not frozen: a frozen dataclass pays a setattr call per field, on every message received.
@dataclass(slots=True)
class Delivery:
    """A snapshot of one received message."""

    message: Message
    receipt_handle: str
    receive_count: int
    first_received_at: float


@dataclass(slots=True)
class SendResult:
    message: Message
    duplicate: bool  # FIFO: the dedup id was seen in the last 5 minutes; nothing was enqueued
