"""kombu's asynchronous HTTP client, the one Celery's SQS worker polls with, served in-process.

The main venv has kombu 5.6+ (pycurl's CurlClient); `make test` also runs this file in a venv
with kombu 5.5 (its Urllib3Client) and one with kombu 5.4 (CurlClient, the hub and requests of
before 5.5), so both clients kombu ever shipped are served. The venv says
which one it expects in FAKESQS_KOMBU_CLIENT, so a wrong install fails instead of skipping.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import kombu
import pytest
from botocore.awsrequest import AWSRequest
from kombu.asynchronous import Hub, set_event_loop
from kombu.asynchronous.aws.sqs.connection import AsyncSQSConnection
from kombu.asynchronous.http import Request, get_client
from vine import promise

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.transport.kombu_http import _HubDeliveries

EXPECTED_CLIENT = os.environ.get("FAKESQS_KOMBU_CLIENT", "CurlClient")
KOMBU_BEFORE_5_5 = tuple(int(part) for part in kombu.__version__.split(".")[:2]) < (5, 5)
QUERY_PROTOCOL = boto3.client("sqs", region_name="us-east-1").meta.service_model.protocol == "query"
# real-time: bounds how long a test drives the hub waiting for a callback; never reached
DEADLINE = 30.0


@pytest.fixture
def hub() -> Iterator[Hub]:
    loop = Hub()
    set_event_loop(loop)
    yield loop
    loop.close()
    set_event_loop(None)


def run_until(hub: Hub, done: Callable[[], bool]) -> None:
    """Drive the hub, as a worker does, until `done()`; fails past the deadline."""
    deadline = time.monotonic() + DEADLINE
    loop = hub.create_loop()
    while not done():
        assert time.monotonic() < deadline, "the hub never ran the callback"
        next(loop)


def async_connection(region: str = "us-east-1") -> AsyncSQSConnection:
    return AsyncSQSConnection(boto3.client("sqs", region_name=region), region=region)


def test_kombu_picked_the_client_this_venv_expects(fakesqs: FakeSQS, hub: Hub) -> None:
    assert type(get_client(hub)).__name__ == EXPECTED_CLIENT


def test_a_receive_through_kombu_is_answered_by_the_fake(fakesqs: FakeSQS, hub: Hub) -> None:
    url = fakesqs.create_queue("jobs")
    boto3.client("sqs", region_name="us-east-1").send_message(QueueUrl=url, MessageBody="job")
    answers: list[Any] = []
    threads: list[int] = []

    def on_messages(reply: Any) -> None:
        threads.append(threading.get_ident())
        answers.append(reply)

    async_connection().receive_message(
        "jobs", url, number_messages=10, wait_time_seconds=20, callback=promise(on_messages)
    )
    run_until(hub, lambda: bool(answers))

    [message] = answers[0]["Messages"]
    assert message["Body"] == "job"
    if KOMBU_BEFORE_5_5 and not QUERY_PROTOCOL:
        # kombu < 5.5 sends the query form's AttributeName.1 inside a JSON body: not a member
        # of the JSON protocol, so ignored (a guess at AWS: kombu 5.4 ran against it so).
        assert "Attributes" not in message
    else:
        assert message["Attributes"] == {"ApproximateReceiveCount": "1"}
    assert threads == [threading.get_ident()]  # on the hub's own thread
    [call] = fakesqs.calls("ReceiveMessage")
    assert call.params["WaitTimeSeconds"] == 20
    assert fakesqs.queue("jobs").backlog().in_flight == 1


def test_callbacks_run_when_the_client_runs_them(fakesqs: FakeSQS, hub: Hub) -> None:
    """CurlClient answers on a later turn of the hub; Urllib3Client within add_request."""
    url = fakesqs.create_queue("jobs")
    answers: list[Any] = []
    async_connection().receive_message(
        "jobs", url, wait_time_seconds=0, callback=promise(answers.append)
    )
    if EXPECTED_CLIENT == "CurlClient":
        assert answers == []
        run_until(hub, lambda: bool(answers))
    [reply] = answers
    assert "Messages" not in reply
    assert [call.action for call in fakesqs.calls()] == ["ReceiveMessage"]


@pytest.mark.skipif(EXPECTED_CLIENT != "CurlClient", reason="kombu 5.5's client answers at once")
def test_the_hub_may_iterate_its_close_callbacks_as_kombu_before_5_5_does(
    fakesqs: FakeSQS, hub: Hub
) -> None:
    """kombu 5.4's Hub.close runs `for callback in self.on_close` over the set itself: the
    fake's close callback must not take itself out of it then (RuntimeError: Set changed size
    during iteration, on every worker stop). Later kombus iterate a copy."""
    url = fakesqs.create_queue("jobs")
    answers: list[Any] = []
    async_connection().receive_message(
        "jobs", url, wait_time_seconds=0, callback=promise(answers.append)
    )
    run_until(hub, lambda: bool(answers))
    [ours] = [c for c in hub.on_close if isinstance(getattr(c, "__self__", None), _HubDeliveries)]
    before = set(hub.on_close)
    ours(hub)  # as the hub's close calls it
    assert hub.on_close == before  # left alone: the hub may be iterating it


def test_deletes_and_visibility_changes_go_through_the_fake(fakesqs: FakeSQS, hub: Hub) -> None:
    url = fakesqs.create_queue("jobs")
    sqs = boto3.client("sqs", region_name="us-east-1")
    sqs.send_message(QueueUrl=url, MessageBody="a")
    sqs.send_message(QueueUrl=url, MessageBody="b")
    first, second = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2)["Messages"]
    _, delete = signed("DeleteMessage", {"QueueUrl": url, "ReceiptHandle": first["ReceiptHandle"]})
    change = {"QueueUrl": url, "ReceiptHandle": second["ReceiptHandle"], "VisibilityTimeout": 0}
    _, release = signed("ChangeMessageVisibility", change)

    assert through_kombu(hub, delete)[0] == 200
    assert through_kombu(hub, release)[0] == 200
    assert fakesqs.queue("jobs").bodies() == [second["Body"]]
    assert fakesqs.queue("jobs").backlog().in_flight == 0


# real-time: how long the poll waits for a send; CurlClient's is woken at once, Urllib3Client's
# (holding the hub) waits it out.
@pytest.mark.fakesqs(
    clock="autojump", autojump_threshold=5.0 if EXPECTED_CLIENT == "CurlClient" else 0.2
)
def test_a_long_poll_leaves_the_hub_free_only_with_curl(fakesqs: FakeSQS, hub: Hub) -> None:
    """CurlClient waits in the background, so the hub sends while it polls and the poll wakes
    with the message; Urllib3Client holds the hub until its poll ends, as it does on SQS."""
    url = fakesqs.create_queue("jobs")
    sender = boto3.client("sqs", region_name="us-east-1")
    answers: list[Any] = []
    async_connection().receive_message(
        "jobs", url, wait_time_seconds=20, callback=promise(answers.append)
    )
    sent: list[Any] = []
    hub.call_soon(lambda: sent.append(sender.send_message(QueueUrl=url, MessageBody="polling")))
    run_until(hub, lambda: bool(answers and sent))

    if EXPECTED_CLIENT == "CurlClient":
        assert [m["Body"] for m in answers[0]["Messages"]] == ["polling"]
    else:
        assert "Messages" not in answers[0]  # the hub sent only once the poll had ended
        assert fakesqs.queue("jobs").bodies() == ["polling"]


def signed(action: str, params: dict[str, Any] | bytes) -> Any:
    """A request as kombu's AsyncSQSConnection builds one: signed with botocore, sent raw."""
    sqs = boto3.client("sqs", region_name="us-east-1")
    request = AWSRequest(
        method="POST",
        url="https://sqs.us-east-1.amazonaws.com/",
        data=params if isinstance(params, bytes) else json.dumps(params).encode(),
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": f"AmazonSQS.{action}",
        },
    )
    sqs._request_signer.sign("ReceiveMessage", request)
    return sqs, request.prepare()


