"""Tier 2: dead-letter fidelity: RedrivePolicy / RedriveAllowPolicy texts, what a move keeps."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import listed, system_attribute_names
from .redrive_helpers import dead_letter_pipe, queue_arn, redrive_policy

TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


def error_of(call: Any, **kwargs: Any) -> dict[str, Any]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    error: dict[str, Any] = caught.value.response["Error"]
    return error


def invalid_policy(text: str, reason: str) -> tuple[str, str]:
    return (
        "InvalidParameterValue",
        f"Value {text} for parameter RedrivePolicy is invalid. Reason: {reason}",
    )


def test_invalid_dead_letter_arn_rejected_before_lookup(fakesqs: FakeSQS, sqs: Any) -> None:
    """Recorded: test_invalid_dead_letter_arn_rejected_before_lookup."""
    policy = json.dumps({"deadLetterTargetArn": "dummy", "maxReceiveCount": 42})
    error = error_of(sqs.create_queue, QueueName="q", Attributes={"RedrivePolicy": policy})
    assert (error["Code"], error["Message"]) == invalid_policy(
        policy, "Dead-letter target ARN should be fully qualified ARN."
    )


def test_set_empty_redrive_policy(fakesqs: FakeSQS, sqs: Any) -> None:
    """Recorded: test_set_empty_redrive_policy[sqs]: an empty string clears the policy."""
    source, dlq = dead_letter_pipe(sqs)
    sqs.set_queue_attributes(QueueUrl=source, Attributes={"RedrivePolicy": ""})
    attributes = sqs.get_queue_attributes(QueueUrl=source, AttributeNames=["All"])["Attributes"]
    assert "RedrivePolicy" not in attributes
    assert listed(sqs.list_dead_letter_source_queues(QueueUrl=dlq), "queueUrls") == []
    sqs.send_message(QueueUrl=source, MessageBody="stays")
    for _ in range(3):
        assert sqs.receive_message(QueueUrl=source, VisibilityTimeout=0)["Messages"]


@pytest.mark.parametrize(
    "written",
    [
        '{"maxReceiveCount": "5", "deadLetterTargetArn": "%s"}',  # the count as text, spaced
        '{"deadLetterTargetArn":"%s","maxReceiveCount":"5"}',  # the AWS CLI examples' input
        '{ "deadLetterTargetArn" : "%s" , "maxReceiveCount" : 5 }',
    ],
)
def test_get_queue_attributes_answers_the_redrive_policy_as_aws_writes_it(
    sqs: Any, written: str
) -> None:
    """AWS CLI's examples: set with "maxReceiveCount":"1000", got back as :1000, compact."""
    dlq_arn = queue_arn(sqs, sqs.create_queue(QueueName="dlq")["QueueUrl"])
    url = sqs.create_queue(QueueName="src")["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedrivePolicy": written % dlq_arn})
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy"])
    assert attributes["Attributes"]["RedrivePolicy"] == (
        '{"deadLetterTargetArn":"%s","maxReceiveCount":5}' % dlq_arn  # noqa: UP031
    )


def test_dead_letter_queue_message_attributes(fakesqs: FakeSQS, sqs: Any) -> None:
    """Recorded: test_dead_letter_queue_message_attributes."""
    source, dlq = dead_letter_pipe(sqs)
    sqs.send_message(
        QueueUrl=source,
        MessageBody="message-1",
        MessageAttributes={"MyAttribute": {"StringValue": "foobar", "DataType": "String"}},
        MessageSystemAttributes={"AWSTraceHeader": {"StringValue": TRACE, "DataType": "String"}},
    )
    sqs.send_message(QueueUrl=source, MessageBody="message-2")
    wanted = {
        **system_attribute_names(
            "ApproximateFirstReceiveTimestamp",
            "ApproximateReceiveCount",
            "SentTimestamp",
            "AWSTraceHeader",
            "DeadLetterQueueSourceArn",
        ),
        "MessageAttributeNames": ["All"],
        "MaxNumberOfMessages": 10,
    }
    before = sqs.receive_message(QueueUrl=source, VisibilityTimeout=0, **wanted)["Messages"]
    assert [m["Attributes"]["ApproximateReceiveCount"] for m in before] == ["1", "1"]
    assert "DeadLetterQueueSourceArn" not in before[0]["Attributes"]
    assert "Messages" not in sqs.receive_message(QueueUrl=source, **wanted)  # both moved
    moved = sqs.receive_message(QueueUrl=dlq, **wanted)["Messages"]
    source_arn = queue_arn(sqs, source)
    assert [m["MessageId"] for m in moved] == [m["MessageId"] for m in before]
    first, second = moved
    assert first["MD5OfBody"] == "3d6b824fd8c1520e9a047d21fee6fb1f"
    assert first["MD5OfMessageAttributes"] == "adb59cd4678ea5a855436b949cd07ab6"
    assert first["MessageAttributes"] == {
        "MyAttribute": {"StringValue": "foobar", "DataType": "String"}
    }
    assert {k: v for k, v in first["Attributes"].items() if "Timestamp" not in k} == {
        "ApproximateReceiveCount": "2",
        "AWSTraceHeader": TRACE,
        "DeadLetterQueueSourceArn": source_arn,
    }
    assert second["MD5OfBody"] == "95ef155b66299d14edf7ed57c468c13b"
    assert "MessageAttributes" not in second
    assert {k: v for k, v in second["Attributes"].items() if "Timestamp" not in k} == {
        "ApproximateReceiveCount": "2",
        "DeadLetterQueueSourceArn": source_arn,
    }


