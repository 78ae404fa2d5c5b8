"""Dead-letter replay with StartMessageMoveTask after an outage: nothing applied twice."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS

from .ledger import Ledger

PAYMENTS = [
    {"id": "p1", "account": "ann", "amount": 100, "currency": "USD"},
    {"id": "p2", "account": "bob", "amount": 50, "currency": "EUR"},  # no EUR rate yet
    {"id": "p3", "account": "ann", "amount": 20, "currency": "USD"},
]


@pytest.fixture
def sqs(fakesqs: FakeSQS) -> Any:
    return boto3.client("sqs", region_name="us-east-1")


@pytest.fixture
def queues(fakesqs: FakeSQS, sqs: Any) -> tuple[str, str]:
    dlq = sqs.create_queue(QueueName="payments-dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 3})
    url = sqs.create_queue(
        QueueName="payments", Attributes={"VisibilityTimeout": "60", "RedrivePolicy": policy}
    )["QueueUrl"]
    for payment in PAYMENTS:
        sqs.send_message(QueueUrl=url, MessageBody=json.dumps(payment))
    return url, dlq_arn


def test_replay_applies_the_missing_payments_and_skips_the_applied(
    fakesqs: FakeSQS, sqs: Any, queues: tuple[str, str]
) -> None:
    url, dlq_arn = queues
    ledger = Ledger(rates={"USD": 1.0})
    ledger.receipts_up = False  # the outage

    outage = fakesqs.trigger(url, ledger.handler, batch_size=1)

    assert outage.dead_lettered == 3  # all three: p1 and p3 applied, p2 could not be
    assert ledger.applied == {"p1", "p3"}
    assert len(fakesqs.queue("payments-dlq")) == 3

    # The fix ships: EUR is known, receipts are back. Redrive the DLQ to its source queue.
    ledger.rates["EUR"] = 1.1
    ledger.receipts_up = True
    task = sqs.start_message_move_task(SourceArn=dlq_arn)
    fakesqs.advance(1)  # the task moves messages on the virtual clock
    (status,) = sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
    assert task["TaskHandle"] and "TaskHandle" not in status  # listed only while RUNNING
    assert (status["Status"], status["ApproximateNumberOfMessagesMoved"]) == ("COMPLETED", 3)

    replay = fakesqs.trigger(url, ledger.handler, batch_size=1)

    assert (replay.messages_processed, replay.dead_lettered) == (3, 0)
    assert dict(ledger.balances) == {"ann": 120, "bob": 55}
    assert ledger.applications == {"p1": 1, "p2": 1, "p3": 1}  # nothing applied twice
    assert sorted(ledger.receipts) == ["p1", "p2", "p3"]
    assert len(fakesqs.queue("payments-dlq")) == 0
