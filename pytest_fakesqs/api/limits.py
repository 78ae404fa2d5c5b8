"""The limits of each flavor: one row per flavor, read by validation and iterated by tests."""

from __future__ import annotations

from dataclasses import dataclass

from .context import Flavor


@dataclass(frozen=True, slots=True)
class Limits:
    """Numbers only: what a flavor does differently is its Dialect's (dialect.py)."""

    max_message_size: int  # body + message attributes, bytes; also MaximumMessageSize's maximum
    min_message_size_attribute: int = 1024
    max_batch_entries: int = 10
    max_batch_bytes: int = 1_048_576
    max_message_attributes: int = 10
    max_queue_name_length: int = 80
    max_visibility_timeout: int = 43_200
    max_delay_seconds: int = 900
    min_retention: int = 60
    max_retention: int = 1_209_600
    max_wait_seconds: int = 20
    max_receive_count: int = 1000
    standard_in_flight: int = 120_000
    # AWS: FIFO slows down past 120,000 but never errors; a number means OverLimit (403) past it.
    fifo_in_flight: int | None = None
    max_group_id_length: int = 128
    max_list_queues: int = 1000
    max_tags: int = 50
    # YMQ: 1,000 queues per cloud (a quota), then CreateQueue answers OverLimit.
    max_queues: int | None = None


LIMITS: dict[Flavor, Limits] = {
    "aws": Limits(max_message_size=1_048_576),
    "ymq": Limits(
        max_message_size=262_144,
        max_batch_bytes=262_144,
        fifo_in_flight=20_000,
        max_queues=1000,
    ),
}
