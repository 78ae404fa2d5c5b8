"""Connections cost a socket, not a thread: idle keep-alive crowds, long polls by the hundred,
pipelining, and the limits of a server left running (issue 28 §1).

Sizes are what CI affords in one process (each connection is two file descriptors here, the
client's and the server's); `benchmarks/connections.py` runs the 2,000 / 500 figures.
"""

from __future__ import annotations

import dataclasses
import json
import select
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.engine import Queue
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.transport.connections import (
    FILES_HELD_BACK,
    HttpLimits,
    effective_max_connections,
)

from .raw_http import BOUND, QUICK, WellFormedClient, closing_all, connect, serving, wait_until

IDLE_CROWD = 300
POLLERS = 200
# Room for the crowds below: nothing here waits for a deadline.
ROOMY = dataclasses.replace(
    QUICK, idle_timeout=120.0, header_timeout=60.0, body_timeout=60.0, max_connections=1_000
)


@pytest.fixture
def opened() -> Iterator[list[socket.socket]]:
    with closing_all() as sockets:
        yield sockets


def _request(target: str, document: dict[str, object], *, close: bool = False) -> bytes:
    body = json.dumps(document).encode()
    return (
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
        + f"X-Amz-Target: AmazonSQS.{target}\r\nContent-Length: {len(body)}\r\n".encode()
        + (b"Connection: close\r\n" if close else b"")
        + b"\r\n"
        + body
    )


