"""Tier 2: the user's view through boto3."""

from __future__ import annotations

import time
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import NONEXISTENT_QUEUE_MESSAGE, make_client, system_attribute_names


def test_retry_after_visibility_timeout_without_waiting(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    sqs.send_message(QueueUrl=queue_url, MessageBody="job")
    first = sqs.receive_message(QueueUrl=queue_url)["Messages"]
    assert first[0]["Body"] == "job"
    assert "Messages" not in sqs.receive_message(QueueUrl=queue_url)
    fakesqs.advance(31)
    again = sqs.receive_message(QueueUrl=queue_url, **system_attribute_names("All"))
    assert again["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2"


def test_empty_long_poll_returns_at_once_on_the_frozen_clock(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    before_virtual = fakesqs.now()
    started = time.monotonic()
    response = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=20)
    assert time.monotonic() - started < 1.0
    assert "Messages" not in response
    assert (fakesqs.now() - before_virtual).total_seconds() == 20


@pytest.mark.parametrize(
    ("region", "endpoint"),
    [
        ("ru-central1", "https://message-queue.api.cloud.yandex.net"),
        ("us-east-1", "http://localhost:9324"),
        ("eu-west-1", None),
        ("ru-central1", None),
    ],
)
def test_any_endpoint_is_served(fakesqs: FakeSQS, region: str, endpoint: str | None) -> None:
    client = make_client(region, endpoint)
    url = client.create_queue(QueueName="anywhere")["QueueUrl"]
    if endpoint:
        assert url.startswith(endpoint + "/123456789012/")
    else:
        assert url == f"https://sqs.{region}.amazonaws.com/123456789012/anywhere"
    client.send_message(QueueUrl=url, MessageBody="hi")
    message = client.receive_message(QueueUrl=url)["Messages"][0]
    client.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    assert client.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
    )["Attributes"] == {"ApproximateNumberOfMessages": "0"}


def test_clients_made_before_activation_and_resources_are_served() -> None:
    from pytest_fakesqs import fake_sqs

    early = make_client()
    with fake_sqs() as fake:
        resource = boto3.resource(
            "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
        )
        queue = resource.create_queue(QueueName="res")
        queue.send_message(MessageBody="via resource")
        got = early.receive_message(QueueUrl=queue.url)["Messages"]
        assert got[0]["Body"] == "via resource"
        assert fake.queue("res").in_flight()[0].body == "via resource"


def test_nonexistent_queue_raises_the_modelled_exception(sqs: Any) -> None:
    with pytest.raises(sqs.exceptions.QueueDoesNotExist) as caught:
        sqs.get_queue_url(QueueName="missing")
    error = caught.value.response["Error"]
    assert error["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
    assert error["Message"] == NONEXISTENT_QUEUE_MESSAGE
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_message_attributes_round_trip_with_md5s(sqs: Any, queue_url: str) -> None:
    attributes = {
        "attribName1": {"DataType": "String", "StringValue": "attribValue 1"},
        "customNumberTypeAttrib": {
            "DataType": "Number.float",
            "StringValue": "4563442423554324324264524243.32543234",
        },
        "binaryAttribute": {"DataType": "Binary", "BinaryValue": b"Hello binary world!"},
    }
    sent = sqs.send_message(QueueUrl=queue_url, MessageBody="m", MessageAttributes=attributes)
    assert sent["MD5OfMessageAttributes"] == "c932db14a896c663f83c260297d594ff"
    assert sent["MD5OfMessageBody"] == "6f8f57715090da2632453988d9a1501b"
    got = sqs.receive_message(QueueUrl=queue_url, MessageAttributeNames=["All"])["Messages"][0]
    assert got["MessageAttributes"] == attributes
    assert got["MD5OfMessageAttributes"] == "c932db14a896c663f83c260297d594ff"


def test_system_attributes(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    sqs.send_message(QueueUrl=queue_url, MessageBody="m")
    sent_ms = str(int(fakesqs.now().timestamp() * 1000))
    fakesqs.advance(2)
    got = sqs.receive_message(QueueUrl=queue_url, AttributeNames=["All"])["Messages"][0]
    attributes = got["Attributes"]
    assert attributes["SentTimestamp"] == sent_ms
    assert attributes["ApproximateFirstReceiveTimestamp"] == str(int(sent_ms) + 2000)
    assert attributes["ApproximateReceiveCount"] == "1"
    assert attributes["SenderId"]
    only = sqs.receive_message(QueueUrl=queue_url, VisibilityTimeout=0)
    assert "Attributes" not in only.get("Messages", [{}])[0]


def test_batches_report_failures_per_entry(sqs: Any, queue_url: str) -> None:
    result = sqs.send_message_batch(
        QueueUrl=queue_url,
        Entries=[
            {"Id": "ok", "MessageBody": "fine"},
            {"Id": "bad", "MessageBody": "nul \x00 char"},
        ],
    )
    assert [s["Id"] for s in result["Successful"]] == ["ok"]
    assert result["Failed"] == [
        {
            "Id": "bad",
            "SenderFault": True,
            "Code": "InvalidMessageContents",
            # AWS's text, quoted in asim/nitro-plugins#437 (2019), naming the first bad character.
            "Message": "Invalid binary character '#x0' was found in the message body, the set of "
            "allowed characters is #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | "
            "[#x10000-#x10FFFF].",
        }
    ]
    handle = sqs.receive_message(QueueUrl=queue_url)["Messages"][0]["ReceiptHandle"]
    deleted = sqs.delete_message_batch(
        QueueUrl=queue_url,
        Entries=[{"Id": "a", "ReceiptHandle": handle}, {"Id": "b", "ReceiptHandle": "garbage"}],
    )
    assert [s["Id"] for s in deleted["Successful"]] == ["a"]
    assert deleted["Failed"][0]["Code"] == "ReceiptHandleIsInvalid"


@pytest.mark.parametrize(
    ("call", "code", "message"),
    [
        (
            {"MaxNumberOfMessages": 11},
            "InvalidParameterValue",
            "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.",
        ),
        (
            {"WaitTimeSeconds": 21},
            "InvalidParameterValue",
            "Value 21 for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.",
        ),
    ],
)
def test_receive_parameter_ranges(
    sqs: Any, queue_url: str, call: dict[str, int], code: str, message: str
) -> None:
    with pytest.raises(ClientError) as caught:
        sqs.receive_message(QueueUrl=queue_url, **call)
    assert caught.value.response["Error"]["Code"] == code
    assert caught.value.response["Error"]["Message"] == message


def test_oversized_and_empty_bodies(sqs: Any, queue_url: str) -> None:
    with pytest.raises(ClientError) as caught:
        sqs.send_message(QueueUrl=queue_url, MessageBody="x" * 1_048_577)
    assert caught.value.response["Error"]["Message"] == (
        "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes."
    )
    with pytest.raises(ClientError) as empty:
        sqs.send_message(QueueUrl=queue_url, MessageBody="")
    assert empty.value.response["Error"]["Code"] == "MissingParameter"
    assert empty.value.response["Error"]["Message"] == (
        "The request must contain the parameter MessageBody."
    )


def test_purge_twice_within_a_minute(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    sqs.purge_queue(QueueUrl=queue_url)
    with pytest.raises(sqs.exceptions.PurgeQueueInProgress) as caught:
        sqs.purge_queue(QueueUrl=queue_url)
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert caught.value.response["Error"]["Message"] == (
        "Only one PurgeQueue operation on work is allowed every 60 seconds."
    )
    fakesqs.advance(60)
    sqs.purge_queue(QueueUrl=queue_url)


def test_fifo_through_boto3(sqs: Any, fifo_url: str) -> None:
    for index in range(3):
        sent = sqs.send_message(QueueUrl=fifo_url, MessageBody=f"m{index}", MessageGroupId="g")
        assert "SequenceNumber" in sent
    duplicate = sqs.send_message(QueueUrl=fifo_url, MessageBody="m0", MessageGroupId="g")
    got = sqs.receive_message(QueueUrl=fifo_url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in got] == ["m0", "m1", "m2"]
    assert duplicate["MessageId"] == got[0]["MessageId"]


def test_queue_views_peek_without_side_effects(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("peek", VisibilityTimeout=10, DelaySeconds=0)
    sqs.send_message(QueueUrl=url, MessageBody="a")
    sqs.send_message(QueueUrl=url, MessageBody="b", DelaySeconds=5)
    sqs.send_message(QueueUrl=url, MessageBody="c")
    sqs.receive_message(QueueUrl=url)
    view = fakesqs.queue("peek")
    assert [m.body for m in view.in_flight()] == ["a"]
    assert [m.body for m in view.visible()] == ["c"]
    assert [m.body for m in view.delayed()] == ["b"]
    assert fakesqs.queue(url).bodies() == ["a", "b", "c"]
    assert view.in_flight()[0].receive_count == 1  # peeking did not receive
    backlog = view.backlog()
    assert (backlog.count, backlog.bytes, backlog.in_flight, backlog.delayed) == (3, 3, 1, 1)


def test_a_queue_made_by_a_client_of_another_region_is_found_by_name(fakesqs: FakeSQS) -> None:
    make_client(region="eu-west-1").create_queue(QueueName="elsewhere")
    assert fakesqs.queue("elsewhere").name == "elsewhere"
    make_client(region="us-east-1").create_queue(QueueName="twice")
    make_client(region="eu-west-1").create_queue(QueueName="twice")
    assert fakesqs.queue("twice").url.startswith("https://sqs.us-east-1.")
    make_client(region="eu-west-1").create_queue(QueueName="ambiguous")
    make_client(region="ap-south-1").create_queue(QueueName="ambiguous")
    expected = (
        "no queue named 'ambiguous'; queues: ambiguous (ap-south-1), ambiguous (eu-west-1), "
        "elsewhere (eu-west-1), twice, twice (eu-west-1)"
    )
    with pytest.raises(LookupError) as raised:
        fakesqs.queue("ambiguous")
    assert str(raised.value) == expected


def test_queues_lists_every_queue_the_fake_holds_by_name(fakesqs: FakeSQS, sqs: Any) -> None:
    assert fakesqs.queues() == []
    fakesqs.create_queue("orders")
    fakesqs.create_queue("audit.fifo")
    make_client(region="eu-west-1").create_queue(QueueName="orders")
    sqs.send_message(QueueUrl=fakesqs.queue("orders").url, MessageBody="placed")

    views = fakesqs.queues()

    assert [(view.name, view.url.split("/")[2]) for view in views] == [
        ("audit.fifo", "sqs.us-east-1.amazonaws.com"),
        ("orders", "sqs.eu-west-1.amazonaws.com"),
        ("orders", "sqs.us-east-1.amazonaws.com"),
    ]
    assert {view.url: view.bodies() for view in views if view.name == "orders"} == {
        fakesqs.queue("orders").url: ["placed"],
        views[1].url: [],
    }


def test_a_misspelt_queue_name_is_told_the_close_one(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders")
    fakesqs.create_queue("orders-dlq")
    with pytest.raises(LookupError) as raised:
        fakesqs.queue("ordrs")
    assert str(raised.value) == (
        "no queue named 'ordrs'; did you mean 'orders'? queues: orders, orders-dlq"
    )
    with pytest.raises(LookupError) as raised:  # a URL is not a name to correct
        fakesqs.queue(fakesqs.queue("orders").url + "x")
    assert "did you mean" not in str(raised.value)
