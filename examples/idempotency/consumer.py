"""Two consumers of a payments queue. SQS delivers at least once, so only one of them is right.

Each message carries a `request_id` chosen by the publisher; the idempotent consumer remembers
which requests it has applied and skips a second delivery of the same one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import boto3


class NaiveConsumer:
    """Applies every delivery: a duplicate delivery charges the customer twice."""

    def __init__(self, queue_url: str) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.balances: dict[str, int] = defaultdict(int)

    def apply(self, payment: dict[str, Any]) -> None:
        self.balances[payment["account"]] += payment["amount"]

    def drain(self) -> None:
        while messages := self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10
        ).get("Messages"):
            for message in messages:
                self.handle(json.loads(message["Body"]))
                self.sqs.delete_message(
                    QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"]
                )

    def handle(self, payment: dict[str, Any]) -> None:
        self.apply(payment)


class IdempotentConsumer(NaiveConsumer):
    """Keyed by request id: a request already applied is acknowledged and skipped."""

    def __init__(self, queue_url: str) -> None:
        super().__init__(queue_url)
        self.applied: set[str] = set()

    def handle(self, payment: dict[str, Any]) -> None:
        if payment["request_id"] in self.applied:
            return
        self.apply(payment)
        self.applied.add(payment["request_id"])


def publish_payment(queue_url: str, request_id: str, account: str, amount: int) -> None:
    boto3.client("sqs", region_name="us-east-1").send_message(
        QueueUrl=queue_url,
        MessageBody=json.dumps({"request_id": request_id, "account": account, "amount": amount}),
    )
