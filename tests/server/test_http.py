"""Tier 2 over real HTTP: boto3 clients reach `fakesqs_server` on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol import WireRequest
from pytest_fakesqs.transport.http import action_of

from ..query_era import NONEXISTENT_QUEUE_MESSAGE, system_attribute_names

_JSON = "application/x-amz-json-1.0"


def test_the_server_serves_the_tests_own_fake(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="over http")

    assert fakesqs_server.fake is fakesqs
    assert fakesqs.queue("jobs").bodies() == ["over http"]
    assert fakesqs_server.requests_served == 2


def test_queue_urls_are_built_on_the_host_the_client_used(
    fakesqs_server: FakeSQSServer,
) -> None:
    by_ip = fakesqs_server.client()
    by_name = fakesqs_server.client(endpoint_url=f"http://localhost:{fakesqs_server.port}")

    created = by_ip.create_queue(QueueName="jobs")["QueueUrl"]
    looked_up = by_name.get_queue_url(QueueName="jobs")["QueueUrl"]

    assert created == f"http://127.0.0.1:{fakesqs_server.port}/123456789012/jobs"
    assert looked_up == f"http://localhost:{fakesqs_server.port}/123456789012/jobs"


def test_the_virtual_clock_is_shared_with_http_clients(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="job")
    sqs.receive_message(QueueUrl=url)  # the worker crashes: no delete

    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    fakesqs.advance(31)
    again = sqs.receive_message(QueueUrl=url, **system_attribute_names("All"))

    assert again["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2"


def test_errors_reach_http_clients_as_aws_sends_them(fakesqs_server: FakeSQSServer) -> None:
    sqs = fakesqs_server.client()
    missing = f"{fakesqs_server.endpoint_url}/123456789012/nope"

    with pytest.raises(sqs.exceptions.QueueDoesNotExist) as raised:
        sqs.send_message(QueueUrl=missing, MessageBody="x")

    error = raised.value.response["Error"]
    assert error["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
    assert error["Message"] == NONEXISTENT_QUEUE_MESSAGE
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_a_client_whose_endpoint_is_a_queue_url_is_served(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("jobs")
    sqs = fakesqs_server.client(endpoint_url=f"{fakesqs_server.endpoint_url}/123456789012/jobs")
    sqs.send_message(QueueUrl=f"{fakesqs_server.endpoint_url}/123456789012/jobs", MessageBody="m")

    assert fakesqs.queue(url).bodies() == ["m"]


def test_a_chunked_json_request_is_read_whole(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    fakesqs.create_queue("jobs")
    body = json.dumps({"QueueName": "jobs"}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", fakesqs_server.port, timeout=30)
    connection.putrequest("POST", "/")
    connection.putheader("X-Amz-Target", "AmazonSQS.GetQueueUrl")
    connection.putheader("Content-Type", _JSON)
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    for piece in (body[:5], body[5:]):
        connection.send(b"%x\r\n%s\r\n" % (len(piece), piece))
    connection.send(b"0\r\n\r\n")
    response = connection.getresponse()

    assert response.status == 200
    assert json.loads(response.read()) == {
        "QueueUrl": f"http://127.0.0.1:{fakesqs_server.port}/123456789012/jobs"
    }
    connection.close()


def test_in_process_clients_of_other_endpoints_are_still_served_in_process(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    in_process = boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )
    in_process.create_queue(QueueName="jobs")

    assert fakesqs_server.requests_served == 0
    assert [q.name for q in core_of(fakesqs).broker.queues()] == ["jobs"]


def _list_queues(connection: http.client.HTTPConnection) -> int:
    connection.request(
        "POST",
        "/",
        body=b"{}",
        headers={"X-Amz-Target": "AmazonSQS.ListQueues", "Content-Type": _JSON},
    )
    response = connection.getresponse()
    response.read()
    return response.status


def test_a_stopped_server_drops_kept_alive_connections(fakesqs: FakeSQS) -> None:
    server = FakeSQSServer(fakesqs).start()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    assert _list_queues(connection) == 200  # the connection is kept alive for the next one
    server.stop()

    with pytest.raises((http.client.HTTPException, OSError)):
        _list_queues(connection)
    connection.close()


@pytest.mark.fakesqs(clock="real")
def test_a_long_poll_on_a_real_clock_blocks_nobody_else(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    waiting_url = fakesqs.create_queue("waiting")
    other_url = fakesqs.create_queue("other")
    received: list[Any] = []
    poller = threading.Thread(
        target=lambda: received.append(
            fakesqs_server.client().receive_message(QueueUrl=waiting_url, WaitTimeSeconds=20)
        )
    )
    poller.start()
    sqs = fakesqs_server.client()
    # While the poll waits, other requests, on its queue and on others, are answered.
    sqs.send_message(QueueUrl=other_url, MessageBody="elsewhere")
    assert sqs.receive_message(QueueUrl=other_url)["Messages"][0]["Body"] == "elsewhere"
    sqs.get_queue_attributes(QueueUrl=waiting_url, AttributeNames=["All"])
    sqs.send_message(QueueUrl=waiting_url, MessageBody="wake up")
    poller.join(timeout=30)  # real-time: the poll is woken by the send, in another thread

    assert not poller.is_alive()
    assert [m["Body"] for m in received[0]["Messages"]] == ["wake up"]


def test_a_request_with_broken_framing_gets_400(fakesqs_server: FakeSQSServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", fakesqs_server.port, timeout=30)
    connection.putrequest("POST", "/")
    connection.putheader("Content-Length", "many")
    connection.endheaders()
    response = connection.getresponse()

    assert response.status == 400
    assert response.getheader("Server") == "pytest-fakesqs"
    connection.close()


@pytest.mark.parametrize(
    ("url", "headers", "body", "action"),
    [
        ("http://h/", {"x-amz-target": "AmazonSQS.SendMessage"}, b"{}", "SendMessage"),
        ("http://h/1/q", {}, b"Action=DeleteMessage&Version=2012-11-05", "DeleteMessage"),
        ("http://h/?Action=ListQueues", {}, b"", "ListQueues"),
        ("http://h/", {}, b"", "-"),
    ],
)
def test_the_request_log_names_the_action_in_either_protocol(
    url: str, headers: dict[str, str], body: bytes, action: str
) -> None:
    assert action_of(WireRequest("POST", url, headers, body)) == action