class Answers:
    """The HTTP answers arriving on one socket, one at a time, by their Content-Length."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def _fill(self, until: Callable[[], bool]) -> None:
        self.sock.settimeout(BOUND)
        while not until():
            chunk = self.sock.recv(65536)
            assert chunk, f"closed before a whole answer: {self.buffer[:200]!r}"
            self.buffer += chunk

    def next(self) -> tuple[int, bytes]:
        self._fill(lambda: b"\r\n\r\n" in self.buffer)
        head, _, _ = self.buffer.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        whole = len(head) + 4 + length
        self._fill(lambda: len(self.buffer) >= whole)
        answer, self.buffer = self.buffer[:whole], self.buffer[whole:]
        return int(head.split(b" ", 2)[1]), answer[len(head) + 4 :]


def _read_answer(sock: socket.socket) -> tuple[int, bytes]:
    """The one answer a socket is owed (nothing more may follow it)."""
    answers = Answers(sock)
    answer = answers.next()
    assert answers.buffer == b"", "more than one answer arrived"
    return answer


def _in_process() -> Any:
    """A boto3 client of this process: the fake serves it in-process, from this thread."""
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s"
    )


def _queue(fakesqs: FakeSQS, name: str) -> Queue:
    queue = core_of(fakesqs).broker.find(fakesqs.key(name))
    assert queue is not None
    return queue


def test_an_idle_crowd_costs_no_thread_and_a_new_client_is_answered_meanwhile(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    fakesqs.create_queue("orders")
    with serving(fakesqs, ROOMY) as server:
        threads_serving = set(threading.enumerate())
        for _ in range(IDLE_CROWD):
            connect(server, opened)
        wait_until(lambda: server.http.open_connections == IDLE_CROWD)

        with WellFormedClient(server) as newcomer:
            assert len(newcomer.list_queues()) == 1

        # A socket each, not a thread: none started (counting them was thrown off by an
        # earlier test's thread ending meanwhile).
        assert set(threading.enumerate()) - threads_serving == set()
        assert server.http.refused_connections == 0


def test_the_connection_cap_is_far_above_what_clients_pool() -> None:
    assert HttpLimits().max_connections >= 10_000
    # Beyond what the process may open, the cap comes down, so an extra client gets a 503
    # rather than an accept that fails for want of a file descriptor.
    limits = HttpLimits(max_connections=10_000)
    assert effective_max_connections(limits, 1024) == 1024 - FILES_HELD_BACK
    assert effective_max_connections(limits, 1_000_000) == 10_000
    assert effective_max_connections(limits, None) == 10_000


@pytest.mark.fakesqs(clock="real")
def test_long_polls_wait_without_a_thread_each_and_one_send_wakes_exactly_one(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("jobs")
    queue = _queue(fakesqs, "jobs")
    with serving(fakesqs, ROOMY) as server:
        threads_serving = set(threading.enumerate())
        polls = [connect(server, opened) for _ in range(POLLERS)]
        for sock in polls:
            sock.sendall(_request("ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": 20}))
        wait_until(lambda: queue.pollers == POLLERS)

        assert set(threading.enumerate()) - threads_serving == set()  # none started
        assert queue.condition.parked == POLLERS  # parked, not blocking threads
        with WellFormedClient(server) as other:  # other requests are answered meanwhile
            assert [u.rpartition("/")[2] for u in other.list_queues()] == ["jobs"]

        _in_process().send_message(QueueUrl=url, MessageBody="one")  # in-process, this thread

        readable, _, _ = select.select(polls, [], [], BOUND)  # real-time: the one answer
        assert len(readable) == 1
        status, body = _read_answer(readable[0])
        assert status == 200
        assert [m["Body"] for m in json.loads(body)["Messages"]] == ["one"]
        assert queue.pollers == POLLERS - 1
        assert queue.condition.parked == POLLERS - 1  # the others were never woken

        # A send over HTTP (from the loop's own thread) wakes one too.
        with WellFormedClient(server) as sender:
            sender.connection.request(
                "POST",
                "/",
                body=json.dumps({"QueueUrl": url, "MessageBody": "two"}).encode(),
                headers={
                    "Content-Type": "application/x-amz-json-1.0",
                    "X-Amz-Target": "AmazonSQS.SendMessage",
                },
            )
            assert sender.connection.getresponse().status == 200
        waiting = [sock for sock in polls if sock is not readable[0]]
        readable, _, _ = select.select(waiting, [], [], BOUND)  # real-time: the one answer
        assert len(readable) == 1
        assert "two" in _read_answer(readable[0])[1].decode()
        assert queue.condition.parked == POLLERS - 2

        for sock in polls:  # clients that hang up give their polls up at once
            sock.close()
        wait_until(lambda: queue.pollers == 0)
        assert fakesqs.queue("jobs").backlog().count == 2  # both in flight, none lost


@pytest.mark.fakesqs(clock="real")
def test_a_send_of_ten_wakes_ten_polls(fakesqs: FakeSQS, opened: list[socket.socket]) -> None:
    url = fakesqs.create_queue("jobs")
    queue = _queue(fakesqs, "jobs")
    with serving(fakesqs, ROOMY) as server:
        polls = [connect(server, opened) for _ in range(20)]
        for sock in polls:
            sock.sendall(_request("ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": 20}))
        wait_until(lambda: queue.pollers == 20)

        entries = [{"Id": str(i), "MessageBody": f"m{i}"} for i in range(10)]
        _in_process().send_message_batch(QueueUrl=url, Entries=entries)

        wait_until(lambda: queue.pollers == 10)
        received = []
        readable, _, _ = select.select(polls, [], [], BOUND)  # real-time: ten answers
        wait_until(lambda: len(select.select(polls, [], [], 0)[0]) == 10)
        for sock in select.select(polls, [], [], 0)[0]:
            received += [m["Body"] for m in json.loads(_read_answer(sock)[1])["Messages"]]
        assert sorted(received) == sorted(f"m{i}" for i in range(10))
        assert readable


def test_pipelined_requests_are_answered_in_order_and_none_is_lost(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("orders")
    with serving(fakesqs, ROOMY) as server:
        sock = connect(server, opened)
        sock.sendall(
            b"".join(
                _request("SendMessage", {"QueueUrl": url, "MessageBody": f"m{i}"})
                for i in range(20)
            )
            + _request("GetQueueAttributes", {"QueueUrl": url, "AttributeNames": ["All"]})
        )

        reader = Answers(sock)
        answers = [reader.next() for _ in range(21)]

        assert {status for status, _ in answers} == {200}
        assert all(b"MessageId" in body for _, body in answers[:20])
        attributes = json.loads(answers[20][1])["Attributes"]
        assert attributes["ApproximateNumberOfMessages"] == "20"
        assert fakesqs.queue("orders").bodies() == [f"m{i}" for i in range(20)]


@pytest.mark.fakesqs(clock="real")
def test_a_request_pipelined_behind_a_long_poll_waits_its_turn(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("jobs")
    queue = _queue(fakesqs, "jobs")
    with serving(fakesqs, ROOMY) as server:
        sock = connect(server, opened)
        sock.sendall(
            _request("ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": 20})
            + _request("ListQueues", {})
        )
        wait_until(lambda: queue.pollers == 1)

        _in_process().send_message(QueueUrl=url, MessageBody="wake")

        reader = Answers(sock)
        first, second = reader.next(), reader.next()
        assert json.loads(first[1])["Messages"][0]["Body"] == "wake"
        assert json.loads(second[1]) == {"QueueUrls": ["http://127.0.0.1/123456789012/jobs"]}


def test_a_connection_close_request_is_answered_then_closed(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    with serving(fakesqs, ROOMY) as server:
        sock = connect(server, opened)
        sock.sendall(_request("ListQueues", {}, close=True) + _request("ListQueues", {}))

        reader = Answers(sock)
        status, _ = reader.next()

        assert status == 200
        assert (
            reader.buffer == b"" and sock.recv(100) == b""
        )  # closed; what followed was never read
        wait_until(lambda: server.http.open_connections == 0)


@pytest.mark.fakesqs(clock="real")
def test_stopping_the_server_ends_waiting_polls(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs")
    queue = _queue(fakesqs, "jobs")
    with closing_all() as opened:
        server = FakeSQSServer(fakesqs, limits=ROOMY).start()
        for _ in range(5):
            connect(server, opened).sendall(
                _request("ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": 20})
            )
        wait_until(lambda: queue.pollers == 5)

        server.stop()

        assert queue.pollers == 0
        assert server.http.open_connections == 0


def test_the_server_libraries_load_when_a_server_starts_and_metrics_at_the_first_scrape() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, urllib.request\n"
        "from pytest_fakesqs import fake_sqs, FakeSQSServer\n"
        "libraries = ('greenlet', 'httptools', 'prometheus_client')\n"
        "loaded = lambda: [m for m in libraries if m in sys.modules]\n"
        "with fake_sqs() as fake:\n"
        "    fake.create_queue('orders')\n"
        "    print(loaded())\n"
        "    with FakeSQSServer(fake) as server:\n"
        "        print(loaded())\n"
        "        urllib.request.urlopen(server.endpoint_url + '/metrics').read()\n"
        "        print(loaded())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout

    assert out.splitlines() == [
        "[]",
        "['greenlet', 'httptools']",
        "['greenlet', 'httptools', 'prometheus_client']",
    ]


@pytest.mark.fakesqs(clock="system")
def test_a_long_poll_over_http_under_freezegun_ends_as_in_process_ones_do(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    import freezegun

    url = fakesqs.create_queue("jobs")
    sqs = fakesqs_server.client()
    # freezegun also freezes time.monotonic, which asyncio's timers read: the server's loop
    # keeps its own clock, so the poll sees time stand still and gives up instead of hanging.
    with freezegun.freeze_time("2024-06-01"):
        answer = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)

    assert "Messages" not in answer
