"""A worker that fails on a poison message: the retry is shown by moving the clock, not sleeping."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from .worker import Worker, publish


def charge(order: dict[str, Any]) -> None:
    if order["amount"] < 0:
        raise ValueError(f"negative amount {order['amount']}")


@pytest.fixture
def orders(fakesqs: FakeSQS) -> str:
    return fakesqs.create_queue("orders", VisibilityTimeout=30)


def test_good_orders_are_processed_and_deleted(fakesqs: FakeSQS, orders: str) -> None:
    for amount in (10, 20, 30):
        publish(orders, {"amount": amount})
    assert Worker(orders, charge).poll_once() == 3
    assert len(fakesqs.queue("orders")) == 0


def test_poison_message_comes_back_after_the_visibility_timeout(
    fakesqs: FakeSQS, orders: str
) -> None:
    publish(orders, {"amount": 10})
    poison_id = publish(orders, {"amount": -1})
    worker = Worker(orders, charge)

    assert worker.poll_once() == 1
    assert [m.message_id for m in fakesqs.queue("orders").in_flight()] == [poison_id]

    fakesqs.advance(29)  # still invisible: nobody can see it
    assert worker.poll_once(wait_seconds=0) == 0
    assert worker.failures == [f"{poison_id}: negative amount -1"]

    fakesqs.advance(1)  # the visibility timeout ends: SQS redelivers it
    assert worker.poll_once(wait_seconds=0) == 0
    assert len(worker.failures) == 2
    assert fakesqs.queue("orders").in_flight()[0].receive_count == 2


@pytest.mark.fakesqs_only  # virtual seconds: a real endpoint really waits 20 s
def test_an_idle_worker_long_polls_without_waiting(fakesqs: FakeSQS, orders: str) -> None:
    before = fakesqs.now()
    assert Worker(orders, charge).poll_once(wait_seconds=20) == 0
    assert (fakesqs.now() - before).total_seconds() == 20  # virtual seconds, not real ones
