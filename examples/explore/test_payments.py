"""Exploring what SQS may do to a payments consumer: Hypothesis draws fault schedules (duplicate
deliveries, other orders, empty short polls, throttling and 5xx errors botocore retries) and
shrinks a failing one to the fewest faults that still break the consumer.

`fakesqs.run_until_idle(step)` plays every schedule to its end: it polls while anything is
visible and jumps the clock to each moment a message (a late duplicate too) becomes visible.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.strategies import Duplicate, FaultSchedule, fault_schedules

from .payments import IdempotentConsumer, NaiveConsumer, publish

PAYMENTS = [("req-1", "alice", 30), ("req-2", "alice", 12)]
EXPECTED = {"alice": 42}
# No deadline: the first examples of a run include botocore's own warm-up.
EXPLORE = settings(deadline=None)


def balances_after(fakesqs: FakeSQS, consumer_class: type[NaiveConsumer]) -> dict[str, int]:
    url = fakesqs.create_queue("payments")
    publish(url, PAYMENTS)
    consumer = consumer_class(url)
    fakesqs.run_until_idle(consumer.step)
    return consumer.balances


@pytest.mark.fakesqs_only
@pytest.mark.xfail(strict=True, reason="the naive consumer charges twice: the bug to catch")
@EXPLORE
@given(schedule=fault_schedules())
def test_the_naive_consumer_applies_each_payment_once(schedule: FaultSchedule) -> None:
    with fake_sqs(faults=schedule) as fakesqs:
        assert balances_after(fakesqs, NaiveConsumer) == EXPECTED


@pytest.mark.fakesqs_only
def test_what_hypothesis_reports_for_it_is_one_duplicate() -> None:
    """The test above, run here to show its report: the schedule shrinks to one duplicate."""
    with pytest.raises(AssertionError) as caught:
        test_the_naive_consumer_applies_each_payment_once()
    report = "\n".join(getattr(caught.value, "__notes__", []))
    assert (
        "schedule=FaultSchedule(Duplicate(delivery=1, delay=0), fired=['duplicate of message 1 "
        '({"request_id": "req-1",…), visible again at +0s\'])'
    ) in report


@pytest.mark.fakesqs_only
@settings(EXPLORE, max_examples=150)
@given(schedule=fault_schedules())
def test_the_idempotent_consumer_survives_every_schedule(schedule: FaultSchedule) -> None:
    with fake_sqs(faults=schedule) as fakesqs:
        assert balances_after(fakesqs, IdempotentConsumer) == EXPECTED
        # Injected errors were retried by botocore: the consumer never saw one.
        assert all(call.injected for call in fakesqs.calls() if call.error_code is not None)


@pytest.mark.fakesqs_only
@settings(EXPLORE, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schedule=fault_schedules())
def test_the_same_with_the_fixture(fakesqs: FakeSQS, schedule: FaultSchedule) -> None:
    fakesqs.use_faults(schedule)  # first: every example starts from a fresh fake
    assert balances_after(fakesqs, IdempotentConsumer) == EXPECTED


@pytest.mark.fakesqs(faults=FaultSchedule(Duplicate(delivery=1, delay=0)))
def test_the_schedule_hypothesis_found_pinned_as_a_regression_test(fakesqs: FakeSQS) -> None:
    assert balances_after(fakesqs, IdempotentConsumer) == EXPECTED
    assert fakesqs.fired_faults() == [
        'duplicate of message 1 ({"request_id": "req-1",…), visible again at +0s'
    ]
