"""Helpers shared by the dead-letter, redrive and move-task tests (tier 2)."""

from __future__ import annotations

import json
from typing import Any


def queue_arn(sqs: Any, url: str) -> str:
    arn: str = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    return arn


def redrive_policy(dead_letter_arn: str, max_receive_count: int = 1) -> str:
    return json.dumps(
        {"deadLetterTargetArn": dead_letter_arn, "maxReceiveCount": max_receive_count}
    )


def dead_letter_pipe(sqs: Any, prefix: str = "", max_receive_count: int = 1) -> tuple[str, str]:
    """A source queue redriving into a dead-letter queue, as the recorded tests build it."""
    dlq = sqs.create_queue(QueueName=f"{prefix}dlq")["QueueUrl"]
    source = sqs.create_queue(
        QueueName=f"{prefix}source",
        Attributes={"RedrivePolicy": redrive_policy(queue_arn(sqs, dlq), max_receive_count)},
    )["QueueUrl"]
    return source, dlq


def dead_letter(sqs: Any, source: str, count: int) -> None:
    """Send `count` messages to `source` and receive each twice so all end up dead-lettered."""
    for index in range(count):
        sqs.send_message(QueueUrl=source, MessageBody=f"message-{index}")
    for _ in range(count * 2):
        sqs.receive_message(QueueUrl=source, VisibilityTimeout=0)


def approximate_count(sqs: Any, url: str) -> int:
    attributes = sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
    )
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])
