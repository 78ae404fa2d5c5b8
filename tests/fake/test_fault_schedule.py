"""Tier 2: fault schedules through real boto3 clients: each kind of fault, what `fired` says,
retries within the client's budget, FIFO guarantees kept, and an exact replay."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.config import Config

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.fake.fault_schedule import (
    CallError,
    Duplicate,
    EmptyReceive,
    FaultSchedule,
    Reorder,
)

from ..api.conftest import make_client


def client(config: Config | None = None) -> Any:
    return boto3.client(
        "sqs",
        region_name="us-east-1",
        aws_access_key_id="a",
        aws_secret_access_key="b",
        config=config,
    )


def drain(sqs: Any, url: str, *, batch: int = 10) -> list[str]:
    """Receive and delete until a short poll comes back empty; the bodies in order received."""
    bodies: list[str] = []
    while messages := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=batch).get("Messages"):
        for message in messages:
            bodies.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return bodies


def publish(sqs: Any, url: str, *bodies: str) -> None:
    for body in bodies:
        sqs.send_message(QueueUrl=url, MessageBody=body)


def test_a_duplicate_comes_again_after_the_original_was_deleted() -> None:
    schedule = FaultSchedule(Duplicate(delivery=1))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "order-1", "order-2")
        assert drain(sqs, url) == ["order-1", "order-2", "order-1"]
    assert schedule.fired == ["duplicate of message 1 (order-1), visible again at +0s"]


def test_a_late_duplicate_is_delayed_and_fired_says_when() -> None:
    schedule = FaultSchedule(Duplicate(delivery=2, delay=45))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "order-1", "order-2")
        assert drain(sqs, url) == ["order-1", "order-2"]
        fake.advance(44)
        assert drain(sqs, url) == []  # the copy appears 45s after the delivery
        fake.advance(1)
        assert drain(sqs, url) == ["order-2"]
    assert schedule.fired == ["duplicate of message 2 (order-2), visible again at +45s"]


def test_a_reorder_hands_a_later_message_out_first() -> None:
    schedule = FaultSchedule(Reorder(receive=1, first=3))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "a", "b", "c", "d")
        assert drain(sqs, url, batch=1) == ["c", "a", "b", "d"]
    assert schedule.fired == ["message 3 (c) handed out before message 1 (a)"]


def test_a_reorder_counts_only_receives_with_a_choice_and_takes_the_last_if_fewer() -> None:
    schedule = FaultSchedule(Reorder(receive=2, first=9))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "a", "b", "c")
        # Receives with a choice: [a b c] (1st), [b c] (2nd, reordered), then [b] has none.
        assert drain(sqs, url, batch=1) == ["a", "c", "b"]
    assert schedule.fired == ["message 3 (c) handed out before message 2 (b)"]


def test_an_empty_short_poll_counts_only_polls_that_had_messages() -> None:
    schedule = FaultSchedule(EmptyReceive(poll=1))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        assert "Messages" not in sqs.receive_message(QueueUrl=url)  # empty anyway: no count
        publish(sqs, url, "order-1")
        assert "Messages" not in sqs.receive_message(QueueUrl=url)  # the first with messages
        assert drain(sqs, url) == ["order-1"]
        long_poll = FaultSchedule(EmptyReceive(poll=1))
        fake.use_faults(long_poll)
        url = fake.create_queue("orders")
        publish(sqs, url, "order-2")
        assert len(sqs.receive_message(QueueUrl=url, WaitTimeSeconds=5)["Messages"]) == 1
    assert schedule.fired == ["short poll of orders came back empty (1 message visible)"]
    assert long_poll.fired == []  # a long poll is never emptied


def test_an_error_is_retried_by_botocore_and_shows_in_calls() -> None:
    schedule = FaultSchedule(CallError(call=2, code="ServiceUnavailable", times=2))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "order-1", "order-2")
        calls = [(call.action, call.error_code) for call in fake.calls()]
        assert calls == [
            ("SendMessage", None),
            ("SendMessage", "ServiceUnavailable"),
            ("SendMessage", "ServiceUnavailable"),
            ("SendMessage", None),
        ]
        assert fake.queue("orders").bodies() == ["order-1", "order-2"]  # sent once: no dedup
    assert schedule.fired == [
        "call 2 (SendMessage on orders) failed 2 times in a row with ServiceUnavailable "
        "(HTTP 503), retried by the client"
    ]


@pytest.mark.parametrize(
    ("config", "failures"),
    [
        (Config(retries={"mode": "legacy"}), 4),  # 5 attempts
        (Config(retries={"mode": "legacy", "max_attempts": 2}), 2),  # 3 attempts
        (Config(retries={"mode": "standard"}), 2),  # 3 attempts
        (Config(retries={"mode": "standard", "total_max_attempts": 4}), 3),
    ],
)
def test_errors_in_a_row_never_exceed_what_the_retry_mode_absorbs(
    config: Config | None, failures: int
) -> None:
    schedule = FaultSchedule(CallError(call=1, code="InternalError", times=4))
    with fake_sqs(faults=schedule) as fake:
        sqs = client(config)
        url = fake.create_queue("orders")
        sent = sqs.send_message(QueueUrl=url, MessageBody="order-1")
        assert sent["ResponseMetadata"]["RetryAttempts"] == failures
        assert [call.error_code for call in fake.calls()] == ["InternalError"] * failures + [None]
        assert all(call.injected for call in fake.calls()[:-1])


def test_the_default_retry_mode_of_this_botocore_is_respected_too() -> None:
    sqs = client()  # legacy (5 attempts) before botocore 1.40-ish, standard (3) since
    failures = 4 if sqs.meta.config.retries.get("mode", "legacy") == "legacy" else 2
    schedule = FaultSchedule(CallError(call=1, code="RequestThrottled", times=4))
    with fake_sqs(faults=schedule) as fake:
        url = fake.create_queue("orders")
        sent = sqs.send_message(QueueUrl=url, MessageBody="order-1")
        assert sent["ResponseMetadata"]["RetryAttempts"] == failures


@pytest.mark.parametrize("code", ["RequestThrottled", "ThrottlingException", "InternalError"])
def test_every_error_a_schedule_injects_is_one_botocore_retries(code: str) -> None:
    schedule = FaultSchedule(CallError(call=1, code=code))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        sent = sqs.send_message(QueueUrl=url, MessageBody="order-1")
        assert sent["ResponseMetadata"]["RetryAttempts"] == 1
        assert fake.calls()[0].error_code == code


def test_a_retry_is_part_of_its_call_so_the_next_call_is_counted_once() -> None:
    schedule = FaultSchedule(CallError(call=1), CallError(call=2, code="InternalError"))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "order-1", "order-2")
        assert [(c.action, c.error_code) for c in fake.calls()] == [
            ("SendMessage", "RequestThrottled"),
            ("SendMessage", None),
            ("SendMessage", "InternalError"),
            ("SendMessage", None),
        ]


def test_fifo_queues_keep_their_order_and_are_never_duplicated() -> None:
    schedule = FaultSchedule(
        Duplicate(delivery=1), Reorder(receive=1, first=2), Duplicate(delivery=2)
    )
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders.fifo", FifoQueue=True, ContentBasedDeduplication=True)
        for body in ("a", "b", "c"):
            sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="g")
        sqs.send_message(QueueUrl=url, MessageBody="a", MessageGroupId="g")  # deduplicated
        assert drain(sqs, url, batch=1) == ["a", "b", "c"]
    assert schedule.fired == []


def test_the_same_schedule_replays_the_same_deliveries() -> None:
    schedule = FaultSchedule(
        Duplicate(delivery=2, delay=3),
        Reorder(receive=1, first=4),
        EmptyReceive(poll=2),
        CallError(call=5, code="RequestThrottled", times=2),
        Duplicate(delivery=4),
    )

    def run() -> tuple[list[str], list[str]]:
        with fake_sqs(faults=schedule) as fake:
            sqs = client()
            url = fake.create_queue("orders")
            publish(sqs, url, *(f"order-{n}" for n in range(1, 7)))
            seen = drain(sqs, url, batch=2)
            fake.advance(3)
            return seen + drain(sqs, url, batch=2), schedule.fired

    first, fired = run()
    assert run() == (first, fired)
    assert len(fired) == 5


def test_fired_is_live_during_the_run_and_the_repr_shows_it() -> None:
    schedule = FaultSchedule(Duplicate(delivery=1), EmptyReceive(poll=9))
    assert repr(schedule) == "FaultSchedule(Duplicate(delivery=1, delay=0), EmptyReceive(poll=9))"
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, "order-1")
        sqs.receive_message(QueueUrl=url)
        assert schedule.fired == ["duplicate of message 1 (order-1), visible again at +0s"]
        assert fake.fired_faults() == schedule.fired
    assert repr(schedule) == (
        "FaultSchedule(Duplicate(delivery=1, delay=0), EmptyReceive(poll=9), "
        "fired=['duplicate of message 1 (order-1), visible again at +0s'])"
    )
    # An equal schedule not yet run shows what the last run of its equal fired: it replays it.
    again = FaultSchedule(Duplicate(delivery=1), EmptyReceive(poll=9))
    assert again == schedule
    assert repr(again) == repr(schedule)


def test_long_bodies_are_cut_in_what_fired() -> None:
    schedule = FaultSchedule(Duplicate(delivery=1))
    with fake_sqs(faults=schedule) as fake:
        sqs = client()
        url = fake.create_queue("orders")
        publish(sqs, url, '{"order": "order-1",\n "amount": 30, "currency": "EUR"}')
        drain(sqs, url)
    assert schedule.fired == [
        'duplicate of message 1 ({"order": "order-1", "a…), visible again at +0s'
    ]


def test_use_faults_starts_the_fake_afresh(fakesqs: FakeSQS) -> None:
    sqs = make_client()
    fakesqs.create_queue("orders")
    fakesqs.use_faults(FaultSchedule(Duplicate(delivery=1)))
    with pytest.raises(LookupError):
        fakesqs.queue("orders")
    url = fakesqs.create_queue("orders")
    publish(sqs, url, "order-1")
    assert drain(sqs, url) == ["order-1", "order-1"]


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (lambda: Duplicate(delivery=0), "Duplicate: delivery counts opportunities from 1; got 0"),
        (lambda: Duplicate(delivery=1, delay=-1), "Duplicate: delay must be >= 0 seconds; got -1"),
        (lambda: Reorder(receive=1, first=1), "Reorder: first must be 2 or more"),
        (lambda: EmptyReceive(poll=True), "EmptyReceive: poll counts opportunities from 1"),
        (
            lambda: CallError(call=1, code="OverLimit"),
            "CallError: code must be an error clients retry, one of RequestThrottled, "
            "ThrottlingException, InternalError, ServiceUnavailable; got 'OverLimit'",
        ),
        (
            lambda: CallError(call=1, code="RequestThrotled"),
            "CallError: code must be an error clients retry, one of RequestThrottled, "
            "ThrottlingException, InternalError, ServiceUnavailable; got 'RequestThrotled'; "
            "did you mean 'RequestThrottled'?",
        ),
        (lambda: CallError(call=1, times=5), "CallError: times must be 1 to 4; got 5"),
    ],
)
def test_planned_faults_refuse_bad_values(fault: Any, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        fault()
    assert str(caught.value).startswith(message)


def test_a_schedule_takes_planned_faults_only() -> None:
    with pytest.raises(TypeError, match=r"^FaultSchedule takes Duplicate, Reorder, EmptyReceive"):
        FaultSchedule("duplicate")  # type: ignore[arg-type]


def test_faults_must_be_a_schedule_and_excludes_the_probabilities() -> None:
    with pytest.raises(TypeError) as caught:
        fake_sqs(faults=[Duplicate(delivery=1)])
    assert str(caught.value) == (
        "faults must be a FaultSchedule (drawn by pytest_fakesqs.strategies.fault_schedules(), "
        "or FaultSchedule(...)); got [Duplicate(delivery=1, delay=0)]"
    )
    with pytest.raises(ValueError) as refused:
        fake_sqs(faults=FaultSchedule(), duplicate_delivery=0.5, standard_order="shuffled")
    assert str(refused.value) == (
        "faults= and duplicate_delivery=0.5, standard_order='shuffled' are mutually exclusive: "
        "a FaultSchedule decides every fault itself; drop duplicate_delivery and standard_order "
        "(set on the marker, fake_sqs() or the ini file as fakesqs_<option>) or faults="
    )
