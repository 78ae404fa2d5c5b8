"""Recorded AWS scenarios: sending, receiving, batches, message and system attributes."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from .recorded import Recording, system_names_parameter

MODERN = "MessageSystemAttributeNames"


def needs_system_attribute_names(client: Any) -> None:
    if system_names_parameter(client) != MODERN:
        pytest.skip("this botocore predates MessageSystemAttributeNames")


MAX_SIZE = 1_048_576
ATTRIBUTE = {"k": {"DataType": "String", "StringValue": "x"}}
ATTRIBUTE_SIZE = len("k") + len("String") + len("x")
TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


def test_send_receive_max_number_of_messages(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_receive_max_number_of_messages[{p}]", sqs)
    sqs.send_message(QueueUrl=queue_url, MessageBody="message")
    rec.error(
        "send_max_number_of_messages",
        sqs.receive_message,
        QueueUrl=queue_url,
        MaxNumberOfMessages=11,
    )
    rec.verify()


def test_send_oversized_message(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_oversized_message[{p}]", sqs)
    body = "a" * (MAX_SIZE - ATTRIBUTE_SIZE + 1)
    rec.error(
        "send_oversized_message",
        sqs.send_message,
        QueueUrl=queue_url,
        MessageBody=body,
        MessageAttributes=ATTRIBUTE,
    )
    rec.verify()


def test_send_message_with_updated_maximum_message_size(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_message_with_updated_maximum_message_size[{p}]", sqs)
    sqs.set_queue_attributes(QueueUrl=queue_url, Attributes={"MaximumMessageSize": "1024"})
    sqs.send_message(QueueUrl=queue_url, MessageBody="a" * 1024)
    rec.error(
        "send_oversized_message",
        sqs.send_message,
        QueueUrl=queue_url,
        MessageBody="a" * (1024 - ATTRIBUTE_SIZE + 1),
        MessageAttributes=ATTRIBUTE,
    )
    rec.verify()


def test_send_message_batch_with_oversized_contents(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_message_batch_with_oversized_contents[{p}]", sqs)
    entries = [
        {
            "Id": "1",
            "MessageBody": "a" * (MAX_SIZE - ATTRIBUTE_SIZE),
            "MessageAttributes": ATTRIBUTE,
        },
        {"Id": "2", "MessageBody": "a"},
    ]
    rec.error(
        "send_oversized_message_batch", sqs.send_message_batch, QueueUrl=queue_url, Entries=entries
    )
    rec.verify()


def test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size(
    sqs: Any, queue_url: str
) -> None:
    rec = Recording(
        "test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size[{p}]",
        sqs,
    )
    sqs.set_queue_attributes(QueueUrl=queue_url, Attributes={"MaximumMessageSize": "2048"})
    entries = [
        {"Id": "1", "MessageBody": "a" * (2048 - ATTRIBUTE_SIZE), "MessageAttributes": ATTRIBUTE},
        {"Id": "2", "MessageBody": "a"},
    ]
    rec.match(
        "send_oversized_message_batch", sqs.send_message_batch(QueueUrl=queue_url, Entries=entries)
    )
    rec.verify()


def test_send_batch_message_size(sqs: Any) -> None:
    rec = Recording("test_send_batch_message_size", sqs)
    url = sqs.create_queue(QueueName="sized", Attributes={"MaximumMessageSize": "1024"})["QueueUrl"]
    entries = [
        {"Id": "0b1f8e8a-4c7e-4d8e-9a5a-1f3f6b2e7c11", "MessageBody": "a" * 1025},
        {"Id": "5e0d2b7c-8f4a-4b1e-b6d2-3c9a7e1f4d22", "MessageBody": "a" * 1024},
    ]
    rec.match("send-message-batch-result", sqs.send_message_batch(QueueUrl=url, Entries=entries))
    rec.verify()


@pytest.mark.parametrize(
    "scenario",
    [
        "test_too_many_entries_in_batch_request[{p}]",
        "test_delete_message_batch_with_too_large_batch[{p}]",
        "test_change_message_visibility_batch_with_too_large_batch[{p}]",
    ],
)
def test_too_many_entries(sqs: Any, queue_url: str, scenario: str) -> None:
    rec = Recording(scenario, sqs)
    for start in (0, 10):
        sqs.send_message_batch(
            QueueUrl=queue_url,
            Entries=[
                {"Id": f"m-{i}", "MessageBody": f"body-{i}"} for i in range(start, start + 10)
            ],
        )
    if scenario.startswith("test_too_many_entries"):
        entries = [{"Id": f"message-{i}", "MessageBody": f"messageBody-{i}"} for i in range(20)]
        rec.error(
            "test_too_many_entries_in_batch_request",
            sqs.send_message_batch,
            QueueUrl=queue_url,
            Entries=entries,
        )
        rec.verify()
        return
    received: list[dict[str, Any]] = []
    while len(received) < 20:
        received += sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)["Messages"]
    entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(received)]
    if "change_message_visibility" in scenario:
        for entry in entries:
            entry["VisibilityTimeout"] = 123
        rec.error(
            "error_response",
            sqs.change_message_visibility_batch,
            QueueUrl=queue_url,
            Entries=entries,
        )
    else:
        rec.error("error_response", sqs.delete_message_batch, QueueUrl=queue_url, Entries=entries)
    rec.verify()


def test_invalid_batch_id(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_invalid_batch_id[{p}]", sqs)
    entries = [{"Id": "message:abc123", "MessageBody": "messageBody-abc123"}]
    rec.error("test_invalid_batch_id", sqs.send_message_batch, QueueUrl=queue_url, Entries=entries)
    rec.verify()


@pytest.mark.parametrize("entry_id", ["", "testLongId" * 10, "invalid:id"])
def test_delete_message_batch_invalid_msg_id(sqs: Any, queue_url: str, entry_id: str) -> None:
    rec = Recording(f"test_delete_message_batch_invalid_msg_id[{{p}}-{entry_id}]", sqs)
    entries = [{"Id": entry_id, "ReceiptHandle": "testHandle1"}]
    rec.error("error_response", sqs.delete_message_batch, QueueUrl=queue_url, Entries=entries)
    rec.verify()


def test_send_message_with_binary_attributes(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_message_with_binary_attributes[{p}]", sqs)
    value = b"traceparent\x1e00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01"
    attributes = {"attr1": {"BinaryValue": value, "DataType": "Binary"}}
    sent = sqs.send_message(QueueUrl=queue_url, MessageBody="test", MessageAttributes=attributes)
    received = sqs.receive_message(QueueUrl=queue_url, MessageAttributeNames=["All"])
    rec.match("binary-attrs-msg", received)
    message = received["Messages"][0]
    assert message["MessageAttributes"] == attributes
    assert message["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"]
    rec.verify()


def test_send_message_with_empty_string_attribute(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_message_with_empty_string_attribute[{p}]", sqs)
    rec.error(
        "empty-string-attr",
        sqs.send_message,
        QueueUrl=queue_url,
        MessageBody="test",
        MessageAttributes={"ErrorDetails": {"StringValue": "", "DataType": "String"}},
    )
    rec.verify()


def test_send_empty_message(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_empty_message[{p}]", sqs)
    rec.error("send_empty_message", sqs.send_message, QueueUrl=queue_url, MessageBody="")
    rec.verify()


def test_send_receive_wait_time_seconds(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_send_receive_wait_time_seconds[{p}]", sqs)
    for key, wait in (
        ("recieve_message_error_too_large", 21),
        ("recieve_message_error_too_small", -1),
    ):
        rec.error(key, sqs.receive_message, QueueUrl=queue_url, WaitTimeSeconds=wait)
    sqs.send_message(QueueUrl=queue_url, MessageBody="message")
    rec.match("empty_short_poll_by_default_resp", sqs.receive_message(QueueUrl=queue_url))
    sqs.send_message(QueueUrl=queue_url, MessageBody="message")
    rec.match(
        "empty_short_poll_explicit_resp", sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=0)
    )
    rec.verify()


def test_receive_empty_queue(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_receive_empty_queue[{p}]", sqs)
    rec.match("empty_short_poll_resp_no_param", sqs.receive_message(QueueUrl=queue_url))
    rec.match("empty_short_poll_resp", sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=0))
    rec.match("empty_long_poll_resp", sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=1))
    rec.verify()


def test_receive_message_message_attribute_names_filters(sqs: Any) -> None:
    rec = Recording("test_receive_message_message_attribute_names_filters[{p}]", sqs)
    url = sqs.create_queue(QueueName="filters", Attributes={"VisibilityTimeout": "0"})["QueueUrl"]
    attributes = {
        "Help.Me": {"DataType": "String", "StringValue": "Me"},
        "Hello": {"DataType": "String", "StringValue": "There"},
        "General": {"DataType": "String", "StringValue": "Kenobi"},
    }
    rec.match(
        "send_message_response",
        sqs.send_message(QueueUrl=url, MessageBody="msg", MessageAttributes=attributes),
    )

    def receive(names: list[str]) -> dict[str, Any]:
        response: dict[str, Any] = sqs.receive_message(
            QueueUrl=url, WaitTimeSeconds=5, MessageAttributeNames=names
        )
        return response

    rec.match("empty_filter", receive([]))
    rec.match("all_name", receive(["All"]))
    rec.match("all_wildcard_asterisk", receive(["*"])["Messages"][0])
    rec.match("all_wildcard", receive([".*"])["Messages"][0])
    rec.match("only_non_existing_names", receive(["Foo", "Help"])["Messages"][0])
    rec.match("only_existing", receive(["Hello", "General"])["Messages"][0])
    rec.match("existing_and_non_existing", receive(["Foo", "Hello"])["Messages"][0])
    rec.match("prefix_filter", receive(["Hel.*"])["Messages"][0])
    rec.match("illegal_name_1", receive(["AWS."]))
    rec.match("illegal_name_2", receive(["..foo"]))
    rec.verify()


@pytest.mark.parametrize("parameter", ["AttributeNames", "MessageSystemAttributeNames"])
def test_receive_message_attribute_names_filters(sqs: Any, parameter: str) -> None:
    if parameter == MODERN:
        needs_system_attribute_names(sqs)
    name = "attribute" if parameter == "AttributeNames" else "message_system_attribute"
    rec = Recording(f"test_receive_message_{name}_names_filters[{{p}}]", sqs)
    url = sqs.create_queue(QueueName="system", Attributes={"VisibilityTimeout": "0"})["QueueUrl"]
    attributes = {"Foo": {"DataType": "String", "StringValue": "Bar"}}
    sqs.send_message(QueueUrl=url, MessageBody="msg", MessageAttributes=attributes)

    def receive(names: list[str], message_attribute_names: list[str] | None = None) -> Any:
        return sqs.receive_message(
            QueueUrl=url,
            WaitTimeSeconds=5,
            MessageAttributeNames=message_attribute_names or [],
            **{parameter: names},
        )

    rec.match("all_attributes", receive(["All"]))
    rec.match("all_system_and_message_attributes", receive(["All"], ["All"]))
    rec.match("single_attribute", receive(["SenderId"]))
    rec.match("multiple_attributes", receive(["SenderId", "SequenceNumber"]))
    rec.verify()


def test_message_system_attribute_names_with_attribute_names(sqs: Any) -> None:
    needs_system_attribute_names(sqs)
    rec = Recording("test_message_system_attribute_names_with_attribute_names[{p}]", sqs)
    url = sqs.create_queue(QueueName="both", Attributes={"VisibilityTimeout": "0"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="msg")
    rec.match(
        "same_values",
        sqs.receive_message(
            QueueUrl=url, AttributeNames=["All"], MessageSystemAttributeNames=["All"]
        ),
    )
    rec.match(
        "different_values",
        sqs.receive_message(
            QueueUrl=url, AttributeNames=["All"], MessageSystemAttributeNames=["SenderId"]
        ),
    )
    rec.verify()


def test_aws_trace_header_propagation(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    rec = Recording("test_aws_trace_header_propagation[{p}]", sqs)
    trace = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1"

    def add_trace_header(request: Any, **_: Any) -> None:
        request.headers["X-Amzn-Trace-Id"] = trace  # what the X-Ray SDK does in before-send

    sqs.meta.events.register("before-send.sqs.SendMessage", add_trace_header)
    sqs.send_message(
        QueueUrl=queue_url,
        MessageBody="test",
        MessageAttributes={"timestamp": {"StringValue": "1493147359900", "DataType": "Number"}},
    )
    received = sqs.receive_message(
        QueueUrl=queue_url,
        MessageAttributeNames=["All"],
        **{system_names_parameter(sqs): ["AWSTraceHeader", "SentTimestamp"]},
    )
    rec.match("xray-msg", received["Messages"][0])
    rec.verify()


def test_fair_queue_with_message_group_id(sqs: Any, queue_url: str) -> None:
    rec = Recording("test_fair_queue_with_message_group_id[{p}]", sqs)
    rec.match(
        "send_message",
        sqs.send_message(QueueUrl=queue_url, MessageBody="message", MessageGroupId="test"),
    )
    rec.match(
        "get-message-with-deduplication-id",
        sqs.receive_message(QueueUrl=queue_url, **{system_names_parameter(sqs): ["All"]}),
    )
    rec.verify()


@pytest.mark.parametrize(
    ("case", "group_id"), [("empty", ""), ("too_long", "a" * 129), ("spaces", "group 123")]
)
def test_send_message_to_standard_queue_with_invalid_message_group_id(
    sqs: Any, queue_url: str, case: str, group_id: str
) -> None:
    rec = Recording(
        f"test_send_message_to_standard_queue_with_invalid_message_group_id[{case}]", sqs
    )
    rec.error(
        "error-response",
        sqs.send_message,
        QueueUrl=queue_url,
        MessageBody="message",
        MessageGroupId=group_id,
    )
    rec.verify()
