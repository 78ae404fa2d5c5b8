"""Recorded AWS scenarios: FIFO queues (groups, deduplication, receipts) and dead letters."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from .recorded import Recording, system_names_parameter

FIFO = {"FifoQueue": "true"}
CBD = {**FIFO, "ContentBasedDeduplication": "true"}
HIGH_THROUGHPUT = {"DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"}
REGULAR_THROUGHPUT = {"DeduplicationScope": "queue", "FifoThroughputLimit": "perQueue"}


def fifo_queue(sqs: Any, attributes: dict[str, str], name: str = "q.fifo") -> str:
    url: str = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    return url


def test_fifo_empty_message_groups_added_back_to_queue(sqs: Any) -> None:
    rec = Recording("test_fifo_empty_message_groups_added_back_to_queue[{p}]", sqs)
    url = fifo_queue(sqs, CBD)
    sqs.send_message(QueueUrl=url, MessageBody="Message 1", MessageGroupId="group")
    first = rec.match("inital-fifo-receive", sqs.receive_message(QueueUrl=url))
    sqs.delete_message(QueueUrl=url, ReceiptHandle=first["Messages"][0]["ReceiptHandle"])
    rec.match("empty-fifo-receive", sqs.receive_message(QueueUrl=url))
    sqs.send_message(QueueUrl=url, MessageBody="Message 2", MessageGroupId="group")
    rec.match("final-fifo-receive", sqs.receive_message(QueueUrl=url))
    rec.verify()


def test_fifo_queue_send_message_with_delay_seconds_fails(sqs: Any) -> None:
    rec = Recording("test_fifo_queue_send_message_with_delay_seconds_fails[{p}]", sqs)
    url = fifo_queue(sqs, CBD)
    rec.error(
        "send_message",
        sqs.send_message,
        QueueUrl=url,
        MessageBody="message-1",
        MessageGroupId="1",
        DelaySeconds=2,
    )
    rec.verify()


def test_fifo_queue_send_message_with_zero_delay_defaults_to_queue_delay(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    rec = Recording(
        "test_fifo_queue_send_message_with_zero_delay_defaults_to_queue_delay[{p}]", sqs
    )
    url = fifo_queue(sqs, {**CBD, "DelaySeconds": "2"})
    rec.match(
        "send_message_result",
        sqs.send_message(QueueUrl=url, MessageBody="message-1", MessageGroupId="1", DelaySeconds=0),
    )
    rec.match("receive_message_initial_result", sqs.receive_message(QueueUrl=url))
    fakesqs.advance(2)
    rec.match("receive_message_after_delay_result", sqs.receive_message(QueueUrl=url))
    rec.verify()


def test_fifo_message_attributes(sqs: Any) -> None:
    rec = Recording("test_fifo_message_attributes[{p}]", sqs)
    url = fifo_queue(sqs, {**CBD, "VisibilityTimeout": "0", **HIGH_THROUGHPUT})
    rec.match(
        "send_message",
        sqs.send_message(
            QueueUrl=url,
            MessageBody="message-body-1",
            MessageGroupId="group-1",
            MessageDeduplicationId="dedup-1",
        ),
    )
    for key in ("receive_message_0", "receive_message_1"):
        rec.match(
            key, sqs.receive_message(QueueUrl=url, AttributeNames=["All"], WaitTimeSeconds=10)
        )
    rec.verify()


@pytest.mark.parametrize(
    ("scenario", "key", "missing"),
    [
        (
            "test_send_batch_missing_deduplication_id_for_fifo_queue[{p}]",
            "test_missing_deduplication_id_for_fifo_queue",
            "MessageDeduplicationId",
        ),
        (
            "test_send_batch_missing_message_group_id_for_fifo_queue[{p}]",
            "test_missing_message_group_id_for_fifo_queue",
            "MessageGroupId",
        ),
    ],
)
def test_send_batch_missing_fifo_ids(sqs: Any, scenario: str, key: str, missing: str) -> None:
    rec = Recording(scenario, sqs)
    url = fifo_queue(sqs, {**FIFO, "ContentBasedDeduplication": "false"})
    complete = {"MessageBody": "messageBody", "MessageGroupId": "g", "MessageDeduplicationId": "d1"}
    incomplete = {**complete, "MessageDeduplicationId": "d2"}
    del incomplete[missing]
    entries = [{"Id": "m1", **complete}, {"Id": "m2", **incomplete}]
    rec.error(key, sqs.send_message_batch, QueueUrl=url, Entries=entries)
    rec.verify()


def test_posting_to_fifo_requires_deduplicationid_group_id(sqs: Any) -> None:
    rec = Recording("test_posting_to_fifo_requires_deduplicationid_group_id[{p}]", sqs)
    url = fifo_queue(sqs, FIFO)
    # The recording holds both protocols' answers under "<key>" and "<key>-query".
    suffix = "-query" if sqs.meta.service_model.protocol == "query" else ""
    rec.error(
        "invalid-parameter-value" + suffix,
        sqs.send_message,
        QueueUrl=url,
        MessageBody="test",
        MessageGroupId="group",
    )
    rec.error(
        "missing-parameter" + suffix,
        sqs.send_message,
        QueueUrl=url,
        MessageBody="test",
        MessageDeduplicationId="dedup",
    )
    rec.verify(only=["invalid-parameter-value" + suffix, "missing-parameter" + suffix])


@pytest.mark.parametrize("content_based", [True, False])
def test_fifo_deduplication_arrives_once_after_delete(sqs: Any, content_based: bool) -> None:
    rec = Recording(
        f"test_fifo_deduplication_arrives_once_after_delete[{{p}}-{content_based}]", sqs
    )
    url = fifo_queue(sqs, CBD if content_based else FIFO)
    kwargs = {} if content_based else {"MessageDeduplicationId": "dedup1"}
    item = '{"foo": "bar"}'
    first = sqs.send_message(QueueUrl=url, MessageBody=item, MessageGroupId="group-1", **kwargs)
    received = rec.match("get-messages", sqs.receive_message(QueueUrl=url, WaitTimeSeconds=3))
    sqs.delete_message(QueueUrl=url, ReceiptHandle=received["Messages"][0]["ReceiptHandle"])
    again = sqs.send_message(QueueUrl=url, MessageBody=item, MessageGroupId="group-1", **kwargs)
    # A duplicate is acknowledged with the original's MessageId and SequenceNumber.
    assert (again["MessageId"], again["SequenceNumber"]) == (
        first["MessageId"],
        first["SequenceNumber"],
    )
    rec.match("get-messages-duplicate", sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1))
    rec.verify()


@pytest.mark.parametrize("content_based", [True, False])
def test_fifo_deduplication_not_on_message_group_id(sqs: Any, content_based: bool) -> None:
    rec = Recording(f"test_fifo_deduplication_not_on_message_group_id[{{p}}-{content_based}]", sqs)
    url = fifo_queue(sqs, CBD if content_based else FIFO)
    kwargs = {} if content_based else {"MessageDeduplicationId": "dedup1"}
    for group in ("group-1", "group-2"):
        sqs.send_message(QueueUrl=url, MessageBody='{"foo": "bar"}', MessageGroupId=group, **kwargs)
    rec.match("get-messages", sqs.receive_message(QueueUrl=url, WaitTimeSeconds=2))
    rec.match("get-dedup-messages", sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1))
    rec.verify()


@pytest.mark.parametrize(
    ("scenario", "attributes"),
    [
        ("test_sqs_fifo_same_dedup_id_different_message_groups[{p}]", FIFO),
        (
            "test_sqs_fifo_message_group_scope_no_throughput_setting[{p}]",
            {**FIFO, "DeduplicationScope": "messageGroup"},
        ),
    ],
)
def test_same_dedup_id_in_two_groups(sqs: Any, scenario: str, attributes: dict[str, str]) -> None:
    rec = Recording(scenario, sqs)
    url = fifo_queue(sqs, attributes)
    for group in ("1", "2"):
        sqs.send_message(
            QueueUrl=url, MessageBody="Test", MessageGroupId=group, MessageDeduplicationId="same"
        )
    for key in ("same-dedup-different-grp-1", "same-dedup-different-grp-2"):
        rec.match(key, sqs.receive_message(QueueUrl=url))
    rec.verify()


def send(sqs: Any, url: str, body: str, group: str, dedup: str) -> None:
    sqs.send_message(
        QueueUrl=url, MessageBody=body, MessageGroupId=group, MessageDeduplicationId=dedup
    )


def receive_and_delete(sqs: Any, url: str) -> Any:
    response = sqs.receive_message(QueueUrl=url)
    for message in response.get("Messages", []):
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return response


def test_fifo_high_throughput_ordering(sqs: Any) -> None:
    rec = Recording("test_fifo_high_throughput_ordering[{p}]", sqs)
    url = fifo_queue(sqs, {**FIFO, **HIGH_THROUGHPUT})
    send(sqs, url, "Test1", "1", "same")
    send(sqs, url, "Test2", "2", "same")
    rec.match("same-dedup-different-grp-1", sqs.receive_message(QueueUrl=url))
    rec.match("same-dedup-different-grp-2", sqs.receive_message(QueueUrl=url))
    rec.verify()


def test_fifo_change_to_high_throughput_after_creation(sqs: Any) -> None:
    rec = Recording("test_fifo_change_to_high_throughput_after_creation[{p}]", sqs)
    url = fifo_queue(sqs, FIFO)
    send(sqs, url, "Test1", "1", "same")
    send(sqs, url, "Test2", "2", "same")
    rec.match("same-dedup-different-grp-1", receive_and_delete(sqs, url))
    rec.match("same-dedup-different-grp-2", receive_and_delete(sqs, url))
    sqs.set_queue_attributes(QueueUrl=url, Attributes=HIGH_THROUGHPUT)
    rec.match(
        "set-to-high-throughput", sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
    )
    # The attributes say messageGroup, but the queue keeps deduplicating queue-wide.
    send(sqs, url, "Test3", "3", "same")
    rec.match("same-dedup-different-grp-high-throughput", receive_and_delete(sqs, url))
    rec.match("same-dedup-different-grp-high-throughput-2", receive_and_delete(sqs, url))
    send(sqs, url, "Test4", "3", "other")
    rec.match("new-dedup2-high-throughput", receive_and_delete(sqs, url))
    send(sqs, url, "Test5", "4", "other")
    rec.match("same-dedup2-high-throughput", receive_and_delete(sqs, url))
    rec.verify()


def test_fifo_change_to_regular_throughput_after_creation(sqs: Any) -> None:
    rec = Recording("test_fifo_change_to_regular_throughput_after_creation[{p}]", sqs)
    url = fifo_queue(sqs, {**FIFO, **HIGH_THROUGHPUT})
    send(sqs, url, "Test1", "1", "same")
    send(sqs, url, "Test2", "2", "same")
    rec.match("same-dedup-different-grp-1", receive_and_delete(sqs, url))
    rec.match("same-dedup-different-grp-2", receive_and_delete(sqs, url))
    sqs.set_queue_attributes(QueueUrl=url, Attributes=REGULAR_THROUGHPUT)
    rec.match(
        "set-to-regular-throughput", sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
    )
    # ... and the other way round: still deduplicated per message group.
    send(sqs, url, "Test3", "3", "same")
    rec.match("same-dedup-different-grp-regular-throughput", receive_and_delete(sqs, url))
    rec.verify()


@pytest.mark.parametrize("extended", [False, True])
def test_fifo_delete_after_visibility_timeout(fakesqs: FakeSQS, sqs: Any, extended: bool) -> None:
    suffix = "_extended" if extended else ""
    rec = Recording(f"test_fifo_delete_after_visibility_timeout{suffix}[{{p}}]", sqs)
    url = fifo_queue(sqs, {**CBD, "VisibilityTimeout": "2"})
    sqs.send_message(QueueUrl=url, MessageBody="foobar", MessageGroupId="1")
    received = rec.match("received_sqs_message", sqs.receive_message(QueueUrl=url))
    handle = received["Messages"][0]["ReceiptHandle"]
    if extended:
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=5)
    fakesqs.advance(3)
    if extended:
        rec.match(
            "delete_after_timeout_fifo_extended",
            sqs.delete_message(QueueUrl=url, ReceiptHandle=handle),
        )
    else:
        rec.error(
            "delete_after_timeout_fifo", sqs.delete_message, QueueUrl=url, ReceiptHandle=handle
        )
    rec.verify()


@pytest.mark.parametrize(
    ("case", "dedup_id"), [("empty", ""), ("too_long", "a" * 129), ("spaces", "group 123")]
)
def test_message_deduplication_id_invalid(sqs: Any, case: str, dedup_id: str) -> None:
    rec = Recording(f"test_message_deduplication_id_invalid[{case}]", sqs)
    url = fifo_queue(sqs, FIFO)
    rec.error(
        "error-response",
        sqs.send_message,
        QueueUrl=url,
        MessageBody="message",
        MessageGroupId="group",
        MessageDeduplicationId=dedup_id,
    )
    rec.verify()


@pytest.mark.parametrize(
    ("case", "first_extended"),
    [
        ("all-invisible", 0),
        ("1-invisible", 1),
        ("no-invisible", 2),
        ("0-visible", 0),
        ("1-visible", 1),
        ("2-visible", 2),
    ],
)
def test_fifo_group_visibility_extends_with_change_message_visibility(
    fakesqs: FakeSQS, sqs: Any, case: str, first_extended: int
) -> None:
    """A receive returns a group's messages up to the first one still invisible."""
    rec = Recording(
        f"test_fifo_group_visibility_extends_with_change_message_visibility[{{p}}-{case}]", sqs
    )
    url = fifo_queue(sqs, {**CBD, "VisibilityTimeout": "10"})
    for body in ("foo", "bar", "baz"):
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="group")
    received = rec.match(
        "receive_all_messages", sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
    )
    extended = (
        received["Messages"][first_extended:]
        if case.endswith("invisible")
        else [received["Messages"][first_extended]]
    )
    for message in extended:
        sqs.change_message_visibility(
            QueueUrl=url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=30
        )
    fakesqs.advance(12)
    rec.match("some-messages-invisible", sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10))
    rec.verify()


