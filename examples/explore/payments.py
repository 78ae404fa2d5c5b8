"""Two consumers of a payments queue, polled one step at a time. SQS delivers at least once, so
only one of them is right; a fault schedule finds out which (test_payments.py)."""

from __future__ import annotations

import json
from typing import Any

import boto3


class NaiveConsumer:
    """Applies every delivery: a second delivery of a payment charges it twice."""

    def __init__(self, queue_url: str) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.balances: dict[str, int] = {}

    def step(self) -> None:
        """One poll: apply each payment received, then delete it."""
        received = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10)
        for message in received.get("Messages", []):
            self.apply(json.loads(message["Body"]))
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    def apply(self, payment: dict[str, Any]) -> None:
        account = payment["account"]
        self.balances[account] = self.balances.get(account, 0) + payment["amount"]


class IdempotentConsumer(NaiveConsumer):
    """Keyed by the publisher's request id: a payment already applied is deleted, not applied."""

    def __init__(self, queue_url: str) -> None:
        super().__init__(queue_url)
        self.applied: set[str] = set()

    def apply(self, payment: dict[str, Any]) -> None:
        if payment["request_id"] in self.applied:
            return
        super().apply(payment)
        self.applied.add(payment["request_id"])


def publish(queue_url: str, payments: list[tuple[str, str, int]]) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    for request_id, account, amount in payments:
        body = json.dumps({"request_id": request_id, "account": account, "amount": amount})
        sqs.send_message(QueueUrl=queue_url, MessageBody=body)