def through_kombu(hub: Hub, prepared: Any) -> tuple[int, dict[str, str], bytes]:
    request = Request(
        prepared.url, method="POST", headers=dict(prepared.headers.items()), body=prepared.body
    )
    responses: list[Any] = []
    request.then(responses.append)
    get_client(hub).add_request(request)
    run_until(hub, lambda: bool(responses))
    [response] = responses
    # CurlClient parses the response headers into the request's own, as the real one does.
    headers = request.headers if EXPECTED_CLIENT == "CurlClient" else response.headers
    return response.code, {k.lower(): v for k, v in headers.items()}, response.body


@pytest.mark.parametrize(
    ("action", "body"),
    [
        pytest.param("NoSuchAction", b"{}", id="an unknown action"),
        pytest.param("ReceiveMessage", b"{not json", id="a malformed body"),
        pytest.param("ReceiveMessage", b"{}", id="a missing parameter"),
    ],
)
def test_a_request_the_fake_cannot_serve_gets_the_error_botocore_gets(
    fakesqs: FakeSQS, hub: Hub, action: str, body: bytes
) -> None:
    sqs, prepared = signed(action, body)
    code, headers, answer = through_kombu(hub, prepared)
    botocore_answer = sqs._endpoint._send(prepared)  # the same bytes through botocore's send

    assert code == botocore_answer.status_code == 400
    assert answer == botocore_answer.content
    assert json.loads(answer)["__type"]
    for name in ("x-amzn-query-error", "content-type"):
        assert headers.get(name) == botocore_answer.headers.get(name)


