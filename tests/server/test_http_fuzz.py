"""A fuzz of the HTTP layer itself: malformed request lines and headers, bad chunking, truncated
bodies, random bytes and a crowd of idle sockets, with a well-formed client answered throughout.

Bounded: every case is a fresh loopback connection read with a deadline, hypothesis runs a fixed
number of examples, and the idle crowd is capped (2,000 sockets, well below the fd limit).
"""

from __future__ import annotations

import dataclasses
import json
import re
import socket
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fakesqs import FakeSQS, FakeSQSServer

from .raw_http import (
    QUICK,
    WellFormedClient,
    closing_all,
    connect,
    read_all,
    serving,
    status_of,
    wait_until,
)

_JSON = b"Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
MALFORMED: dict[str, bytes] = {
    "empty line": b"\r\n\r\n",
    "garbage": b"GARBAGE\r\n\r\n",
    "method only": b"GET\r\n\r\n",
    "unknown version": b"GET / HTTP/9.9\r\n\r\n",
    "unknown method": b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n",
    "request line too long": b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    "header without colon": b"POST / HTTP/1.1\r\nNoColonHere\r\n\r\n",
    "header line too long": b"POST / HTTP/1.1\r\nX-Big: " + b"b" * 70_000 + b"\r\n\r\n",
    "too many headers": b"POST / HTTP/1.1\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(150)),
    "headers too large": b"POST / HTTP/1.1\r\n"
    + b"".join(b"X-%d: %s\r\n" % (i, b"v" * 4000) for i in range(60))
    + b"\r\n",
    "binary request line": b"\xff\xfe\x00\x01 / HTTP/1.1\r\n\r\n",
    "nul in path": b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "non-utf8 path": b"GET /\xc3\x28 HTTP/1.1\r\nHost: x\r\n\r\n",
    "content-length not a number": b"POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
    "negative content-length": b"POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
    "two content-lengths": b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    "truncated body": b"POST / HTTP/1.1\r\n" + _JSON + b"Content-Length: 100\r\n\r\n{}",
    "chunk size not hex": b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "chunk size huge": b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffff\r\n",
    "chunk cut short": b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc",
    "no final chunk": b"POST / HTTP/1.1\r\n"
    + _JSON
    + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n",
    "endless trailers": b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
    + b"X-T: 1\r\n" * 200,
    "chunk size line without newline": b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    + b"1" * 2000,
    "chunked and content-length": b"POST / HTTP/1.1\r\n"
    + _JSON
    + b"Content-Length: 50\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "garbage json body": b"POST / HTTP/1.1\r\n" + _JSON + b"Content-Length: 5\r\n\r\n{{{{{",
    "garbage form body": b"POST / HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 9\r\n\r\nAction=%%",
    "huge content-length": b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
    "half a request line": b"GET / HTT",
    "pipelined garbage": b"GET /_fakesqs/health HTTP/1.1\r\nHost: x\r\n\r\n\x00\x00\x00\r\n\r\n",
}


@pytest.fixture
def opened() -> Iterator[list[socket.socket]]:
    with closing_all() as sockets:
        yield sockets


# Idle connections close after 2 s here: long enough for the kept-alive client, under load,
# to keep its connection between two calls, short enough for the idle crowd to drain.
LIMITS = dataclasses.replace(QUICK, idle_timeout=2.0)


@pytest.fixture
def server(fakesqs: FakeSQS) -> Iterator[FakeSQSServer]:
    with serving(fakesqs, LIMITS) as served:
        yield served


def _send(server: FakeSQSServer, opened: list[socket.socket], raw: bytes) -> bytes:
    sock = connect(server, opened)
    try:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)  # the client is done: whatever it sent is all there is
    except OSError:
        pass  # the server may close first, e.g. on a line too long
    return read_all(sock)


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_request_gets_a_client_error_or_a_closed_connection(
    server: FakeSQSServer, opened: list[socket.socket], case: str
) -> None:
    with WellFormedClient(server) as client:
        client.list_queues()

        answer = _send(server, opened, MALFORMED[case])

        status = status_of(answer)
        # 501: a method HTTP has no handler for; never 500, the server's own failure.
        assert status in (None, 200, 501) or 400 <= status < 500, answer[:200]
        assert client.list_queues() == []  # served throughout


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    prefix=st.sampled_from([b"", b"POST / HTTP/1.1\r\n", b"GET /_aws/sqs/messages?QueueUrl="]),
    noise=st.binary(max_size=2048),
)
def test_random_bytes_never_crash_the_server(
    server: FakeSQSServer, prefix: bytes, noise: bytes
) -> None:
    with closing_all() as sockets, WellFormedClient(server) as client:
        answer = _send(server, sockets, prefix + noise)

        status = status_of(answer)
        assert status is None or status < 500 or status == 501, answer[:200]
        assert client.list_queues() == []


def test_thousands_of_idle_sockets_neither_exhaust_nor_stall_the_server(
    server: FakeSQSServer, opened: list[socket.socket]
) -> None:
    crowd = 2_000
    with WellFormedClient(server) as client:
        client.list_queues()
        for _ in range(crowd // 50):
            for _ in range(50):
                connect(server, opened)
            assert client.list_queues() == []  # the kept-alive client is answered meanwhile

        # The cap held: the rest were answered 503 and closed, the idle ones time out.
        assert server.http.open_connections <= QUICK.max_connections
        # (Slots freed by idle timeouts meanwhile let a few more in: most, not all, are refused.)
        assert server.http.refused_connections >= crowd * 3 // 4
        wait_until(lambda: server.http.open_connections <= 1)
        for sock in opened:
            sock.close()
        opened.clear()
        with WellFormedClient(server) as fresh:
            assert fresh.list_queues() == []  # and new clients are served again


# -- the event-loop server's own framing: pipelining, truncation, garbage between requests ------


def _send_request(url: str, body: str) -> bytes:
    document = json.dumps({"QueueUrl": url, "MessageBody": body}).encode()
    return (
        b"POST / HTTP/1.1\r\nHost: x\r\n"
        + _JSON.replace(b"ListQueues", b"SendMessage")
        + f"Content-Length: {len(document)}\r\n\r\n".encode()
        + document
    )


def _statuses(answer: bytes) -> list[int]:
    """The status of every answer in what one connection received, in order."""
    return [int(status) for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    count=st.integers(min_value=1, max_value=6),
    cut=st.integers(min_value=1, max_value=400),
    garbage=st.binary(min_size=1, max_size=64).filter(lambda b: not b.isspace()),
    ending=st.sampled_from(["truncated", "garbage", "complete"]),
)
def test_pipelined_requests_then_a_bad_ending_lose_no_message(
    fakesqs: FakeSQS,
    server: FakeSQSServer,
    count: int,
    cut: int,
    garbage: bytes,
    ending: str,
) -> None:
    url = fakesqs.create_queue("fuzzed")
    before = fakesqs.queue("fuzzed").backlog().count
    requests = b"".join(_send_request(url, f"m{i}") for i in range(count))
    tail = {
        "truncated": _send_request(url, "cut")[:cut],  # the connection ends mid-request
        "garbage": garbage + _send_request(url, "after garbage"),
        "complete": b"",
    }[ending]
    with closing_all() as sockets, WellFormedClient(server) as client:
        answer = _send(server, sockets, requests + tail)

        statuses = _statuses(answer)
        # Every whole request before the bad ending was answered 200, in order, and stored.
        assert statuses[:count] == [200] * count, answer[:300]
        assert all(status < 500 for status in statuses), answer[-300:]
        stored = fakesqs.queue("fuzzed").backlog().count - before
        # A cut that kept the whole request is a whole request; garbage stops all that follows.
        extra = 1 if ending == "truncated" and cut >= len(_send_request(url, "cut")) else 0
        assert stored == count + extra
        assert client.list_queues()  # and the server serves on


def test_garbage_after_a_request_is_refused_once_the_request_is_answered(
    fakesqs: FakeSQS, server: FakeSQSServer, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("orders")

    answer = _send(server, opened, _send_request(url, "kept") + b"\x16\x03\x01 not http\r\n\r\n")

    assert _statuses(answer) == [200, 400]
    assert answer.endswith(b"\r\n\r\nfakesqs: malformed request (Invalid method encountered)\n")
    assert fakesqs.queue("orders").bodies() == ["kept"]


def test_a_request_cut_short_by_the_client_is_a_400_and_nothing_is_stored(
    fakesqs: FakeSQS, server: FakeSQSServer, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("orders")
    whole = _send_request(url, "never whole")

    answer = _send(server, opened, whole[:-5])

    assert _statuses(answer) == [400]
    assert b"fakesqs: request cut short" in answer
    assert fakesqs.queue("orders").bodies() == []
