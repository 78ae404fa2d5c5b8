"""Tier 2: FIFO and validation rules the recordings do not cover, through boto3."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.api import LIMITS
from pytest_fakesqs.api.error_texts import ErrorText
from pytest_fakesqs.fake.facade import core_of


def test_aws_flavor_allows_120000_in_flight_on_standard_queues() -> None:
    assert LIMITS["aws"].standard_in_flight == 120_000
    assert LIMITS["aws"].fifo_in_flight is None  # FIFO slows down but never errors


def test_over_limit_past_the_in_flight_limit(fakesqs: FakeSQS, sqs: Any) -> None:
    # Counting, cheaply: the same rule with the limit lowered through the dialect's Limits.
    dialect = core_of(fakesqs).service.dialect
    dialect.limits = dataclasses.replace(dialect.limits, standard_in_flight=3)
    url = sqs.create_queue(QueueName="busy")["QueueUrl"]
    sqs.send_message_batch(
        QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": str(i)} for i in range(5)]
    )
    received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=3)["Messages"]
    with pytest.raises(ClientError) as error:
        sqs.receive_message(QueueUrl=url)
    answer = error.value.response["Error"]
    assert (answer["Code"], answer["Message"], answer["Type"]) == (
        "OverLimit",
        ErrorText.OVER_LIMIT.template,
        "Sender",
    )
    assert error.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    sqs.delete_message(QueueUrl=url, ReceiptHandle=received[0]["ReceiptHandle"])
    assert len(sqs.receive_message(QueueUrl=url)["Messages"]) == 1


def test_receive_request_attempt_id_replays_messages_and_handles(
    fakesqs: FakeSQS, sqs: Any, fifo_url: str
) -> None:
    for body in ("a", "b"):
        sqs.send_message(QueueUrl=fifo_url, MessageBody=body, MessageGroupId="g")
    first = sqs.receive_message(
        QueueUrl=fifo_url, MaxNumberOfMessages=10, ReceiveRequestAttemptId="retry-1"
    )["Messages"]
    fakesqs.advance(10)
    again = sqs.receive_message(
        QueueUrl=fifo_url, MaxNumberOfMessages=10, ReceiveRequestAttemptId="retry-1"
    )["Messages"]
    assert [(m["Body"], m["ReceiptHandle"]) for m in again] == [
        (m["Body"], m["ReceiptHandle"]) for m in first
    ]
    assert "Messages" not in sqs.receive_message(QueueUrl=fifo_url)


def test_receive_request_attempt_id_is_validated(sqs: Any, fifo_url: str) -> None:
    with pytest.raises(ClientError) as error:
        sqs.receive_message(QueueUrl=fifo_url, ReceiveRequestAttemptId="a" * 129)
    assert error.value.response["Error"]["Message"] == (
        f"Value {'a' * 129} for parameter ReceiveRequestAttemptId is invalid. Reason: "
        "ReceiveRequestAttemptId can only include alphanumeric and punctuation characters. "
        "1 to 128 in length."
    )


def test_each_send_keeps_its_own_xray_trace_header(sqs: Any, queue_url: str) -> None:
    traces = iter(["Root=1-00000001-a;Sampled=1", "Root=1-00000002-b;Sampled=1"])

    def add_trace_header(request: Any, **_: Any) -> None:
        request.headers["X-Amzn-Trace-Id"] = next(traces)

    sqs.meta.events.register("before-send.sqs.SendMessage", add_trace_header)
    first = sqs.send_message(QueueUrl=queue_url, MessageBody="one")
    sqs.send_message(QueueUrl=queue_url, MessageBody="two")
    received = sqs.receive_message(
        QueueUrl=queue_url, MaxNumberOfMessages=10, AttributeNames=["AWSTraceHeader"]
    )["Messages"]
    assert [m["Attributes"]["AWSTraceHeader"] for m in received] == [
        "Root=1-00000001-a;Sampled=1",
        "Root=1-00000002-b;Sampled=1",
    ]
    assert "MD5OfMessageSystemAttributes" in first


def test_system_attributes_do_not_change_the_attributes_md5(sqs: Any, queue_url: str) -> None:
    attributes = {"timestamp": {"StringValue": "1493147359900", "DataType": "Number"}}
    trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
    plain = sqs.send_message(QueueUrl=queue_url, MessageBody="test", MessageAttributes=attributes)
    traced = sqs.send_message(
        QueueUrl=queue_url,
        MessageBody="test",
        MessageAttributes=attributes,
        MessageSystemAttributes={"AWSTraceHeader": {"StringValue": trace, "DataType": "String"}},
    )
    assert plain["MD5OfMessageAttributes"] == traced["MD5OfMessageAttributes"]
    assert "MD5OfMessageSystemAttributes" not in plain
    # The value LocalStack's AWS-validated test expects for this header.
    assert traced["MD5OfMessageSystemAttributes"] == "5ae4d5d7636402d80f4eb6d213245a88"


def test_purge_clears_fifo_deduplication(sqs: Any) -> None:
    url = sqs.create_queue(QueueName="p.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    sqs.send_message(
        QueueUrl=url, MessageBody="message-1", MessageGroupId="g", MessageDeduplicationId="d"
    )
    sqs.purge_queue(QueueUrl=url)
    sqs.send_message(
        QueueUrl=url, MessageBody="message-2", MessageGroupId="g", MessageDeduplicationId="d"
    )
    assert [m["Body"] for m in sqs.receive_message(QueueUrl=url)["Messages"]] == ["message-2"]


def test_deduplication_id_on_a_standard_queue_is_refused(sqs: Any, queue_url: str) -> None:
    with pytest.raises(ClientError) as error:
        sqs.send_message(QueueUrl=queue_url, MessageBody="x", MessageDeduplicationId="d")
    assert error.value.response["Error"]["Message"] == (
        "Value d for parameter MessageDeduplicationId is invalid. Reason: The request include "
        "parameter that is not valid for this queue type."
    )


def test_per_message_delay_range_in_a_send_and_in_a_batch_entry(sqs: Any, queue_url: str) -> None:
    # AWS's text, as quoted from real answers in SDK issue reports.
    text = "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900."
    with pytest.raises(ClientError) as error:
        sqs.send_message(QueueUrl=queue_url, MessageBody="late", DelaySeconds=901)
    assert error.value.response["Error"]["Message"] == text
    result = sqs.send_message_batch(
        QueueUrl=queue_url,
        Entries=[
            {"Id": "ok", "MessageBody": "soon", "DelaySeconds": 900},
            {"Id": "late", "MessageBody": "late", "DelaySeconds": 901},
        ],
    )
    assert [entry["Id"] for entry in result["Successful"]] == ["ok"]
    assert result["Failed"] == [
        {"Id": "late", "SenderFault": True, "Code": "InvalidParameterValue", "Message": text}
    ]


_NAMED_VALUES: dict[str, Any] = {
    # What each call names, and the value it is given (a valid one, with `end` appended).
    "queue name": lambda sqs, url, fifo, end: sqs.create_queue(QueueName="orders" + end),
    "batch entry id": lambda sqs, url, fifo, end: sqs.send_message_batch(
        QueueUrl=url, Entries=[{"Id": "first" + end, "MessageBody": "x"}]
    ),
    "message group id": lambda sqs, url, fifo, end: sqs.send_message(
        QueueUrl=fifo, MessageBody="x", MessageGroupId="grp" + end
    ),
    "deduplication id": lambda sqs, url, fifo, end: sqs.send_message(
        QueueUrl=fifo, MessageBody="x", MessageGroupId="grp", MessageDeduplicationId="ddp" + end
    ),
    "receive attempt id": lambda sqs, url, fifo, end: sqs.receive_message(
        QueueUrl=fifo, ReceiveRequestAttemptId="att" + end
    ),
    "attribute name": lambda sqs, url, fifo, end: sqs.send_message(
        QueueUrl=url,
        MessageBody="x",
        MessageAttributes={"colour" + end: {"DataType": "String", "StringValue": "red"}},
    ),
    "attribute type": lambda sqs, url, fifo, end: sqs.send_message(
        QueueUrl=url,
        MessageBody="x",
        MessageAttributes={"colour": {"DataType": "String" + end, "StringValue": "red"}},
    ),
    "permission label": lambda sqs, url, fifo, end: sqs.add_permission(
        QueueUrl=url, Label="lbl" + end, AWSAccountIds=["210987654321"], Actions=["SendMessage"]
    ),
}


@pytest.mark.parametrize("named", sorted(_NAMED_VALUES))
def test_a_trailing_newline_is_refused_like_any_other_bad_character(
    named: str, sqs: Any, queue_url: str, fifo_url: str
) -> None:
    # The checks match whole values: a pattern anchored with `$` also matches before a final
    # "\n", so a name read from a file without strip() passed here and failed against AWS.
    call = _NAMED_VALUES[named]
    call(sqs, queue_url, fifo_url, "")
    refusals = {}
    for end in (" ", "\n"):
        with pytest.raises(ClientError) as error:
            call(sqs, queue_url, fifo_url, end)
        refusals[end] = error.value.response["Error"]
    assert refusals["\n"]["Code"] == refusals[" "]["Code"]
    for value in ("grp", "ddp", "att", "lbl"):  # the texts that quote the value
        refusals[" "]["Message"] = refusals[" "]["Message"].replace(f"{value} ", f"{value}\n", 1)
    assert refusals["\n"]["Message"] == refusals[" "]["Message"]
