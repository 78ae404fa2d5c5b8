"""One reading of a request's action and queue URL, for the guard, the transports and the log."""

from __future__ import annotations

import pytest

from pytest_fakesqs.protocol import WireRequest
from pytest_fakesqs.protocol.sniffing import action_of, queue_url_of

URL = "https://sqs.eu-west-1.amazonaws.com/"


@pytest.mark.parametrize(
    ("headers", "body", "url", "expected"),
    [
        (
            {"x-amz-target": "AmazonSQS.SendMessage"},
            b'{"QueueUrl": "https://sqs.eu-west-1.amazonaws.com/1/jobs", "MessageBody": "x"}',
            URL,
            ("SendMessage", "https://sqs.eu-west-1.amazonaws.com/1/jobs"),
        ),
        (
            {},
            b"Action=DeleteQueue&Version=2012-11-05&QueueUrl=https%3A%2F%2Fq.example%2F1%2Fjobs",
            URL,
            ("DeleteQueue", "https://q.example/1/jobs"),
        ),
        ({"x-amz-target": "AmazonSQS.ListQueues"}, b"{}", URL, ("ListQueues", None)),
        ({}, b"", URL + "?Action=ListQueues", ("ListQueues", None)),
        ({"x-amz-target": "AmazonSQS.SendMessage"}, b"not json", URL, ("SendMessage", None)),
        ({}, b"", URL, ("-", None)),
    ],
)
def test_action_and_queue_url_in_either_protocol(
    headers: dict[str, str], body: bytes, url: str, expected: tuple[str, str | None]
) -> None:
    request = WireRequest("POST", url, headers, body)
    assert (action_of(request), queue_url_of(request)) == expected
