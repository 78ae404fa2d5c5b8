"""Recorded AWS scenarios whose recording is empty: AWS was checked by the test's own
assertions, so these replay the calls and assert the same outcomes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .recorded import RECORDED, variant


def recorded_nothing(scenario: str) -> None:
    if RECORDED:
        assert RECORDED[scenario] == {}


def counts(sqs: Any, url: str) -> tuple[int, int]:
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"]
    return int(attributes[names[0]]), int(attributes[names[1]])


def test_approximate_number_of_messages_not_visible(sqs: Any, queue_url: str) -> None:
    recorded_nothing(f"test_approximate_number_of_messages_not_visible[{variant(sqs)}]")
    for body in ("a", "b", "c"):
        sqs.send_message(QueueUrl=queue_url, MessageBody=body)
    received = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=2)["Messages"]
    assert counts(sqs, queue_url) == (1, 2)
    sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=received[0]["ReceiptHandle"])
    assert counts(sqs, queue_url) == (1, 1)


def test_fifo_approximate_number_of_messages_not_visible(sqs: Any, fifo_url: str) -> None:
    recorded_nothing(f"test_fifo_approximate_number_of_messages_not_visible[{variant(sqs)}]")
    for body, group in (("g1-m1", "1"), ("g1-m2", "1"), ("g1-m3", "1"), ("g2", "2"), ("g3", "3")):
        sqs.send_message(QueueUrl=fifo_url, MessageBody=body, MessageGroupId=group)
    received = sqs.receive_message(QueueUrl=fifo_url, MaxNumberOfMessages=4)["Messages"]
    assert [m["Body"] for m in received] == ["g1-m1", "g1-m2", "g1-m3", "g2"]
    assert counts(sqs, fifo_url) == (1, 4)
    for message in received:
        sqs.delete_message(QueueUrl=fifo_url, ReceiptHandle=message["ReceiptHandle"])
    assert counts(sqs, fifo_url) == (1, 0)


def test_fifo_delete_message_with_expired_receipt_handle(fakesqs: FakeSQS, sqs: Any) -> None:
    recorded_nothing(f"test_fifo_delete_message_with_expired_receipt_handle[{variant(sqs)}]")
    url = sqs.create_queue(
        QueueName="expired.fifo",
        Attributes={
            "FifoQueue": "true",
            "VisibilityTimeout": "1",
            "ContentBasedDeduplication": "true",
        },
    )["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="g1-m1", MessageGroupId="1")
    handle = sqs.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    fakesqs.advance(2)
    with pytest.raises(ClientError) as error:
        sqs.delete_message(QueueUrl=url, ReceiptHandle=handle)
    assert error.value.response["Error"]["Message"] == (
        f"Value {handle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired."
    )


def test_message_deduplication_id_success(sqs: Any, fifo_url: str) -> None:
    recorded_nothing("test_message_deduplication_id_success")
    punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    for dedup_id in ("a", "a" * 128, punctuation, "ABC-123_xyz"):
        sent = sqs.send_message(
            QueueUrl=fifo_url,
            MessageBody=dedup_id,
            MessageGroupId="g",
            MessageDeduplicationId=dedup_id,
        )
        assert sent["MessageId"]


def test_dead_letter_queue_with_fifo_and_content_based_deduplication(sqs: Any) -> None:
    recorded_nothing(
        f"test_dead_letter_queue_with_fifo_and_content_based_deduplication[{variant(sqs)}]"
    )
    fifo = {"FifoQueue": "true", "ContentBasedDeduplication": "true"}
    dlq = sqs.create_queue(
        QueueName="test-dlq.fifo", Attributes={**fifo, "MessageRetentionPeriod": "1209600"}
    )["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    url = sqs.create_queue(
        QueueName="test-queue.fifo",
        Attributes={
            **fifo,
            "VisibilityTimeout": "60",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 2}),
        },
    )["QueueUrl"]
    message_id = sqs.send_message(QueueUrl=url, MessageBody="foobar", MessageGroupId="1")[
        "MessageId"
    ]
    for _ in range(3):  # twice is the maximum; the third receive moves it
        sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1, VisibilityTimeout=0)
    messages = sqs.receive_message(QueueUrl=dlq, WaitTimeSeconds=10)["Messages"]
    assert [(m["MessageId"], m["Body"]) for m in messages] == [(message_id, "foobar")]
