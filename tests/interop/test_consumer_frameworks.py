"""The other SQS consumer frameworks against the fake: each as its users run it.

- aws-lambda-powertools' BatchProcessor, driven by `fakesqs.trigger` as Lambda's event source
  mapping drives it (partial batch responses);
- dramatiq with dramatiq-sqs (boto3 underneath: served in-process, worker threads and all).

PyQS (multiprocessing workers) and aiosqs (its own aiohttp client, HTTPS only) are in
test_over_http.py: they reach the fake over HTTP.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable
from typing import Any

import boto3
import dramatiq
import pytest
from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from dramatiq_sqs import SQSBroker

from pytest_fakesqs import FakeSQS

DEADLINE = 30.0  # real-time: the most a test waits for a worker thread; never reached


def wait_for(done: Callable[[], object]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, "the worker never got there"
        time.sleep(0.01)  # real-time: the worker runs in its own threads


# -- aws-lambda-powertools ------------------------------------------------------------------------


@pytest.mark.fakesqs(
    queues={
        "payments": {"VisibilityTimeout": 60, "dlq": "payments-dlq", "max_receive_count": 2},
        "payments-dlq": {},
    }
)
def test_powertools_partial_failures_return_and_then_dead_letter(fakesqs: FakeSQS) -> None:
    processor = BatchProcessor(event_type=EventType.SQS)
    paid: list[int] = []

    def record_handler(record: Any) -> None:
        amount = json.loads(record.body)["amount"]
        if amount < 0:
            raise ValueError(f"cannot pay {amount}")
        paid.append(amount)

    def lambda_handler(event: dict[str, Any], context: object) -> dict[str, Any]:
        return process_partial_response(
            event=event, record_handler=record_handler, processor=processor, context=context
        )

    url = fakesqs.queue("payments").url
    sqs = boto3.client("sqs", region_name="us-east-1")
    for amount in (10, -1, 20):
        sqs.send_message(QueueUrl=url, MessageBody=json.dumps({"amount": amount}))

    report = fakesqs.trigger("payments", lambda_handler, report_batch_item_failures=True)

    assert sorted(paid) == [10, 20]  # each good payment once: only the failure came back
    assert report.dead_lettered == 1
    [dead] = fakesqs.dead_letters("payments-dlq")
    assert json.loads(dead.body) == {"amount": -1}
    assert dead.receive_count == 2
    fakesqs.assert_dead_lettered("payments", count=1)


# -- dramatiq with dramatiq-sqs -------------------------------------------------------------------


def test_dramatiq_sqs_worker_runs_actors_and_dead_letters_failures(fakesqs: FakeSQS) -> None:
    broker = SQSBroker(namespace="shop", dead_letter=True, region_name="us-east-1")
    charged: list[int] = []

    @dramatiq.actor(broker=broker, queue_name="orders", max_retries=0)
    def charge(amount: int) -> None:
        if amount < 0:
            raise ValueError(f"cannot charge {amount}")
        charged.append(amount)

    worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=100)
    worker.start()
    try:
        for amount in (5, -1, 7):
            charge.send(amount)
        wait_for(lambda: len(charged) == 2 and fakesqs.queue("shop_orders_dlq").bodies())
    finally:
        worker.stop()

    assert sorted(charged) == [5, 7]
    [failed] = fakesqs.queue("shop_orders_dlq").bodies()  # dramatiq-sqs's own dead letters
    assert json.loads(base64.b64decode(failed))["args"] == [-1]  # dramatiq-sqs base64s bodies
    wait_for(lambda: fakesqs.queue("shop_orders").backlog().count == 0)
    assert fakesqs.calls("ReceiveMessage")