def test_dead_letter_queue_message_attributes(sqs: Any) -> None:
    rec = Recording("test_dead_letter_queue_message_attributes", sqs)
    dlq = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1})
    source = sqs.create_queue(
        QueueName="source", Attributes={"RedrivePolicy": policy, "VisibilityTimeout": "0"}
    )["QueueUrl"]
    source_arn = sqs.get_queue_attributes(QueueUrl=source, AttributeNames=["QueueArn"])[
        "Attributes"
    ]["QueueArn"]
    rec.match("dlq-arn", dlq_arn)
    rec.match("sourcen-arn", source_arn)
    sqs.send_message(
        QueueUrl=source,
        MessageBody="message-1",
        MessageAttributes={"MyAttribute": {"StringValue": "foobar", "DataType": "String"}},
        MessageSystemAttributes={
            "AWSTraceHeader": {
                "StringValue": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
                "DataType": "String",
            }
        },
    )
    sqs.send_message(QueueUrl=source, MessageBody="message-2")
    system = [
        "ApproximateFirstReceiveTimestamp",
        "ApproximateReceiveCount",
        "SentTimestamp",
        "AWSTraceHeader",
        "DeadLetterQueueSourceArn",
    ]

    def receive(url: str) -> list[dict[str, Any]]:
        response = sqs.receive_message(
            QueueUrl=url,
            MaxNumberOfMessages=10,
            MessageAttributeNames=["All"],
            **{system_names_parameter(sqs): system},
        )
        messages: list[dict[str, Any]] = response.get("Messages", [])
        return messages

    rec.match("rec-pre-dlq", receive(source))
    assert receive(source) == []  # the second receive moves both to the dead-letter queue
    rec.match("dlq-messages", receive(dlq))
    rec.verify()
