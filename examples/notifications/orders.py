"""Order events fan out through an SNS topic to an SQS queue; a partner account consumes them.

`provision` is the infrastructure code under test (what a CDK stack or Terraform module does):
the queue only receives the topic's messages if its Policy allows sns.amazonaws.com for that
topic, and the partner only reads them if the Policy allows the partner's account.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Wiring:
    topic_arn: str
    queue_url: str
    queue_arn: str


def provision(
    sqs: Any, sns: Any, *, partner_account: str | None = None, allow_sns: bool = True
) -> Wiring:
    queue_url = sqs.create_queue(QueueName="order-events")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])[
        "Attributes"
    ]["QueueArn"]
    topic_arn = sns.create_topic(Name="orders")["TopicArn"]
    statements: list[dict[str, Any]] = []
    if allow_sns:
        statements.append(
            {
                "Sid": "TopicDelivers",
                "Effect": "Allow",
                "Principal": {"Service": "sns.amazonaws.com"},
                "Action": "sqs:SendMessage",
                "Resource": queue_arn,
                "Condition": {"ArnEquals": {"aws:SourceArn": topic_arn}},
            }
        )
    if partner_account is not None:
        statements.append(
            {
                "Sid": "PartnerConsumes",
                "Effect": "Allow",
                "Principal": {"AWS": f"arn:aws:iam::{partner_account}:root"},
                "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage"],
                "Resource": queue_arn,
            }
        )
    if statements:
        policy = {"Version": "2012-10-17", "Statement": statements}
        sqs.set_queue_attributes(QueueUrl=queue_url, Attributes={"Policy": json.dumps(policy)})
    sns.subscribe(
        TopicArn=topic_arn,
        Protocol="sqs",
        Endpoint=queue_arn,
        Attributes={"RawMessageDelivery": "true"},
    )
    return Wiring(topic_arn, queue_url, queue_arn)


def publish_order(sns: Any, wiring: Wiring, order: dict[str, Any]) -> None:
    sns.publish(TopicArn=wiring.topic_arn, Message=json.dumps(order))


def consume(sqs: Any, wiring: Wiring) -> list[dict[str, Any]]:
    """One batch of orders, deleted once read (the partner's consumer)."""
    orders = []
    for message in sqs.receive_message(QueueUrl=wiring.queue_url, MaxNumberOfMessages=10).get(
        "Messages", []
    ):
        orders.append(json.loads(message["Body"]))
        sqs.delete_message(QueueUrl=wiring.queue_url, ReceiptHandle=message["ReceiptHandle"])
    return orders