def test_dead_letter_queue_with_fifo_and_content_based_deduplication(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    """Recorded: test_dead_letter_queue_with_fifo_and_content_based_deduplication[sqs]."""
    fifo = {"FifoQueue": "true", "ContentBasedDeduplication": "true"}
    dlq = sqs.create_queue(QueueName="dlq.fifo", Attributes=fifo)["QueueUrl"]
    source = sqs.create_queue(
        QueueName="source.fifo",
        Attributes={**fifo, "RedrivePolicy": redrive_policy(queue_arn(sqs, dlq))},
    )["QueueUrl"]
    sent = sqs.send_message(QueueUrl=source, MessageBody="test", MessageGroupId="g")
    assert sqs.receive_message(QueueUrl=source, VisibilityTimeout=0)["Messages"]
    assert "Messages" not in sqs.receive_message(QueueUrl=source)
    moved = sqs.receive_message(QueueUrl=dlq, **system_attribute_names("All"))["Messages"]
    assert [(m["MessageId"], m["Body"]) for m in moved] == [(sent["MessageId"], "test")]
    assert moved[0]["Attributes"]["MessageGroupId"] == "g"
    assert moved[0]["Attributes"]["DeadLetterQueueSourceArn"] == queue_arn(sqs, source)


@pytest.mark.parametrize(("fifo", "survives"), [(False, False), (True, True)])
def test_standard_keeps_the_enqueue_time_fifo_resets_it(
    fakesqs: FakeSQS, sqs: Any, fifo: bool, survives: bool
) -> None:
    suffix = ".fifo" if fifo else ""
    kind = {"FifoQueue": "true", "ContentBasedDeduplication": "true"} if fifo else {}
    dlq = sqs.create_queue(
        QueueName=f"dlq{suffix}", Attributes={**kind, "MessageRetentionPeriod": "60"}
    )["QueueUrl"]
    source = sqs.create_queue(
        QueueName=f"source{suffix}",
        Attributes={**kind, "RedrivePolicy": redrive_policy(queue_arn(sqs, dlq))},
    )["QueueUrl"]
    sqs.send_message(
        QueueUrl=source, MessageBody="old", **({"MessageGroupId": "g"} if fifo else {})
    )
    sqs.receive_message(QueueUrl=source, VisibilityTimeout=0)
    fakesqs.advance(50)
    sqs.receive_message(QueueUrl=source)  # moves it, 50 s after it was sent
    fakesqs.advance(20)  # 70 s after the send, 20 s after the move; the DLQ keeps 60 s
    assert ("Messages" in sqs.receive_message(QueueUrl=dlq)) is survives


@pytest.mark.parametrize(
    ("policy", "reason"),
    [
        (
            {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq"},
            "Redrive policy does not contain mandatory attribute: maxReceiveCount.",
        ),
        (
            {"maxReceiveCount": 5},
            "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.",
        ),
        (
            {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq", "maxReceiveCount": 0},
            "Invalid value for maxReceiveCount: 0, valid values are from 1 to 1000 both inclusive.",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq",
                "maxReceiveCount": 1001,
            },
            "Invalid value for maxReceiveCount: 1001, valid values are from 1 to 1000 both inclusive.",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq",
                "maxReceiveCount": "invalid",
            },
            "Invalid value for maxReceiveCount: invalid, valid values are from 1 to 1000 both inclusive.",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq",
                "maxReceiveCount": 5,
                "extra": 1,
            },
            "Only following attributes are supported: [maxReceiveCount, deadLetterTargetArn].",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sns:us-east-1:123456789012:topic",
                "maxReceiveCount": 5,
            },
            "Only SQS queues are valid resources for deadLetterTargetArn.",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq.fifo",
                "maxReceiveCount": 5,
            },
            "Dead-letter queue must be same type of queue as the source..",
        ),
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:missing",
                "maxReceiveCount": 5,
            },
            "Dead letter target does not exist.",
        ),
    ],
)
def test_redrive_policy_texts(
    fakesqs: FakeSQS, sqs: Any, queue_url: str, policy: dict[str, Any], reason: str
) -> None:
    sqs.create_queue(QueueName="dlq")
    text = json.dumps(policy)
    error = error_of(
        sqs.set_queue_attributes, QueueUrl=queue_url, Attributes={"RedrivePolicy": text}
    )
    assert (error["Code"], error["Message"]) == invalid_policy(text, reason)


