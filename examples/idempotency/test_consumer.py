"""SQS may deliver a message twice, even after it was deleted. `duplicate_delivery=1.0` makes
the fake do it every time, so a consumer that is not idempotent fails here, not in production.
"""

from __future__ import annotations

import pytest

from pytest_fakesqs import FakeSQS

from .consumer import IdempotentConsumer, NaiveConsumer, publish_payment

PAYMENTS = [("req-1", "alice", 30), ("req-2", "bob", 5), ("req-3", "alice", 12)]


def publish_all(url: str) -> None:
    for request_id, account, amount in PAYMENTS:
        publish_payment(url, request_id, account, amount)


@pytest.mark.fakesqs(duplicate_delivery=1.0)
def test_idempotent_consumer_applies_each_payment_once(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("payments")
    publish_all(url)
    consumer = IdempotentConsumer(url)
    consumer.drain()
    assert dict(consumer.balances) == {"alice": 42, "bob": 5}
    assert len(fakesqs.queue("payments")) == 0


@pytest.mark.xfail(
    strict=True, reason="the naive consumer charges twice when SQS delivers twice: the bug to catch"
)
@pytest.mark.fakesqs(duplicate_delivery=1.0)
def test_naive_consumer_is_caught_charging_twice(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("payments")
    publish_all(url)
    consumer = NaiveConsumer(url)
    consumer.drain()
    assert dict(consumer.balances) == {"alice": 42, "bob": 5}  # actually {"alice": 84, "bob": 10}


def test_without_injected_duplicates_both_consumers_look_correct(fakesqs: FakeSQS) -> None:
    # Why the option exists: exactly-once delivery hides the naive consumer's bug.
    url = fakesqs.create_queue("payments")
    publish_all(url)
    consumer = NaiveConsumer(url)
    consumer.drain()
    assert dict(consumer.balances) == {"alice": 42, "bob": 5}


@pytest.mark.fakesqs(standard_order="shuffled", seed=11)
def test_consumer_does_not_depend_on_order(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("payments")
    publish_all(url)
    consumer = IdempotentConsumer(url)
    consumer.drain()
    assert dict(consumer.balances) == {"alice": 42, "bob": 5}


def test_a_throttled_publish_is_retried_by_botocore(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("payments")
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=2)
    publish_payment(url, "req-9", "carol", 7)  # botocore retries; the frozen clock absorbs back-off
    assert fakesqs.queue("payments").bodies() == [
        '{"request_id": "req-9", "account": "carol", "amount": 7}'
    ]
