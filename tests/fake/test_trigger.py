"""Tier 2: `fakesqs.trigger(...)` drives handlers as Lambda's SQS event source or a YMQ trigger."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS, InvocationContext
from pytest_fakesqs.api.principals import iam_user

from ..api.conftest import make_client

START_MS = 1704067200000  # the fake's default start, 2024-01-01T00:00:00Z


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


class Recorder:
    """A handler that keeps every event and fails on bodies it is told to."""

    def __init__(self, *, fail_on: tuple[str, ...] = (), result: Any = None) -> None:
        self.events: list[dict[str, Any]] = []
        self.contexts: list[InvocationContext] = []
        self.fail_on = fail_on
        self.result = result

    def __call__(self, event: dict[str, Any], context: InvocationContext) -> Any:
        self.events.append(event)
        self.contexts.append(context)
        bodies = [r["body"] for r in event.get("Records", [])] or [
            m["details"]["message"]["body"] for m in event.get("messages", [])
        ]
        failing = [b for b in bodies if b in self.fail_on]
        if failing:
            raise RuntimeError(f"cannot handle {failing[0]}")
        return self.result(event) if callable(self.result) else self.result

    def bodies(self) -> list[list[str]]:
        return [[r["body"] for r in e["Records"]] for e in self.events]


@pytest.fixture
def sqs(fakesqs: FakeSQS) -> Any:
    return make_client()


def test_lambda_event_has_the_sqs_event_source_shape(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("orders")
    sent = sqs.send_message(
        QueueUrl=url,
        MessageBody="order-1",
        MessageAttributes={
            "kind": {"DataType": "String", "StringValue": "new"},
            "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01"},
        },
    )
    handler = Recorder()
    report = fakesqs.trigger("orders", handler)
    (record,) = handler.events[0]["Records"]
    assert record == {
        "messageId": sent["MessageId"],
        "receiptHandle": record["receiptHandle"],
        "body": "order-1",
        "attributes": {
            "ApproximateReceiveCount": "1",
            "SentTimestamp": str(START_MS),
            "SenderId": iam_user("AKIAFAKE", "123456789012").principal_id,
            "ApproximateFirstReceiveTimestamp": str(START_MS),
        },
        "messageAttributes": {
            "blob": {
                "binaryValue": base64.b64encode(b"\x00\x01").decode(),
                "dataType": "Binary",
                "stringListValues": [],
                "binaryListValues": [],
            },
            "kind": {
                "stringValue": "new",
                "dataType": "String",
                "stringListValues": [],
                "binaryListValues": [],
            },
        },
        "md5OfBody": md5("order-1"),
        "md5OfMessageAttributes": sent["MD5OfMessageAttributes"],
        "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:orders",
        "awsRegion": "us-east-1",
    }
    assert isinstance(record["receiptHandle"], str) and record["receiptHandle"]
    assert handler.contexts[0].invocation == 1
    assert handler.contexts[0].aws_request_id == handler.contexts[0].request_id
    assert (report.invocations, report.messages_processed, report.stopped) == (1, 1, "drained")
    assert len(fakesqs.queue("orders")) == 0


@pytest.mark.fakesqs(flavor="ymq")
def test_ymq_event_has_the_cloud_functions_trigger_shape(fakesqs: FakeSQS) -> None:
    ymq = make_client("ru-central1", "https://message-queue.api.cloud.yandex.net")
    url = ymq.create_queue(QueueName="event-queue")["QueueUrl"]
    sent = ymq.send_message(
        QueueUrl=url,
        MessageBody="message body",
        MessageAttributes={"messageAttributeKey": {"DataType": "String", "StringValue": "value"}},
    )
    handler = Recorder()
    fakesqs.trigger(url, handler, shape="ymq")
    arn = fakesqs.queue(url).arn
    assert handler.events == [
        {
            "messages": [
                {
                    "event_metadata": {
                        "event_id": sent["MessageId"],
                        "event_type": "yandex.cloud.events.messagequeue.QueueMessage",
                        "created_at": "2024-01-01T00:00:00.000000Z",
                    },
                    "details": {
                        "queue_id": arn,
                        "message": {
                            "message_id": sent["MessageId"],
                            "md5_of_body": "d29343907090dff4cec4a9a0efb80d20",
                            "body": "message body",
                            "attributes": {"SentTimestamp": str(START_MS)},
                            "message_attributes": {
                                "messageAttributeKey": {
                                    "stringValue": "value",
                                    "dataType": "String",
                                }
                            },
                            "md5_of_message_attributes": sent["MD5OfMessageAttributes"],
                        },
                    },
                }
            ]
        }
    ]
    assert arn.startswith("yrn:yc:ymq:ru-central1:") and arn.endswith(":event-queue")


def test_batches_are_up_to_batch_size_and_deleted_on_success(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("jobs")
    for i in range(7):
        sqs.send_message(QueueUrl=url, MessageBody=f"job-{i}")
    handler = Recorder()
    report = fakesqs.trigger("jobs", handler, batch_size=3)
    assert [len(b) for b in handler.bodies()] == [3, 3, 1]
    assert (report.invocations, report.messages_processed, report.retries) == (3, 7, 0)
    assert report.stopped == "drained"


def test_a_failed_batch_returns_after_its_visibility_timeout_then_dead_letters(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    dlq = fakesqs.create_queue("jobs-dlq")
    policy = json.dumps({"deadLetterTargetArn": fakesqs.queue(dlq).arn, "maxReceiveCount": 3})
    fakesqs.create_queue("jobs", VisibilityTimeout=30, RedrivePolicy=policy)
    url = sqs.get_queue_url(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="poison")
    start = fakesqs.now()
    handler = Recorder(fail_on=("poison",))
    report = fakesqs.trigger("jobs", handler)
    assert report.invocations == 3 and report.failed_invocations == 3
    assert (report.retries, report.dead_lettered, report.stopped) == (2, 1, "drained")
    assert report.errors[0] == "invocation 1: RuntimeError('cannot handle poison')"
    assert (fakesqs.now() - start).total_seconds() == 90  # three visibility timeouts
    assert fakesqs.queue("jobs-dlq").bodies() == ["poison"]
    assert str(report) == (
        "3 invocations (3 failed), 0 messages processed, 2 retries, 1 dead-lettered; "
        "stopped: drained"
    )


def test_partial_batch_response_deletes_all_but_the_failed(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("jobs", VisibilityTimeout=10)
    ids = {b: sqs.send_message(QueueUrl=url, MessageBody=b)["MessageId"] for b in "abc"}
    calls: list[int] = []

    def fail_b_once(event: dict[str, Any]) -> dict[str, Any]:
        calls.append(len(event["Records"]))
        if len(calls) == 1:
            return {"batchItemFailures": [{"itemIdentifier": ids["b"]}]}
        return {"batchItemFailures": []}

    report = fakesqs.trigger("jobs", Recorder(result=fail_b_once), report_batch_item_failures=True)
    assert calls == [3, 1]
    assert (report.messages_processed, report.retries, report.failed_invocations) == (3, 1, 0)


@pytest.mark.parametrize(
    "response",
    [{"batchItemFailures": [{"itemIdentifier": ""}]}, {"batchItemFailures": [{"id": "x"}]}, "ok"],
)
def test_a_malformed_partial_response_fails_the_whole_batch(
    fakesqs: FakeSQS, sqs: Any, response: Any
) -> None:
    url = fakesqs.create_queue("jobs")
    sqs.send_message(QueueUrl=url, MessageBody="a")
    report = fakesqs.trigger(
        "jobs", Recorder(result=response), report_batch_item_failures=True, max_invocations=1
    )
    assert (report.failed_invocations, report.messages_processed) == (1, 0)
    assert report.errors == [f"invocation 1: invalid batchItemFailures {response!r}"]
    assert report.stopped == "max_invocations"


def test_without_partial_responses_the_return_value_is_ignored(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("jobs")
    sqs.send_message(QueueUrl=url, MessageBody="a")
    report = fakesqs.trigger("jobs", Recorder(result={"batchItemFailures": "nonsense"}))
    assert report.messages_processed == 1


def test_stops_when_what_is_left_stays_in_flight_past_the_idle_limit(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    url = fakesqs.create_queue("jobs", VisibilityTimeout=600)
    sqs.send_message(QueueUrl=url, MessageBody="poison")
    report = fakesqs.trigger("jobs", Recorder(fail_on=("poison",)), idle_limit=60)
    assert (report.invocations, report.stopped) == (1, "idle")
    assert [m.state for m in fakesqs.queue("jobs").messages()] == ["in_flight"]


def test_batch_window_waits_on_the_clock_for_a_fuller_batch(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("jobs")
    sqs.send_message(QueueUrl=url, MessageBody="now")
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=5)
    sqs.send_message(QueueUrl=url, MessageBody="much later", DelaySeconds=60)
    start = fakesqs.now()
    handler = Recorder()
    fakesqs.trigger("jobs", handler, batch_size=3, batch_window=10)
    assert handler.bodies() == [["now", "later"], ["much later"]]
    # The second window opens at 60 s with one message and closes, still short, at 70 s.
    assert (fakesqs.now() - start).total_seconds() == 70


def test_a_long_job_outlives_its_visibility_timeout_and_runs_again(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    url = fakesqs.create_queue("jobs", VisibilityTimeout=1)
    sqs.send_message(QueueUrl=url, MessageBody="slow")
    runs: list[int] = []

    def slow_job(event: dict[str, Any], context: InvocationContext) -> None:
        runs.append(int(event["Records"][0]["attributes"]["ApproximateReceiveCount"]))
        if len(runs) == 1:
            fakesqs.advance(2)  # the job takes 2 s; the message became visible after 1 s

    report = fakesqs.trigger("jobs", slow_job)
    assert runs == [1, 2]
    assert (report.invocations, report.messages_processed, report.retries) == (2, 1, 1)


def test_fifo_order_is_kept_within_a_group(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("rooms.fifo", ContentBasedDeduplication=True)
    for body in ["a1", "b1", "a2", "b2", "a3"]:
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=body[0])
    handler = Recorder()
    fakesqs.trigger("rooms.fifo", handler, batch_size=2)
    seen = [b for batch in handler.bodies() for b in batch]
    assert [b for b in seen if b[0] == "a"] == ["a1", "a2", "a3"]
    assert [b for b in seen if b[0] == "b"] == ["b1", "b2"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"shape": "ymq", "report_batch_item_failures": True},
            "report_batch_item_failures is Lambda's partial batch response; "
            "a YMQ trigger retries the whole batch",
        ),
        (
            {"batch_size": 11},
            "Lambda needs batch_window >= 1 second when batch_size is above 10 "
            "(MaximumBatchingWindowInSeconds)",
        ),
        (
            {"batch_size": 0},
            "batch_size for a lambda trigger on a standard queue must be 1 to 10000; got 0",
        ),
        ({"shape": "sns"}, 'shape must be "lambda" or "ymq"; got \'sns\''),
        (
            {"batch_window": 301},
            "batch_window for a lambda trigger must be 0 to 300 seconds; got 301",
        ),
        ({"max_invocations": 0}, "max_invocations must be at least 1; got 0"),
    ],
)
def test_misuse_is_refused_with_a_sentence(
    fakesqs: FakeSQS, kwargs: dict[str, Any], message: str
) -> None:
    fakesqs.create_queue("jobs")
    with pytest.raises(ValueError) as excinfo:
        fakesqs.trigger("jobs", Recorder(), **kwargs)
    assert str(excinfo.value) == message


def test_a_handler_may_take_the_event_alone(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("jobs")
    sqs.send_message(QueueUrl=url, MessageBody="a")
    events: list[dict[str, Any]] = []
    report = fakesqs.trigger("jobs", events.append)
    assert [r["body"] for r in events[0]["Records"]] == ["a"]
    assert report.messages_processed == 1
