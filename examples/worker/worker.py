"""A small queue worker, as an application would write it: receive, process, delete.

A message that raises is *not* deleted, so SQS hands it out again after the visibility timeout.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import boto3


class Worker:
    def __init__(self, queue_url: str, handle: Callable[[dict[str, Any]], None]) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.handle = handle
        self.failures: list[str] = []

    def poll_once(self, wait_seconds: int = 20) -> int:
        """Process one batch; returns how many messages were handled successfully."""
        response = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=wait_seconds
        )
        done = 0
        for message in response.get("Messages", []):
            try:
                self.handle(json.loads(message["Body"]))
            except Exception as error:  # leave it in the queue: SQS will redeliver it
                self.failures.append(f"{message['MessageId']}: {error}")
                continue
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
            done += 1
        return done


def publish(queue_url: str, payload: dict[str, Any]) -> str:
    sqs = boto3.client("sqs", region_name="us-east-1")
    message_id: str = sqs.send_message(QueueUrl=queue_url, MessageBody=json.dumps(payload))[
        "MessageId"
    ]
    return message_id
