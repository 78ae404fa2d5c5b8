"""The server's own endpoints: the health check and LocalStack's peek (`/_aws/sqs/messages`)."""

from __future__ import annotations

import http.client
import json
import xml.etree.ElementTree as ElementTree
from typing import Any
from urllib.parse import quote

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.protocol import WireRequest
from pytest_fakesqs.transport.routes import Route, json_response

_NS = "{http://queue.amazonaws.com/doc/2012-11-05/}"


def request(
    server: FakeSQSServer,
    method: str,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def peek_json(server: FakeSQSServer, query: str, path: str = "/_aws/sqs/messages") -> Any:
    status, _, body = request(
        server, "GET", f"{path}?{query}", headers={"Accept": "application/json"}
    )
    return status, json.loads(body)


def messages_of(document: Any) -> list[dict[str, Any]]:
    """LocalStack's JSON rendering of XML: one message is an object, several a list."""
    found = document["ReceiveMessageResponse"]["ReceiveMessageResult"]
    if found is None:
        return []
    listed = found["Message"]
    return listed if isinstance(listed, list) else [listed]


def attributes_of(message: dict[str, Any]) -> dict[str, str]:
    return {a["Name"]: a["Value"] for a in message["Attribute"]}


@pytest.fixture
def sqs(fakesqs_server: FakeSQSServer) -> Any:
    return fakesqs_server.client()


# -- health -----------------------------------------------------------------------------------


def test_health_reports_version_and_uptime(fakesqs: FakeSQS, fakesqs_server: FakeSQSServer) -> None:
    fakesqs.create_queue("jobs")

    status, headers, body = request(fakesqs_server, "GET", "/_fakesqs/health")
    health = json.loads(body)

    assert status == 200
    assert headers["Content-Type"] == "application/json"
    assert health["status"] == "ok"
    assert health["version"] == "0.1.0"
    assert isinstance(health["uptime"], float) and health["uptime"] >= 0
    assert health["queues"] == 1


def test_unknown_own_paths_are_404_and_wrong_methods_405(fakesqs_server: FakeSQSServer) -> None:
    status, _, body = request(fakesqs_server, "GET", "/_aws/nothing-here")
    assert status == 404
    assert "/_fakesqs/health" in json.loads(body)["error"]
    status, headers, body = request(fakesqs_server, "GET", "/_fakesqs/nothing-here")
    assert status == 404  # under /_fakesqs/, the dashboard's own page says so
    assert b"nothing-here" in body

    status, headers, _ = request(fakesqs_server, "POST", "/_fakesqs/health")
    assert status == 405
    assert headers["Allow"] == "GET"


def test_the_route_table_takes_one_more_endpoint(fakesqs_server: FakeSQSServer) -> None:
    def hello(request: WireRequest) -> Any:
        return json_response(200, {"hello": request.method})

    fakesqs_server.http.routes.append(Route("/_fakesqs/hello", ("GET",), hello))

    status, _, body = request(fakesqs_server, "GET", "/_fakesqs/hello")

    assert (status, json.loads(body)) == (200, {"hello": "GET"})


# -- LocalStack's peek ------------------------------------------------------------------------


def test_peek_lists_messages_as_xml_without_receiving_them(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="message-1")
    sqs.send_message(
        QueueUrl=url,
        MessageBody="message-2",
        MessageAttributes={"kind": {"DataType": "String", "StringValue": "x"}},
    )

    for _ in range(2):  # peeking twice: still never received
        status, headers, body = request(
            fakesqs_server, "GET", f"/_aws/sqs/messages?QueueUrl={quote(url, safe='')}"
        )
        assert status == 200
        assert headers["content-type"] == "text/xml"
        root = ElementTree.fromstring(body)
        messages = root.findall(f"{_NS}ReceiveMessageResult/{_NS}Message")
        assert [m.findtext(f"{_NS}Body") for m in messages] == ["message-1", "message-2"]
        assert {m.findtext(f"{_NS}ReceiptHandle") for m in messages} == {"SQS/BACKDOOR/ACCESS"}
        counts = [
            a.findtext(f"{_NS}Value")
            for m in messages
            for a in m.findall(f"{_NS}Attribute")
            if a.findtext(f"{_NS}Name") == "ApproximateReceiveCount"
        ]
        assert counts == ["0", "0"]
        assert messages[1].find(f"{_NS}MessageAttribute") is not None

    assert [m.receive_count for m in fakesqs.queue("jobs").messages()] == [0, 0]
    received = sqs.receive_message(QueueUrl=url, AttributeNames=["All"])["Messages"][0]
    assert received["Attributes"]["ApproximateReceiveCount"] == "1"


def test_peek_as_json_with_invisible_and_delayed_messages(
    fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    for body in ("message-1", "message-2", "message-3"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=10)
    sqs.receive_message(QueueUrl=url)  # message-1 goes in flight
    address = f"QueueUrl={quote(url, safe='')}"

    _, plain = peek_json(fakesqs_server, address)
    _, invisible = peek_json(fakesqs_server, address + "&ShowInvisible=true")
    _, delayed = peek_json(fakesqs_server, address + "&ShowDelayed=true")

    assert [m["Body"] for m in messages_of(plain)] == ["message-2", "message-3"]
    assert "IsVisible" not in attributes_of(messages_of(plain)[0])
    assert [(m["Body"], attributes_of(m)["IsVisible"]) for m in messages_of(invisible)] == [
        ("message-1", "false"),
        ("message-2", "true"),
        ("message-3", "true"),
    ]
    assert [(m["Body"], attributes_of(m)["IsDelayed"]) for m in messages_of(delayed)] == [
        ("message-2", "false"),
        ("message-3", "false"),
        ("later", "true"),
    ]
    first = messages_of(invisible)[0]
    assert attributes_of(first)["ApproximateReceiveCount"] == "1"
    assert first["MD5OfBody"] == "3d6b824fd8c1520e9a047d21fee6fb1f"
    assert attributes_of(first)["SentTimestamp"].isdigit()


def test_peek_json_of_one_message_is_an_object_and_of_none_is_null(
    fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    address = f"QueueUrl={quote(url, safe='')}"

    _, empty = peek_json(fakesqs_server, address)
    sqs.send_message(QueueUrl=url, MessageBody="only")
    _, one = peek_json(fakesqs_server, address)

    assert empty["ReceiveMessageResponse"]["ReceiveMessageResult"] is None
    assert one["ReceiveMessageResponse"]["ReceiveMessageResult"]["Message"]["Body"] == "only"
    assert "RequestId" in one["ReceiveMessageResponse"]["ResponseMetadata"]


def test_peek_a_fifo_queue_holds_back_groups_with_a_message_in_flight(
    fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(
        QueueName="jobs.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    for body, group in (("m1", "1"), ("m2", "1"), ("m3", "2"), ("m4", "2")):
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=group)
    sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)  # m1: group 1 is now blocked
    address = f"QueueUrl={quote(url, safe='')}"

    _, plain = peek_json(fakesqs_server, address)
    _, invisible = peek_json(fakesqs_server, address + "&ShowInvisible=true")

    assert [m["Body"] for m in messages_of(plain)] == ["m3", "m4"]
    assert [m["Body"] for m in messages_of(invisible)] == ["m1", "m2", "m3", "m4"]
    assert attributes_of(messages_of(invisible)[0])["MessageGroupId"] == "1"


def test_peek_by_path_region_account_and_name(fakesqs_server: FakeSQSServer, sqs: Any) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="one")
    sqs.send_message(QueueUrl=url, MessageBody="two")

    status, here = peek_json(fakesqs_server, "", "/_aws/sqs/messages/us-east-1/123456789012/jobs")
    wrong_status, elsewhere = peek_json(
        fakesqs_server, "", "/_aws/sqs/messages/us-east-2/123456789012/jobs"
    )

    assert status == 200
    assert [m["Body"] for m in messages_of(here)] == ["one", "two"]
    assert wrong_status == 400
    assert elsewhere["ErrorResponse"]["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"


def test_peek_errors_name_the_problem(fakesqs_server: FakeSQSServer) -> None:
    no_url_status, no_url = peek_json(fakesqs_server, "")
    bad_status, bad = peek_json(fakesqs_server, "QueueUrl=http://localhost:4566/nonsense")
    missing_status, missing = peek_json(
        fakesqs_server, "QueueUrl=http://localhost:4566/000000000000/hopefullydoesnotexist"
    )

    assert no_url_status == missing_status == 400
    assert no_url["ErrorResponse"]["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
    assert missing["ErrorResponse"]["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
    assert bad_status == 404
    assert bad["ErrorResponse"]["Error"]["Code"] == "InvalidAddress"


def test_peek_as_a_botocore_endpoint_answers_receive_message_only(
    fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    # botocore >= 1.31.81 speaks JSON here; `make test-query` runs this through the query form.
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="message-1")
    sqs.send_message(QueueUrl=url, MessageBody="message-2")
    peek = fakesqs_server.client(endpoint_url=f"{fakesqs_server.endpoint_url}/_aws/sqs/messages")

    answer = peek.receive_message(QueueUrl=url, MaxNumberOfMessages=1)  # the max is ignored
    with pytest.raises(ClientError) as refused:
        peek.send_message(QueueUrl=url, MessageBody="no")

    assert [m["Body"] for m in answer["Messages"]] == ["message-1", "message-2"]
    assert answer["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "0"
    assert refused.value.response["Error"]["Code"] == "InvalidRequest"
    assert refused.value.response["Error"]["Message"] == (
        "This endpoint only accepts ReceiveMessage calls"
    )


def test_peek_takes_a_query_form_body(fakesqs_server: FakeSQSServer, sqs: Any) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="formed")
    form = f"Action=ReceiveMessage&Version=2012-11-05&QueueUrl={quote(url, safe='')}"
    refused_form = f"Action=SendMessage&QueueUrl={quote(url, safe='')}&MessageBody=x"
    headers = {"Content-Type": "application/x-www-form-urlencoded"}

    status, _, body = request(
        fakesqs_server, "POST", "/_aws/sqs/messages", headers=headers, body=form.encode()
    )
    refused_status, _, refused = request(
        fakesqs_server, "POST", "/_aws/sqs/messages", headers=headers, body=refused_form.encode()
    )

    assert status == 200
    assert ElementTree.fromstring(body).findtext(f".//{_NS}Body") == "formed"
    assert refused_status == 400
    assert ElementTree.fromstring(refused).findtext(f".//{_NS}Code") == "InvalidRequest"


def test_peek_takes_a_plain_form_as_curl_posts_it(fakesqs_server: FakeSQSServer, sqs: Any) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="posted")
    form = f"QueueUrl={quote(url, safe='')}&ShowDelayed=true"
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}

    status, _, body = request(
        fakesqs_server, "POST", "/_aws/sqs/messages", headers=headers, body=form.encode()
    )

    assert status == 200
    (message,) = messages_of(json.loads(body))
    assert (message["Body"], attributes_of(message)["IsDelayed"]) == ("posted", "false")


def test_delete_on_the_peek_address_purges(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    other = sqs.create_queue(QueueName="other")["QueueUrl"]
    for target in (url, url, other):
        sqs.send_message(QueueUrl=target, MessageBody="x")

    status, _, _ = request(
        fakesqs_server, "DELETE", f"/_aws/sqs/messages?QueueUrl={quote(url, safe='')}"
    )
    by_path, _, _ = request(fakesqs_server, "DELETE", "/_aws/sqs/messages/us-east-1/123456789012/x")

    assert status == 200
    assert fakesqs.queue("jobs").backlog().count == 0
    assert fakesqs.queue("other").backlog().count == 1
    assert by_path == 400  # no queue "x"