def test_an_invalid_receive_fails_in_kombu_with_the_error_boto3_gets(
    fakesqs: FakeSQS, hub: Hub
) -> None:
    url = fakesqs.create_queue("jobs")
    errors: list[BaseException] = []
    callback = promise(lambda reply: None, on_error=errors.append)
    async_connection().receive_message("jobs", url, number_messages=11, callback=callback)
    run_until(hub, lambda: bool(errors))
    try:
        boto3.client("sqs", region_name="us-east-1").receive_message(
            QueueUrl=url, MaxNumberOfMessages=11
        )
    except Exception as exc:
        boto3_error = exc.response["Error"]  # type: ignore[attr-defined]
    assert "HTTP 400" in str(errors[0])
    assert boto3_error["Message"] in str(errors[0])
    assert boto3_error["Code"] in str(errors[0])


def client_class() -> Any:
    module = {"CurlClient": "curl", "Urllib3Client": "urllib3_client"}[EXPECTED_CLIENT]
    return getattr(importlib.import_module(f"kombu.asynchronous.http.{module}"), EXPECTED_CLIENT)


def test_stopping_the_fake_frees_a_waiting_poll_and_puts_the_client_back() -> None:
    original = client_class().__dict__["add_request"]
    answers: list[Any] = []
    polling = threading.Event()

    def worker(url: str) -> None:  # a worker's thread: its own hub, polling until answered
        hub = Hub()
        set_event_loop(hub)
        try:
            polling.set()
            async_connection().receive_message(
                "jobs", url, wait_time_seconds=20, callback=promise(answers.append)
            )
            run_until(hub, lambda: bool(answers))
        finally:
            hub.close()
            set_event_loop(None)

    # The poll would wait 30 real seconds for a send before time jumps: stopping frees it.
    with fake_sqs(clock="autojump", autojump_threshold=30.0) as fake:
        assert client_class().__dict__["add_request"] is not original
        thread = threading.Thread(target=worker, args=(fake.create_queue("jobs"),))
        thread.start()
        assert polling.wait(DEADLINE)
        [queue] = core_of(fake).broker.queues()
        while not queue.pollers:
            time.sleep(0.01)  # real-time: until the poll waits in the fake
    thread.join(DEADLINE)

    assert not thread.is_alive()
    [reply] = answers  # the cancelled poll's empty answer, delivered as usual
    assert "Messages" not in reply
    assert client_class().__dict__["add_request"] is original
    assert not [t for t in threading.enumerate() if t.name == "fakesqs-kombu-receive"]


def test_kombu_is_patched_only_once_imported_and_put_back_after() -> None:
    probe = """
import sys
from pytest_fakesqs import fake_sqs
with fake_sqs():
    assert not [m for m in sys.modules if m.startswith("kombu")], "kombu imported by the fake"
    from kombu.asynchronous.http import curl
    patched = curl.CurlClient.__dict__["add_request"]
    assert patched.__module__ == "pytest_fakesqs.transport.kombu_http", patched
assert curl.CurlClient.__dict__["add_request"].__module__ == "kombu.asynchronous.http.curl"
print("ok")
"""
    if EXPECTED_CLIENT != "CurlClient":
        probe = probe.replace("curl", "urllib3_client").replace("CurlClient", "Urllib3Client")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_with_blocking_on_an_unserved_kombu_request_is_refused(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
import boto3
from kombu.asynchronous import Hub, set_event_loop
from kombu.asynchronous.aws.sqs.connection import AsyncSQSConnection

JOBS = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs"

def test_polls_without_a_fake():
    set_event_loop(Hub())
    sqs = boto3.client(
        "sqs", region_name="eu-west-1", aws_access_key_id="a", aws_secret_access_key="b"
    )
    AsyncSQSConnection(sqs, region="eu-west-1").receive_message("jobs", JOBS, wait_time_seconds=20)
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs", "-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *RealSQSBlocked: Real SQS access not allowed: ReceiveMessage to "
            "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs was not served by a fake "
            "(fakesqs_block_real_sqs = true: every SQS endpoint no fake serves is blocked).",
        ]
    )
