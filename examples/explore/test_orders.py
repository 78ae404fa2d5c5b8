"""A FIFO queue keeps its promises under every fault schedule: a schedule never duplicates or
reorders FIFO messages (only empty short polls and retried errors reach them), so a consumer
that handles each order's events in the order received handles them in the order sent."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.strategies import FaultSchedule, fault_schedules

from .orders import OrderEvents, publish_events

EVENTS = [
    ("order-1", "created"),
    ("order-2", "created"),
    ("order-1", "paid"),
    ("order-1", "shipped"),
    ("order-2", "paid"),
]


@pytest.mark.fakesqs_only
@settings(deadline=None)
@given(schedule=fault_schedules())
def test_each_orders_events_are_handled_in_the_order_sent(schedule: FaultSchedule) -> None:
    with fake_sqs(faults=schedule) as fakesqs:
        url = fakesqs.create_queue("orders.fifo", FifoQueue=True)
        publish_events(url, EVENTS)
        publish_events(url, [("order-1", "paid")])  # a retried publish: deduplicated
        consumer = OrderEvents(url)
        fakesqs.run_until_idle(consumer.step)
    assert consumer.handled == {
        "order-1": ["created", "paid", "shipped"],
        "order-2": ["created", "paid"],
    }
    # Nothing a FIFO queue promises was touched: no duplicate, no other order.
    assert not [text for text in schedule.fired if "duplicate" in text or "before" in text]