def test_redrive_policy_that_is_not_json(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    error = error_of(
        sqs.set_queue_attributes, QueueUrl=queue_url, Attributes={"RedrivePolicy": "{nope"}
    )
    assert (error["Code"], error["Message"]) == (
        "InvalidAttributeValue",
        "Invalid value for the parameter RedrivePolicy. Reason: Redrive policy is not a valid JSON map.",
    )


@pytest.mark.parametrize(
    ("policy", "code", "message"),
    [
        (
            {"redrivePermission": "sometimes"},
            "InvalidAttributeValue",
            "Invalid value for the parameter RedriveAllowPolicy. Reason: Amazon SQS can't create the redrive allow policy, as it’s in an unsupported format.",  # noqa: RUF001
        ),
        (
            {"redrivePermission": "byQueue"},
            "InvalidParameterValue",
            'Value {"redrivePermission": "byQueue"} for parameter RedriveAllowPolicy is invalid. Reason: Amazon SQS can\'t create the redrive allow policy. When you specify the byQueue permission type, you must also specify one or more sourceQueueArns values.',
        ),
        (
            {"redrivePermission": "allowAll", "sourceQueueArns": ["arn:aws:sqs:us-east-1:1:x"]},
            "InvalidParameterValue",
            'Value {"redrivePermission": "allowAll", "sourceQueueArns": ["arn:aws:sqs:us-east-1:1:x"]} for parameter RedriveAllowPolicy is invalid. Reason: Amazon SQS can\'t create the redrive allow policy. To specify one or more source queue ARNs, you must set redrivePermission to byQueue.',
        ),
        (
            {
                "redrivePermission": "byQueue",
                "sourceQueueArns": [f"arn:aws:sqs:us-east-1:1:x{i}" for i in range(11)],
            },
            "InvalidParameterValue",
            "Reason: Amazon SQS can't create the redrive allow policy. The maximum number of source queue ARNs you can specify is 10.",
        ),
    ],
)
def test_redrive_allow_policy_texts(
    fakesqs: FakeSQS, sqs: Any, policy: dict[str, Any], code: str, message: str
) -> None:
    text = json.dumps(policy)
    error = error_of(sqs.create_queue, QueueName="dlq", Attributes={"RedriveAllowPolicy": text})
    assert error["Code"] == code
    assert error["Message"] == message or error["Message"].endswith(" " + message)


@pytest.mark.parametrize(
    ("permission", "allowed"),
    [("allowAll", True), ("denyAll", False), ("byQueue-listed", True), ("byQueue-other", False)],
)
def test_redrive_allow_policy_is_enforced(
    fakesqs: FakeSQS, sqs: Any, queue_url: str, permission: str, allowed: bool
) -> None:
    source_arn = queue_arn(sqs, queue_url)
    policy: dict[str, Any] = {"redrivePermission": permission.split("-")[0]}
    if permission == "byQueue-listed":
        policy["sourceQueueArns"] = [source_arn]
    if permission == "byQueue-other":
        policy["sourceQueueArns"] = [source_arn + "-other"]
    dlq = sqs.create_queue(QueueName="dlq", Attributes={"RedriveAllowPolicy": json.dumps(policy)})
    text = redrive_policy(queue_arn(sqs, dlq["QueueUrl"]))
    if allowed:
        sqs.set_queue_attributes(QueueUrl=queue_url, Attributes={"RedrivePolicy": text})
        return
    error = error_of(
        sqs.set_queue_attributes, QueueUrl=queue_url, Attributes={"RedrivePolicy": text}
    )
    assert (error["Code"], error["Message"]) == invalid_policy(
        text, "Source queue is not allowed by the RedriveAllowPolicy of the dead-letter queue."
    )


def test_dead_letter_queue_type_must_match_the_source(fakesqs: FakeSQS, sqs: Any) -> None:
    dlq = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    text = redrive_policy(queue_arn(sqs, dlq))
    error = error_of(
        sqs.create_queue,
        QueueName="source.fifo",
        Attributes={"FifoQueue": "true", "RedrivePolicy": text},
    )
    assert (error["Code"], error["Message"]) == invalid_policy(
        text, "Dead-letter queue must be same type of queue as the source.."
    )
