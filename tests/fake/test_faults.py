"""Tier 2: injected faults as the client sees them, including botocore's own retries."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol import CallRecord

from ..api.conftest import QUERY_CLIENT, error_class, make_client
from ..retry_log import logged_back_offs


def record_calls(fakesqs: FakeSQS) -> list[CallRecord]:
    calls: list[CallRecord] = []
    core_of(fakesqs).handler.listeners.append(calls.append)
    return calls


def test_throttled_send_succeeds_within_the_retry_budget(
    fakesqs: FakeSQS, sqs: Any, queue_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="botocore.endpoint")
    calls = record_calls(fakesqs)
    before, started = fakesqs.now(), time.monotonic()
    # Two failures fit any default budget (standard mode: 3 attempts; legacy: 5).
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=2)
    sqs.send_message(QueueUrl=queue_url, MessageBody="eventually")
    assert [c.error_code for c in calls] == ["RequestThrottled"] * 2 + [None]
    assert [c.injected for c in calls] == [True, True, False]
    assert fakesqs.queue("work").bodies() == ["eventually"]
    assert fakesqs.now() > before  # the back-off moved the virtual clock...
    assert time.monotonic() - started < 1.0  # ...instead of sleeping
    # ...by what botocore's debug log says it slept, as botocore's own retry logs it.
    back_offs = logged_back_offs(caplog, "botocore.endpoint")
    assert len(back_offs) == 2
    moved = (fakesqs.now() - before).total_seconds()
    assert moved == pytest.approx(sum(back_offs), abs=1e-5)  # now() is to the microsecond


@pytest.mark.fakesqs(clock="real")
def test_on_a_wall_clock_the_back_off_is_slept_as_botocore_would(
    fakesqs: FakeSQS,
    sqs: Any,
    queue_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="botocore.endpoint")
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # botocore's own sleep, recorded
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=2)
    sent = sqs.send_message(QueueUrl=queue_url, MessageBody="eventually")
    assert sent["ResponseMetadata"]["RetryAttempts"] == 2
    assert len(slept) == 2 and all(0 <= seconds <= 20 for seconds in slept)
    # Each sleep is logged as botocore's own retry logs it.
    assert logged_back_offs(caplog, "botocore.endpoint") == pytest.approx(slept)
    assert fakesqs.queue("work").bodies() == ["eventually"]


def test_throttled_send_beyond_the_retry_budget_raises(fakesqs: FakeSQS, queue_url: str) -> None:
    sqs = make_client_with(Config(retries={"mode": "legacy", "max_attempts": 4}))
    fakesqs.fail_next("SendMessage", times=6)  # 5 attempts in all, then it gives up
    with pytest.raises(error_class(sqs, "RequestThrottled")) as caught:
        sqs.send_message(QueueUrl=queue_url, MessageBody="never")
    assert caught.value.response["Error"]["Code"] == "RequestThrottled"
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert caught.value.response["ResponseMetadata"]["RetryAttempts"] == 4
    assert fakesqs.queue("work").bodies() == []
    # The sixth failure is spent on the next call's first attempt; its retry succeeds.
    sent = sqs.send_message(QueueUrl=queue_url, MessageBody="next")
    assert sent["ResponseMetadata"]["RetryAttempts"] == 1
    assert fakesqs.queue("work").bodies() == ["next"]


def test_standard_retry_mode_budget(fakesqs: FakeSQS, queue_url: str) -> None:
    sqs = make_client_with(Config(retries={"mode": "standard", "total_max_attempts": 3}))
    fakesqs.fail_next("SendMessage", "InternalError", times=3)
    with pytest.raises(ClientError) as caught:
        sqs.send_message(QueueUrl=queue_url, MessageBody="x")
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    assert caught.value.response["Error"]["Code"] == "InternalError"
    fakesqs.fail_next("SendMessage", "ServiceUnavailable", times=2)
    sqs.send_message(QueueUrl=queue_url, MessageBody="x")


def make_client_with(config: Config) -> Any:
    import boto3

    return boto3.client(
        "sqs",
        region_name="us-east-1",
        aws_access_key_id="a",
        aws_secret_access_key="b",
        config=config,
    )


def test_kms_throttling_has_its_exact_wire_shape(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    fakesqs.fail_next("ReceiveMessage", "KMS.ThrottlingException", times=1)
    with pytest.raises(error_class(sqs, "KmsThrottled")) as caught:
        sqs.receive_message(QueueUrl=queue_url)
    error = caught.value.response["Error"]
    assert error["Code"] == "KMS.ThrottlingException"
    if not QUERY_CLIENT:  # JSON answers name the shape too; XML has only the code
        assert error["QueryErrorCode"] == "KmsThrottled"


def test_over_limit_is_403_and_not_retried(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    fakesqs.fail_next("ReceiveMessage", "OverLimit")
    with pytest.raises(sqs.exceptions.OverLimit) as caught:
        sqs.receive_message(QueueUrl=queue_url)
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert caught.value.response["ResponseMetadata"]["RetryAttempts"] == 0


def test_fail_next_targets_one_queue(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    other = sqs.create_queue(QueueName="other")["QueueUrl"]
    fakesqs.fail_next("DeleteMessage", "InvalidSecurity", queue="work")
    sqs.send_message(QueueUrl=other, MessageBody="o")
    sqs.send_message(QueueUrl=queue_url, MessageBody="w")
    other_handle = sqs.receive_message(QueueUrl=other)["Messages"][0]["ReceiptHandle"]
    sqs.delete_message(QueueUrl=other, ReceiptHandle=other_handle)
    work = sqs.receive_message(QueueUrl=queue_url)["Messages"][0]
    with pytest.raises(error_class(sqs, "InvalidSecurity")):
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=work["ReceiptHandle"])
    history = fakesqs.queue("work").in_flight()
    assert [m.body for m in history] == ["w"]
    message = core_of(fakesqs).broker.get(fakesqs.key("work")).find(work["MessageId"])
    assert message is not None
    assert ("injected error", "InvalidSecurity") in [
        (event.value, detail) for _, event, detail in message.timeline()
    ]
    sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=work["ReceiptHandle"])


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (("SendMesage",), {}, ValueError, "unknown SQS action 'SendMesage'; actions: "),
        (("SendMessage", "Oops"), {}, ValueError, "cannot inject 'Oops'; injectable codes: "),
        (("SendMessage",), {"times": 0}, ValueError, "times must be a positive integer; got 0"),
        (("SendMessage",), {"queue": "nope"}, LookupError, "no queue named 'nope'"),
    ],
)
def test_fail_next_refuses_misuse(
    fakesqs: FakeSQS,
    args: tuple[str, ...],
    kwargs: dict[str, Any],
    error: type[Exception],
    message: str,
) -> None:
    with pytest.raises(error) as caught:
        fakesqs.fail_next(*args, **kwargs)
    assert str(caught.value).startswith(message)


def test_a_misspelt_action_or_code_is_told_the_closest_one_after_the_list(fakesqs: FakeSQS) -> None:
    with pytest.raises(ValueError, match=r"UntagQueue; did you mean 'SendMessage'\?$"):
        fakesqs.fail_next("SendMesage")
    with pytest.raises(ValueError, match=r"UntagQueue$"):  # nothing close: no guess
        fakesqs.fail_next("Frobnicate")
    with pytest.raises(ValueError, match=r"^cannot inject 'RequestThrotled'; injectable codes: "):
        fakesqs.fail_next("SendMessage", "RequestThrotled")
    with pytest.raises(
        ValueError, match=r"ThrottlingException; did you mean 'RequestThrottled'\?$"
    ):
        fakesqs.fail_next("SendMessage", "RequestThrotled")


def test_calls_are_intercepted_only_once_there_is_something_to_inject(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    handler = core_of(fakesqs).handler
    assert handler.interceptors == []  # nothing configured: no call pays for the check
    assert len(handler.listeners) == 2  # the call log and the sleep hint; no Policy to refuse
    seen: list[str] = []

    def own(request: Any, ctx: Any, wire: Any) -> None:  # a test's own, added first
        seen.append(request.action)

    handler.interceptors.append(own)
    fakesqs.fail_next("SendMessage", "RequestThrottled")
    fakesqs.fail_next("SendMessage", "RequestThrottled")  # a second asks for no second check
    assert len(handler.interceptors) == 2 and handler.interceptors[1] is own
    sqs.send_message(QueueUrl=queue_url, MessageBody="after two throttles")
    # The injector answers first: the test's own sees only the attempt that got through.
    assert seen == ["SendMessage"]
    assert fakesqs.queue("work").bodies() == ["after two throttles"]


def test_a_fault_schedule_intercepts_from_the_start() -> None:
    from pytest_fakesqs.strategies import FaultSchedule

    with fake_sqs(faults=FaultSchedule()) as fake:
        assert len(core_of(fake).handler.interceptors) == 1


def test_duplicate_next_delivers_a_deleted_message_again(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    calls = record_calls(fakesqs)
    sqs.send_message(QueueUrl=queue_url, MessageBody="once")
    fakesqs.duplicate_next("work")
    first = sqs.receive_message(QueueUrl=queue_url)["Messages"][0]
    assert calls[-1].injected
    assert calls[-1].extra["faults"][0]["fault"] == "duplicate_delivery"
    sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=first["ReceiptHandle"])
    again = sqs.receive_message(QueueUrl=queue_url, AttributeNames=["ApproximateReceiveCount"])
    duplicate = again["Messages"][0]
    assert (duplicate["MessageId"], duplicate["Body"]) == (first["MessageId"], "once")
    assert duplicate["Attributes"]["ApproximateReceiveCount"] == "2"
    assert duplicate["ReceiptHandle"] != first["ReceiptHandle"]


def test_duplicate_next_refuses_fifo_queues(fakesqs: FakeSQS, fifo_url: str) -> None:
    with pytest.raises(
        ValueError, match=r"work\.fifo is a FIFO queue: SQS delivers FIFO messages exactly once"
    ):
        fakesqs.duplicate_next("work.fifo")


def deliveries(seed: int) -> list[tuple[str, str]]:
    with fake_sqs(seed=seed, duplicate_delivery=0.5, standard_order="shuffled") as fake:
        sqs = make_client()
        url = fake.create_queue("seeded")
        for index in range(20):
            sqs.send_message(QueueUrl=url, MessageBody=f"m{index}")
        seen: list[tuple[str, str]] = []
        while messages := sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["ApproximateReceiveCount"]
        ).get("Messages"):
            for message in messages:
                seen.append((message["Body"], message["Attributes"]["ApproximateReceiveCount"]))
                sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        assert fake.seed == seed
        return seen


def test_the_same_seed_gives_the_same_deliveries() -> None:
    first = deliveries(42)
    assert first == deliveries(42)
    assert first != deliveries(43)
    assert len(first) > 20  # some messages were duplicated
    assert {body for body, _ in first} == {f"m{i}" for i in range(20)}


def test_empty_receives_option(sqs: Any) -> None:
    with fake_sqs(empty_receives=1.0) as fake:
        url = fake.create_queue("sampled")
        sqs.send_message(QueueUrl=url, MessageBody="there")
        assert "Messages" not in sqs.receive_message(QueueUrl=url)
        assert (
            sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1)["Messages"][0]["Body"] == "there"
        )


def test_injected_over_limit_says_what_the_real_limit_says(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    from pytest_fakesqs.api.error_texts import ErrorText

    fakesqs.fail_next("ReceiveMessage", "OverLimit")
    with pytest.raises(sqs.exceptions.OverLimit) as caught:
        sqs.receive_message(QueueUrl=queue_url)
    assert caught.value.response["Error"]["Message"] == ErrorText.OVER_LIMIT.template
