"""The query/XML protocol end to end: what only a query client (or a hand-made form) can send."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol import WireRequest, WireResponse

from ..query_era import query_client

FORM = {"content-type": "application/x-www-form-urlencoded; charset=utf-8"}


def post(fakesqs: FakeSQS, url: str, fields: dict[str, str] | bytes) -> WireResponse:
    body = fields if isinstance(fields, bytes) else urlencode(fields).encode()
    return core_of(fakesqs).handler.handle(WireRequest("POST", url, dict(FORM), body))


@pytest.fixture
def old_sqs(fakesqs: FakeSQS, tmp_path: Path) -> Any:
    return query_client(tmp_path)


def test_a_query_client_round_trips_messages(old_sqs: Any) -> None:
    url = old_sqs.create_queue(QueueName="work", tags={"team": "a"})["QueueUrl"]
    attributes = {
        "text": {"DataType": "String", "StringValue": "line\r\nbreak <&>"},
        "blob": {"DataType": "Binary", "BinaryValue": b"\x00\xff"},
    }
    sent = old_sqs.send_message(QueueUrl=url, MessageBody="a\r\nb", MessageAttributes=attributes)
    got = old_sqs.receive_message(
        QueueUrl=url, AttributeNames=["All"], MessageAttributeNames=["All"]
    )["Messages"][0]
    assert (got["Body"], got["MessageAttributes"]) == ("a\r\nb", attributes)
    assert got["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"]
    assert got["Attributes"]["ApproximateReceiveCount"] == "1"
    assert old_sqs.list_queues()["QueueUrls"] == [url]


def test_a_client_whose_endpoint_is_a_queue_url(fakesqs: FakeSQS, tmp_path: Path) -> None:
    url = fakesqs.create_queue("work")
    client = query_client(tmp_path, endpoint_url=url)
    client.send_message(QueueUrl=url, MessageBody="via queue endpoint")
    assert fakesqs.queue("work").bodies() == ["via queue endpoint"]


def test_a_form_posted_to_a_queue_url_needs_no_queue_url(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("work")
    response = post(
        fakesqs, url, {"Action": "SendMessage", "Version": "2012-11-05", "MessageBody": "hi"}
    )
    assert response.status == 200
    assert b"<MD5OfMessageBody>49f68a5c8493ec2c0bf489821c21fc3b</MD5OfMessageBody>" in response.body
    assert fakesqs.queue("work").bodies() == ["hi"]


def test_message_system_attribute_names_over_query(fakesqs: FakeSQS) -> None:
    # Read on every botocore, a query-era one (CI's oldest run) whose model predates the member.
    url = fakesqs.create_queue("work")
    post(fakesqs, url, {"Action": "SendMessage", "MessageBody": "hi"})
    response = post(
        fakesqs,
        url,
        {"Action": "ReceiveMessage", "MessageSystemAttributeName.1": "ApproximateReceiveCount"},
    )
    body = response.body.decode()
    assert "<Attribute><Name>ApproximateReceiveCount</Name><Value>1</Value></Attribute>" in body
    assert "SentTimestamp" not in body


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"Action=SendMessage&MessageBody=\xff", 404, "MalformedQueryString"),
        (b"Version=2012-11-05", 400, "MissingAction"),
        (b"Action=FlyToTheMoon", 400, "InvalidAction"),
        (b"\x00\x01garbage", 400, "MissingAction"),
    ],
)
def test_malformed_requests_get_an_error_response(
    fakesqs: FakeSQS, body: bytes, status: int, code: str
) -> None:
    response = post(fakesqs, "https://sqs.us-east-1.amazonaws.com/", body)
    assert response.status == status
    assert response.headers["content-type"] == "text/xml"
    assert (
        f'<ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><Error><Type>Sender</Type><Code>{code}</Code>'
        in response.body.decode()
    )
