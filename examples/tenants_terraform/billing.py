"""An invoice worker that serves every tenant's queue, as an application would write it.

A malformed invoice raises, so it is not deleted: SQS hands it out again after that tenant's
visibility timeout, and after three receives moves it to the shared dead-letter queue.
"""

from __future__ import annotations

import json

import boto3


class InvoiceWorker:
    def __init__(self, queue_urls: dict[str, str]) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_urls = queue_urls  # tenant -> its queue's URL
        self.billed: list[tuple[str, int]] = []  # (tenant, invoice id)

    def poll_once(self) -> None:
        """One short poll of every tenant's queue."""
        for tenant, url in self.queue_urls.items():
            reply = self.sqs.receive_message(
                QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0
            )
            for message in reply.get("Messages", []):
                try:
                    invoice = json.loads(message["Body"])
                    self.billed.append((tenant, int(invoice["id"])))
                except (ValueError, KeyError):
                    continue  # leave it: SQS redelivers it, then dead-letters it
                self.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])


def send_invoice(queue_url: str, body: str) -> None:
    boto3.client("sqs", region_name="us-east-1").send_message(QueueUrl=queue_url, MessageBody=body)
