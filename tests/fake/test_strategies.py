"""Tier 2: `fault_schedules()` under Hypothesis: a naive consumer is caught and shrunk to the one
duplicate that breaks it, an idempotent one survives every schedule, bad options are refused."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.strategies import (
    CallError,
    Duplicate,
    FaultSchedule,
    fault_schedules,
)

SQS = boto3.client("sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
EXPLORE = settings(deadline=None, database=None, derandomize=True)


def run_payments(fake: FakeSQS, *, idempotent: bool) -> dict[str, int]:
    """Two payments through a consumer that polls, applies and deletes; the balances."""
    url = fake.create_queue("payments")
    for request_id, amount in (("req-1", 30), ("req-2", 12)):
        SQS.send_message(
            QueueUrl=url, MessageBody=json.dumps({"request_id": request_id, "amount": amount})
        )
    balances = {"alice": 0}
    applied: set[str] = set()

    def step() -> None:
        received = SQS.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
        for message in received.get("Messages", []):
            payment = json.loads(message["Body"])
            if not (idempotent and payment["request_id"] in applied):
                balances["alice"] += payment["amount"]
                applied.add(payment["request_id"])
            SQS.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

    fake.run_until_idle(step)
    return balances


def test_a_naive_consumer_is_caught_and_shrunk_to_one_duplicate() -> None:
    schedules: list[FaultSchedule] = []

    @EXPLORE
    @given(schedule=fault_schedules())
    def charges_each_payment_once(schedule: FaultSchedule) -> None:
        schedules.append(schedule)
        with fake_sqs(faults=schedule) as fake:
            assert run_payments(fake, idempotent=False) == {"alice": 42}

    with pytest.raises(AssertionError) as caught:
        charges_each_payment_once()
    minimal = schedules[-1]
    assert minimal.faults == (Duplicate(delivery=1, delay=0),)
    assert minimal.fired == [
        'duplicate of message 1 ({"request_id": "req-1",…), visible again at +0s'
    ]
    notes = "\n".join(getattr(caught.value, "__notes__", []))
    assert f"schedule={minimal!r}" in notes  # Hypothesis prints what fired


def test_an_idempotent_consumer_survives_150_schedules_with_errors() -> None:
    fired_kinds: set[str] = set()

    @settings(EXPLORE, max_examples=150)
    @given(schedule=fault_schedules())
    def applies_each_payment_once(schedule: FaultSchedule) -> None:
        with fake_sqs(faults=schedule) as fake:
            assert run_payments(fake, idempotent=True) == {"alice": 42}
            for call in fake.calls():
                assert call.error_code is None or call.injected  # retried, never failed
        fired_kinds.update(text.split()[0] for text in schedule.fired)

    applies_each_payment_once()
    assert {"duplicate", "call", "short"} <= fired_kinds


def test_use_faults_works_with_the_fixture_once_the_health_check_allows(
    fakesqs: FakeSQS,
) -> None:
    runs: list[FaultSchedule] = []

    @settings(EXPLORE, max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(schedule=fault_schedules(errors=False))
    def each_example_starts_afresh(schedule: FaultSchedule) -> None:
        fakesqs.use_faults(schedule)
        runs.append(schedule)
        assert run_payments(fakesqs, idempotent=True) == {"alice": 42}

    each_example_starts_afresh()
    assert len(runs) == 20


def test_kinds_can_be_turned_off() -> None:
    @EXPLORE
    @given(schedule=fault_schedules(duplicates=False, reorder=False, empty_receives=False))
    def only_errors(schedule: FaultSchedule) -> None:
        assert all(isinstance(fault, CallError) for fault in schedule.faults)
        assert len(schedule.faults) <= 8

    only_errors()

    @EXPLORE
    @given(schedule=fault_schedules(max_faults=2))
    def at_most_two(schedule: FaultSchedule) -> None:
        assert len(schedule.faults) <= 2

    at_most_two()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (
            {"duplicate": False},
            TypeError,
            "fault_schedules() got an unknown option 'duplicate'; did you mean duplicates? "
            "options: duplicates, reorder, empty_receives, errors, max_faults",
        ),
        (
            {"errors": "no"},
            TypeError,
            "fault_schedules(): errors must be True or False; got 'no'",
        ),
        (
            {"max_faults": 0},
            ValueError,
            "fault_schedules(): max_faults must be a positive integer; got 0",
        ),
        (
            {"duplicates": False, "reorder": False, "empty_receives": False, "errors": False},
            ValueError,
            "fault_schedules(): every kind of fault is off (duplicates, reorder, "
            "empty_receives, errors), so every schedule would be empty; turn one on",
        ),
    ],
)
def test_bad_options_are_refused_when_the_strategy_is_made(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        fault_schedules(**options)
    assert str(caught.value) == message
