"""Poison orders reach the dead-letter queue: declared queues, time travel, DLQ assertions.

`assert_dlq_empty=True` makes any dead letter this module's tests did not assert on an ERROR,
so a new poison path cannot slip through unnoticed.
"""

from __future__ import annotations

import pytest

from pytest_fakesqs import FakeSQS

from .consumer import OrderConsumer, place

pytestmark = pytest.mark.fakesqs(
    queues={
        "orders": {"VisibilityTimeout": 60, "dlq": "orders-dlq", "max_receive_count": 3},
        "orders-dlq": {},
    },
    assert_dlq_empty=True,
)


@pytest.fixture
def consumer(fakesqs: FakeSQS) -> OrderConsumer:
    return OrderConsumer(fakesqs.queue("orders").url)


def test_good_orders_are_charged_once(fakesqs: FakeSQS, consumer: OrderConsumer) -> None:
    url = fakesqs.queue("orders").url
    place(url, 1, 250)
    place(url, 2, 990)
    consumer.poll_once()
    assert consumer.charged == [1, 2]
    fakesqs.assert_no_dead_letters()
    assert len(fakesqs.calls("DeleteMessage")) == 2


def test_a_poison_order_is_dead_lettered_after_three_receives(
    fakesqs: FakeSQS, consumer: OrderConsumer
) -> None:
    url = fakesqs.queue("orders").url
    place(url, 1, 250)
    place(url, 2, -5)  # poison
    # Polls until nothing is left to do; each 60 s visibility timeout passes at once. The
    # fourth receive moves the poison order: three failed receives, then the dead-letter queue.
    report = fakesqs.run_until_idle(consumer.poll_once)
    assert (report.steps, report.elapsed, report.dead_lettered) == (4, 180, 1)

    (poison,) = fakesqs.assert_dead_lettered("orders-dlq", match=r'"id": 2\b')
    assert (poison.source_queue, poison.receive_count) == ("orders", 3)
    assert (poison.moved_at - fakesqs.history(poison.message_id)[0].at).total_seconds() == 180
    assert [event.event for event in poison.history].count("received") == 3
    assert consumer.charged == [1]


def test_the_dead_letter_queue_keeps_the_message_for_an_operator(
    fakesqs: FakeSQS, consumer: OrderConsumer
) -> None:
    place(fakesqs.queue("orders").url, 7, 0)
    # It stops once the consumer has nothing left to receive: the dead-letter queue, which
    # nobody consumes, keeps its message (no jump to the retention expiry, days later).
    fakesqs.run_until_idle(consumer.poll_once)
    fakesqs.assert_dead_lettered(body='{"id": 7, "amount": 0}', count=1)
    assert fakesqs.queue("orders-dlq").bodies() == ['{"id": 7, "amount": 0}']
    assert fakesqs.queue("orders-dlq").backlog().count == 1
