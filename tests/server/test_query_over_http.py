"""The query/XML protocol over real HTTP: old clients (and hand-made forms) reach the server."""

from __future__ import annotations

import http.client
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

from ..query_era import query_client


def test_a_query_client_over_http(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, tmp_path: Path
) -> None:
    sqs = query_client(tmp_path, endpoint_url=fakesqs_server.endpoint_url)
    url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "5"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="over http\r\n<&>")
    got = sqs.receive_message(QueueUrl=url, AttributeNames=["All"])["Messages"][0]
    assert got["Body"] == "over http\r\n<&>"
    assert got["Attributes"]["ApproximateReceiveCount"] == "1"
    with pytest.raises(sqs.exceptions.QueueDoesNotExist) as caught:
        sqs.get_queue_url(QueueName="nope")
    assert caught.value.response["Error"]["Message"] == (
        "The specified queue does not exist for this wsdl version."
    )
    assert fakesqs.queue("jobs").in_flight()[0].body == "over http\r\n<&>"


def test_a_form_posted_to_a_queue_url_over_http(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = f"{fakesqs_server.endpoint_url}/123456789012/jobs"
    fakesqs.create_queue("jobs")
    path = urlsplit(url).path
    connection = http.client.HTTPConnection("127.0.0.1", fakesqs_server.port, timeout=10)
    try:
        body = urlencode({"Action": "SendMessage", "Version": "2012-11-05", "MessageBody": "hi"})
        connection.request(
            "POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        response = connection.getresponse()
        answer = response.read().decode()
    finally:
        connection.close()
    assert (response.status, response.getheader("Content-Type")) == (200, "text/xml")
    assert answer.startswith('<?xml version="1.0"?><SendMessageResponse xmlns=')
    assert "<MD5OfMessageBody>49f68a5c8493ec2c0bf489821c21fc3b</MD5OfMessageBody>" in answer
    assert fakesqs.queue("jobs").bodies() == ["hi"]
