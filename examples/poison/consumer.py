"""An order consumer as an application would write it: a bad order raises, so it is not deleted.

SQS hands it out again after the visibility timeout; after `maxReceiveCount` receives the
queue's redrive policy moves it to the dead-letter queue, where an operator looks at it.
"""

from __future__ import annotations

import json
from typing import Any

import boto3


class OrderConsumer:
    def __init__(self, queue_url: str) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.charged: list[int] = []

    def poll_once(self) -> None:
        reply = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
        )
        for message in reply.get("Messages", []):
            try:
                self.charge(json.loads(message["Body"]))
            except ValueError:
                continue  # leave it: SQS redelivers it, then dead-letters it
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    def charge(self, order: dict[str, Any]) -> None:
        if order["amount"] <= 0:
            raise ValueError(f"order {order['id']}: amount must be positive")
        self.charged.append(order["id"])


def place(queue_url: str, order_id: int, amount: int) -> None:
    body = json.dumps({"id": order_id, "amount": amount})
    boto3.client("sqs", region_name="us-east-1").send_message(QueueUrl=queue_url, MessageBody=body)
