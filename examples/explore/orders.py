"""An order-events consumer on a FIFO queue: each order is a message group, and its events
(created, paid, shipped) must be handled in the order they were sent; orders may interleave.

A message comes back when its visibility timeout lapses before it is deleted (a slow consumer,
or a delete that botocore retried for long enough), so the consumer skips a MessageId it has
handled: the order of first handlings is what FIFO promises."""

from __future__ import annotations

import boto3


class OrderEvents:
    def __init__(self, queue_url: str) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.handled: dict[str, list[str]] = {}  # order id -> its events, as handled
        self._seen: set[str] = set()

    def step(self) -> None:
        """One poll: handle the events received, in the order received, deleting each after."""
        received = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, AttributeNames=["MessageGroupId"]
        )
        for message in received.get("Messages", []):
            if message["MessageId"] not in self._seen:
                self._seen.add(message["MessageId"])
                order = message["Attributes"]["MessageGroupId"]
                self.handled.setdefault(order, []).append(message["Body"])
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])


def publish_events(queue_url: str, events: list[tuple[str, str]]) -> None:
    """(order id, event) pairs, each sent to the order's message group."""
    sqs = boto3.client("sqs", region_name="us-east-1")
    for order, event in events:
        sqs.send_message(
            QueueUrl=queue_url,
            MessageBody=event,
            MessageGroupId=order,
            MessageDeduplicationId=f"{order}-{event}",
        )
