"""Recorded AWS scenarios: queue attributes, creation rules, SSE, purge, lookups, receipts."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from .conftest import make_client
from .recorded import Recording

FIFO = {"FifoQueue": "true"}


def test_create_fifo_queue_with_different_attributes_raises_error(sqs: Any) -> None:
    rec = Recording("test_create_fifo_queue_with_different_attributes_raises_error[{p}]", sqs)
    sqs.create_queue(QueueName="q.fifo", Attributes={**FIFO, "ContentBasedDeduplication": "true"})
    rec.error(
        "queue-already-exists",
        sqs.create_queue,
        QueueName="q.fifo",
        Attributes={**FIFO, "ContentBasedDeduplication": "false"},
    )
    rec.verify()


def test_create_queue_with_different_attributes_raises_exception(sqs: Any) -> None:
    rec = Recording("test_create_queue_with_different_attributes_raises_exception[{p}]", sqs)
    first = {"ReceiveMessageWaitTimeSeconds": "1", "DelaySeconds": "1"}
    url = sqs.create_queue(QueueName="q", Attributes=first)["QueueUrl"]
    assert sqs.create_queue(QueueName="q")["QueueUrl"] == url
    assert sqs.create_queue(QueueName="q", Attributes={"DelaySeconds": "1"})["QueueUrl"] == url
    second = {"ReceiveMessageWaitTimeSeconds": "1", "DelaySeconds": "2"}
    rec.error("create_queue_01", sqs.create_queue, QueueName="q", Attributes=second)
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"DelaySeconds": "2"})
    assert sqs.create_queue(QueueName="q", Attributes=second)["QueueUrl"] == url
    rec.error("create_queue_02", sqs.create_queue, QueueName="q", Attributes=first)
    rec.verify()


def test_create_and_update_queue_attributes(sqs: Any) -> None:
    rec = Recording("test_create_and_update_queue_attributes[{p}]", sqs)
    attributes = {
        "MessageRetentionPeriod": "604800",
        "ReceiveMessageWaitTimeSeconds": "10",
        "VisibilityTimeout": "20",
    }
    url = sqs.create_queue(QueueName="q", Attributes=attributes)["QueueUrl"]
    rec.match(
        "get_queue_attributes", sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
    )
    sqs.set_queue_attributes(
        QueueUrl=url,
        Attributes={"MaximumMessageSize": "2048", "VisibilityTimeout": "69", "DelaySeconds": "420"},
    )
    rec.match(
        "get_updated_queue_attributes",
        sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]),
    )
    rec.verify()


def test_set_queue_attributes_default_values(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_set_queue_attributes_default_values[{p}]", sqs)

    def everything() -> Any:
        return sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["All"])

    rec.match("get-queue-attributes-initial-values", everything())
    sqs.set_queue_attributes(
        QueueUrl=queue_url,
        Attributes={
            "KmsMasterKeyId": "testKeyId",
            "KmsDataKeyReusePeriodSeconds": "6000",
            "SqsManagedSseEnabled": "false",
        },
    )
    rec.match("get-queue-attributes-after-update", everything())
    defaults = {
        "DelaySeconds": "0",
        "MaximumMessageSize": "1048576",
        "MessageRetentionPeriod": "345600",
        "ReceiveMessageWaitTimeSeconds": "0",
        "VisibilityTimeout": "30",
        "KmsMasterKeyId": "",
        "KmsDataKeyReusePeriodSeconds": "300",
    }
    sqs.set_queue_attributes(QueueUrl=queue_url, Attributes=defaults)
    rec.match("get-queue-attributes-after-set-to-defaults", everything())
    rec.verify()


def test_sse_queue_attributes(sqs: Any) -> None:
    rec = Recording("test_sse_queue_attributes[{p}]", sqs)
    names = ["KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled"]
    kms = sqs.create_queue(QueueName="kms")["QueueUrl"]
    sqs.set_queue_attributes(
        QueueUrl=kms,
        Attributes={
            "KmsMasterKeyId": "testKeyId",
            "KmsDataKeyReusePeriodSeconds": "6000",
            "SqsManagedSseEnabled": "false",
        },
    )
    rec.match("sse_kms_attributes", sqs.get_queue_attributes(QueueUrl=kms, AttributeNames=names))
    managed = sqs.create_queue(QueueName="managed")["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=managed, Attributes={"SqsManagedSseEnabled": "true"})
    rec.match(
        "sse_sqs_attributes", sqs.get_queue_attributes(QueueUrl=managed, AttributeNames=names)
    )
    rec.verify()


def test_sse_kms_and_sqs_are_mutually_exclusive(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_sse_kms_and_sqs_are_mutually_exclusive[{p}]", sqs)
    with pytest.raises(sqs.exceptions.ClientError) as error:
        sqs.set_queue_attributes(
            QueueUrl=queue_url,
            Attributes={"KmsMasterKeyId": "testKeyId", "SqsManagedSseEnabled": "true"},
        )
    rec.match("error", str(error.value))
    rec.verify()


def test_set_unsupported_attribute_fifo(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_set_unsupported_attribute_fifo[{p}]", sqs)
    rec.error("invalid-attr-name-1", sqs.set_queue_attributes, QueueUrl=queue_url, Attributes=FIFO)
    fifo = sqs.create_queue(QueueName="q.fifo", Attributes=FIFO)["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=fifo, Attributes=FIFO)
    rec.error(
        "invalid-attr-name-2",
        sqs.set_queue_attributes,
        QueueUrl=fifo,
        Attributes={"FifoQueue": "false"},
    )
    rec.verify()


def test_set_unsupported_attribute_standard(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_set_unsupported_attribute_standard[{p}]", sqs)
    for key, value in (("invalid-attr-name-1", "true"), ("invalid-attr-name-2", "false")):
        rec.error(
            key, sqs.set_queue_attributes, QueueUrl=queue_url, Attributes={"FifoQueue": value}
        )
    rec.verify()


def test_create_standard_queue_with_fifo_attribute_raises_error(sqs: Any) -> None:
    rec = Recording("test_create_standard_queue_with_fifo_attribute_raises_error[{p}]", sqs)
    for key, attributes in (
        ("invalid-attribute-fifo-queue", {"FifoQueue": "false"}),
        ("invalid-attribute-content-based-deduplication", {"ContentBasedDeduplication": "true"}),
        ("invalid-attribute-deduplication-scope", {"DeduplicationScope": "queue"}),
        ("invalid-attribute-throughput-limit", {"FifoThroughputLimit": "perQueue"}),
    ):
        rec.error(key, sqs.create_queue, QueueName="standard", Attributes=attributes)
    rec.verify()


def test_fifo_set_content_based_deduplication_strategy(sqs: Any) -> None:
    rec = Recording("test_fifo_set_content_based_deduplication_strategy[{p}]", sqs)
    attributes = {**FIFO, "SqsManagedSseEnabled": "true", "ContentBasedDeduplication": "true"}
    url = sqs.create_queue(QueueName="q.fifo", Attributes=attributes)["QueueUrl"]
    rec.match("before-update", sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"ContentBasedDeduplication": "false"})
    rec.match("after-update", sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"]))
    rec.verify()


def test_successive_purge_calls_fail(sqs: Any) -> None:
    rec = Recording("test_successive_purge_calls_fail[{p}]", sqs)
    url = sqs.create_queue(QueueName="test-queue-purged")["QueueUrl"]
    rec.replace("test-queue-purged", "<queue-name>")
    sqs.purge_queue(QueueUrl=url)
    rec.error("purge_queue_error", sqs.purge_queue, QueueUrl=url)
    rec.verify()


def test_non_existent_queue(sqs: Any) -> None:
    rec = Recording("test_non_existent_queue", sqs)
    missing = "https://sqs.us-east-1.amazonaws.com/123456789012/does-not-exist"
    if sqs.meta.service_model.protocol == "query":  # the recording's query-protocol answer
        rec.error("queue-does-not-exist-query", sqs.get_queue_url, QueueName="does-not-exist")
        rec.verify(only=["queue-does-not-exist-query"])
        return
    rec.error("queue-does-not-exist", sqs.get_queue_url, QueueName="does-not-exist")
    rec.error(
        "queue-does-not-exist-url",
        sqs.get_queue_attributes,
        QueueUrl=missing,
        AttributeNames=["All"],
    )
    rec.verify(only=["queue-does-not-exist", "queue-does-not-exist-url"])


def test_send_message_via_queue_url_with_json_protocol(fakesqs: FakeSQS, queue_url: str) -> None:
    client = make_client(endpoint_url=queue_url)  # some clients use the queue URL as endpoint
    rec = Recording("test_send_message_via_queue_url_with_json_protocol", client)
    client.send_message(QueueUrl=queue_url, MessageBody="hi")
    client.receive_message(QueueUrl=queue_url, VisibilityTimeout=0)
    client.purge_queue(QueueUrl=queue_url)
    rec.match("receive-json-on-queue-url", client.receive_message(QueueUrl=queue_url))
    rec.verify()


def test_list_queues_pagination(fakesqs: FakeSQS) -> None:
    client = make_client(endpoint_url="http://sqs.us-east-1.localhost.localstack.cloud:4566")
    rec = Recording("test_list_queues_pagination", client)
    prefix = "7f7df0f5-test-queue-"
    for index in range(10):
        client.create_queue(QueueName=f"{prefix}{index}")
    rec.match("list_all", client.list_queues(QueueNamePrefix=prefix))
    first = rec.match("list_two_max", client.list_queues(QueueNamePrefix=prefix, MaxResults=2))
    rec.match(
        "list_remaining",
        client.list_queues(QueueNamePrefix=prefix, NextToken=first["NextToken"]),
    )
    rec.verify()


def test_change_message_visibility_after_visibility_timeout_expiration(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    rec = Recording("test_change_message_visibility_after_visibility_timeout_expiration[{p}]", sqs)
    sqs.send_message(QueueUrl=queue_url, MessageBody="test")
    handle = sqs.receive_message(QueueUrl=queue_url, VisibilityTimeout=1)["Messages"][0][
        "ReceiptHandle"
    ]
    fakesqs.advance(2)
    rec.match(
        "visibility_timeout_expired",
        sqs.change_message_visibility(
            QueueUrl=queue_url, ReceiptHandle=handle, VisibilityTimeout=1
        ),
    )
    rec.verify()


def test_delete_after_visibility_timeout(fakesqs: FakeSQS, sqs: Any) -> None:
    rec = Recording("test_delete_after_visibility_timeout[{p}]", sqs)
    url = sqs.create_queue(QueueName="q", Attributes={"VisibilityTimeout": "1"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="foobar")
    handle = sqs.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    fakesqs.advance(2)
    sqs.delete_message(QueueUrl=url, ReceiptHandle=handle)  # expired, yet still the latest
    rec.match("delete_after_timeout_queue_empty", sqs.receive_message(QueueUrl=url))
    rec.verify()
