"""One fake with every kind of event, for the pictures' tests: a poison message dead-lettered
and redriven back, a delayed one, one expired, one purged and one deleted at once."""

from __future__ import annotations

import json
from typing import Any

import boto3

from pytest_fakesqs import FakeSQS


def sqs() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def tell_the_story(fakesqs: FakeSQS) -> dict[str, str]:
    """Run it; the message ids by role."""
    client = sqs()
    dlq = fakesqs.create_queue("orders-dlq")
    policy = {"deadLetterTargetArn": fakesqs.queue("orders-dlq").arn, "maxReceiveCount": 2}
    orders = fakesqs.create_queue("orders", VisibilityTimeout=30, RedrivePolicy=json.dumps(policy))
    short = fakesqs.create_queue("short-lived", MessageRetentionPeriod=60)
    scratch = fakesqs.create_queue("scratch")

    def send(url: str, body: str, **kwargs: Any) -> str:
        message_id: str = client.send_message(QueueUrl=url, MessageBody=body, **kwargs)["MessageId"]
        return message_id

    ids = {
        "done": send(orders, "done"),
        "poison": send(orders, "poison"),
        "later": send(orders, "later", DelaySeconds=10),
        "expires": send(short, "expires"),
        "purged": send(scratch, "purged"),
    }
    for _ in range(3):
        for message in client.receive_message(QueueUrl=orders, MaxNumberOfMessages=10).get(
            "Messages", []
        ):
            if message["Body"] != "poison":
                client.delete_message(QueueUrl=orders, ReceiptHandle=message["ReceiptHandle"])
        fakesqs.advance(30)
    client.purge_queue(QueueUrl=scratch)
    fakesqs.advance(40)  # short-lived's message expires at +60s
    len(fakesqs.queue("short-lived"))
    client.start_message_move_task(SourceArn=fakesqs.queue("orders-dlq").arn)
    fakesqs.advance(10)
    len(fakesqs.queue("orders"))
    del dlq
    return ids
