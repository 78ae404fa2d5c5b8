"""`POST /_fakesqs/reset`: a long-running server starts afresh between suites; and, while
signatures are verified, reset and peek answer only signed requests."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any
from urllib.parse import quote

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.fake.facade import core_of

from .raw_http import closing_all, connect, wait_until

KEYS = {"AKIDTEAM": "team-secret"}


def post(
    server: FakeSQSServer, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def signed_headers(
    server: FakeSQSServer, method: str, path: str, key: str = "AKIDTEAM", secret: str = ""
) -> dict[str, str]:
    """What botocore's SigV4 signer adds to a request for this server (as the docs show)."""
    request = AWSRequest(method, f"{server.endpoint_url}{path}", data=b"")
    SigV4Auth(Credentials(key, secret or KEYS[key]), "sqs", "us-east-1").add_auth(request)
    return dict(request.headers.items())


def test_reset_forgets_every_queue_message_and_call(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="left over")

    status, answer = post(fakesqs_server, "/_fakesqs/reset")

    assert (status, answer) == (200, {"status": "reset", "queues": 0})
    assert fakesqs.calls() == []
    assert sqs.list_queues().get("QueueUrls", []) == []
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]  # and serves on as before
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    assert fakesqs.queue("orders").bodies() == []


@pytest.mark.fakesqs(queues={"declared": {}})
def test_reset_declares_the_configured_queues_afresh(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.get_queue_url(QueueName="declared")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="x")
    sqs.create_queue(QueueName="extra")

    status, answer = post(fakesqs_server, "/_fakesqs/reset")

    assert (status, answer["queues"]) == (200, 1)
    assert [u.rpartition("/")[2] for u in sqs.list_queues()["QueueUrls"]] == ["declared"]
    assert fakesqs.queue("declared").bodies() == []


@pytest.mark.fakesqs(clock="real")
def test_reset_ends_waiting_long_polls_at_once(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("jobs")
    queue = core_of(fakesqs).broker.find(fakesqs.key("jobs"))
    assert queue is not None
    body = json.dumps({"QueueUrl": url, "WaitTimeSeconds": 20}).encode()
    with closing_all() as opened:
        poll = connect(fakesqs_server, opened)
        poll.sendall(
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        wait_until(lambda: queue.pollers == 1)

        assert post(fakesqs_server, "/_fakesqs/reset")[0] == 200

        poll.settimeout(10)
        answer = poll.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200 ")
        assert answer.endswith(b"{}")  # an empty receive
        assert queue.pollers == 0


@pytest.mark.parametrize(
    ("body", "reason"),
    [(b"[1, 2]", "reset takes no body (or an empty JSON object)"), (b"{", "reset takes no body")],
)
def test_reset_with_a_body_is_a_400_with_a_reason(
    fakesqs_server: FakeSQSServer, body: bytes, reason: str
) -> None:
    status, answer = post(fakesqs_server, "/_fakesqs/reset", body)

    assert status == 400
    assert answer["error"].startswith(reason)


def test_reset_takes_post_only(fakesqs_server: FakeSQSServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", fakesqs_server.port, timeout=30)
    try:
        connection.request("GET", "/_fakesqs/reset")
        response = connection.getresponse()

        assert response.status == 405
        assert response.getheader("Allow") == "POST"
        assert json.loads(response.read())["error"] == (
            "GET is not allowed on /_fakesqs/reset; use POST"
        )
    finally:
        connection.close()


@pytest.mark.fakesqs(verify_signatures=True, credentials=KEYS)
def test_with_signatures_verified_an_unsigned_reset_is_refused(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    fakesqs.create_queue("orders")

    status, answer = post(fakesqs_server, "/_fakesqs/reset")

    assert status == 403
    assert answer["code"] == "MissingAuthenticationToken"
    assert answer["error"].startswith("MissingAuthenticationToken: ")
    assert fakesqs.queue("orders").backlog().count == 0  # still there: nothing was reset
    assert core_of(fakesqs).broker.find(fakesqs.key("orders")) is not None


@pytest.mark.fakesqs(verify_signatures=True, credentials=KEYS)
def test_with_signatures_verified_a_signed_reset_is_served(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    fakesqs.create_queue("orders")

    wrong = signed_headers(fakesqs_server, "POST", "/_fakesqs/reset", secret="guessed")
    assert post(fakesqs_server, "/_fakesqs/reset", headers=wrong)[0] == 403
    headers = signed_headers(fakesqs_server, "POST", "/_fakesqs/reset")
    status, _ = post(fakesqs_server, "/_fakesqs/reset", headers=headers)

    assert status == 200
    assert core_of(fakesqs).broker.find(fakesqs.key("orders")) is None


@pytest.mark.fakesqs(verify_signatures=True, credentials=KEYS)
def test_with_signatures_verified_peek_needs_a_signed_request(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("orders")
    path = f"/_aws/sqs/messages?QueueUrl={quote(url, safe='')}"
    connection = http.client.HTTPConnection("127.0.0.1", fakesqs_server.port, timeout=30)
    try:
        connection.request("GET", path, headers={"Accept": "application/json"})
        refused = connection.getresponse()
        assert refused.status == 403
        assert json.loads(refused.read())["code"] == "MissingAuthenticationToken"

        headers = signed_headers(fakesqs_server, "GET", path)
        connection.request("GET", path, headers={**headers, "Accept": "application/json"})
        served = connection.getresponse()
        assert served.status == 200, served.read()
        served.read()
    finally:
        connection.close()


def test_a_misspelt_reset_is_not_a_reset(fakesqs: FakeSQS, fakesqs_server: FakeSQSServer) -> None:
    fakesqs.create_queue("orders")

    status, answer = post(fakesqs_server, "/_fakesqs/rest")

    assert status == 405  # under /_fakesqs/ the dashboard's pages take GET only
    assert answer["error"] == "POST is not allowed on /_fakesqs/rest; use GET"
    assert core_of(fakesqs).broker.find(fakesqs.key("orders")) is not None


def test_nothing_is_lost_when_reset_and_sends_interleave_on_one_connection(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("orders")
    send = json.dumps({"QueueUrl": url, "MessageBody": "after"}).encode()
    with closing_all() as opened:
        sock: socket.socket = connect(fakesqs_server, opened)
        sock.sendall(
            b"POST /_fakesqs/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: AmazonSQS.CreateQueue\r\nContent-Length: 22\r\n\r\n"
            b'{"QueueName":"orders"}'
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: AmazonSQS.SendMessage\r\nConnection: close\r\n"
            + f"Content-Length: {len(send)}\r\n\r\n".encode()
            + send
        )
        sock.settimeout(10)
        answers = b""
        while chunk := sock.recv(65536):
            answers += chunk

    assert answers.count(b"HTTP/1.1 200 OK") == 3
    assert fakesqs.queue("orders").bodies() == ["after"]


@pytest.mark.parametrize("method", ["PUT", "PATCH", "HEAD", "OPTIONS"])
def test_a_method_no_endpoint_takes_is_a_405_naming_the_ones_it_does(
    fakesqs_server: FakeSQSServer, method: str
) -> None:
    with closing_all() as opened:
        sock = connect(fakesqs_server, opened)
        sock.sendall(f"{method} /_fakesqs/reset HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sock.settimeout(10)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk

    assert answer.startswith(b"HTTP/1.1 405 Method Not Allowed\r\n")
    assert b"Allow: GET, POST, DELETE\r\n" in answer
    assert answer.endswith(
        f"fakesqs: method {method} is not served; use GET, POST or DELETE\n".encode()
    )
