"""The limits of each flavor: one row per flavor, read by validation and iterated by tests."""

from __future__ import annotations

from dataclasses import dataclass

from .context import Flavor

# Queue attributes YMQ answers "Unknown Attribute X." for: KMS, policies, high-throughput FIFO.
YMQ_UNSUPPORTED_ATTRIBUTES = (
    "Policy",
    "RedriveAllowPolicy",
    "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds",
    "SqsManagedSseEnabled",
    "DeduplicationScope",
    "FifoThroughputLimit",
)
# Actions YMQ has no handler for (neither its query front-end nor YDB's JSON one).
YMQ_ABSENT_ACTIONS = (
    "AddPermission",
    "RemovePermission",
    "StartMessageMoveTask",
    "CancelMessageMoveTask",
    "ListMessageMoveTasks",
)


@dataclass(frozen=True, slots=True)
class Limits:
    flavor: Flavor
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
    # "aws": any Unicode key/value; "ymq": labels, 1-63 chars of [a-z0-9_-], keys start a-z.
    tag_rules: str = "aws"
    # YMQ's ListQueues returns up to 1000 URLs and ignores MaxResults/NextToken.
    list_queues_paginated: bool = True
    # YMQ hands out at most one message per group in one FIFO receive.
    one_message_per_group: bool = False
    # YMQ ignores a per-message DelaySeconds on FIFO queues; AWS rejects it.
    fifo_message_delay_ignored: bool = False
    default_region: str = "us-east-1"
    unsupported_attributes: tuple[str, ...] = ()
    absent_actions: tuple[str, ...] = ()


LIMITS: dict[Flavor, Limits] = {
    "aws": Limits("aws", max_message_size=1_048_576),
    "ymq": Limits(
        "ymq",
        max_message_size=262_144,
        max_batch_bytes=262_144,
        fifo_in_flight=20_000,
        max_queues=1000,
        tag_rules="ymq",
        list_queues_paginated=False,
        one_message_per_group=True,
        fifo_message_delay_ignored=True,
        default_region="ru-central1",
        unsupported_attributes=YMQ_UNSUPPORTED_ATTRIBUTES,
        absent_actions=YMQ_ABSENT_ACTIONS,
    ),
}
