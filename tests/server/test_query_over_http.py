"""The query/XML protocol over real HTTP: old clients (and hand-made forms) reach the server."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

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


FORM = "application/x-www-form-urlencoded; charset=utf-8"
VERSION = "2012-11-05"


def send(
    server: FakeSQSServer,
    method: str,
    path: str,
    fields: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    body = urlencode(fields).encode() if fields is not None else None
    all_headers = {"Content-Type": FORM} if body is not None else {}
    all_headers.update(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    answer = (response.status, response.read().decode())
    connection.close()
    return answer


def test_a_get_with_the_action_in_the_query_string(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    fakesqs.create_queue("work")

    status, body = send(
        fakesqs_server,
        "GET",
        f"/?{urlencode({'Action': 'GetQueueUrl', 'QueueName': 'work', 'Version': VERSION})}",
        headers={"Host": f"localhost:{fakesqs_server.port}"},
    )

    assert status == 200
    assert f"<QueueUrl>http://localhost:{fakesqs_server.port}/123456789012/work</QueueUrl>" in body


@pytest.mark.fakesqs(verify_signatures=True, credentials={"AKIDTEAM": "team-secret"})
@pytest.mark.parametrize(
    ("secret", "status", "code"),
    [("team-secret", 200, None), ("guessed", 403, "SignatureDoesNotMatch")],
)
def test_signed_forms_are_verified(
    fakesqs: FakeSQS,
    fakesqs_server: FakeSQSServer,
    secret: str,
    status: int,
    code: str | None,
) -> None:
    fakesqs.create_queue("work")
    url = f"{fakesqs_server.endpoint_url}/123456789012/work"
    request: Any = AWSRequest(
        method="POST",
        url=url,
        data=urlencode({"Action": "SendMessage", "Version": VERSION, "MessageBody": "s"}),
        headers={"Content-Type": FORM},
    )
    SigV4Auth(Credentials("AKIDTEAM", secret), "sqs", "us-east-1").add_auth(request)
    headers = {k: str(v) for k, v in request.headers.items()}

    answer_status, body = send(
        fakesqs_server,
        "POST",
        "/123456789012/work",
        {"Action": "SendMessage", "Version": VERSION, "MessageBody": "s"},
        headers=headers,
    )

    assert answer_status == status
    if code is None:
        assert fakesqs.queue("work").bodies() == ["s"]
    else:
        assert f"<Code>{code}</Code>" in body
        assert fakesqs.queue("work").bodies() == []
