"""Bad clients cannot take the server down: deadlines, the connection cap, oversized bodies,
and a long poll whose client hangs up. The limits are made small (raw_http.QUICK), since these
are the tests that need real time to pass."""

from __future__ import annotations

import dataclasses
import json
import socket
import time
from collections.abc import Iterator

import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.server.server import FakeSQSServer

from .raw_http import (
    BOUND,
    QUICK,
    WellFormedClient,
    closing_all,
    connect,
    read_all,
    serving,
    status_of,
    wait_until,
)


@pytest.fixture
def opened() -> Iterator[list[socket.socket]]:
    with closing_all() as sockets:
        yield sockets


def test_an_idle_connection_is_closed_after_the_idle_timeout(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    with serving(fakesqs) as server:
        sock = connect(server, opened)
        wait_until(lambda: server.http.open_connections == 1)
        started = time.monotonic()

        assert read_all(sock) == b""  # closed without a word

        assert time.monotonic() - started < QUICK.idle_timeout + 2  # type: ignore[operator]
        wait_until(lambda: server.http.open_connections == 0)


def test_headers_trickled_a_byte_at_a_time_hit_the_header_deadline(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    with serving(fakesqs) as server:
        sock = connect(server, opened)
        sock.sendall(b"POST / HTTP/1.1\r\n")
        started = time.monotonic()
        with pytest.raises(OSError):  # the server closes while we trickle
            for byte in b"X-Slow: " + b"a" * 200:
                sock.sendall(bytes([byte]))
                time.sleep(0.05)  # real-time: a slow-loris client

        elapsed = time.monotonic() - started
        assert elapsed < QUICK.header_timeout + 2  # type: ignore[operator]
        wait_until(lambda: server.http.open_connections == 0)


def test_a_body_that_never_arrives_hits_the_body_deadline(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    with serving(fakesqs) as server:
        sock = connect(server, opened)
        sock.sendall(b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":')

        answer = read_all(sock)

        assert answer == b""
        wait_until(lambda: server.http.open_connections == 0)


def test_connections_beyond_the_cap_get_503_and_the_server_stays_responsive(
    fakesqs: FakeSQS,
    opened: list[socket.socket],
) -> None:
    limits = dataclasses.replace(QUICK, max_connections=4, idle_timeout=BOUND)
    with serving(fakesqs, limits) as server:
        client = WellFormedClient(server)
        client.list_queues()  # holds one of the 4
        idle = [connect(server, opened) for _ in range(3)]
        wait_until(lambda: server.http.open_connections == 4)

        refused = [connect(server, opened) for _ in range(5)]
        refused[0].sendall(b"GET /_fakesqs/health HTTP/1.1\r\nHost: x\r\n\r\n")
        answers = [read_all(sock) for sock in refused]

        assert {status_of(answer) for answer in answers} == {503}
        assert b"Retry-After: 1" in answers[0]
        assert client.list_queues() == []  # the connection it had is still served
        assert server.http.refused_connections == 5
        for sock in idle:
            sock.close()
        wait_until(lambda: server.http.open_connections == 1)
        with WellFormedClient(server) as another:
            assert another.list_queues() == []  # room again: served
        client.close()


@pytest.mark.parametrize("expect", [False, True])
def test_a_content_length_beyond_the_largest_request_is_refused_unread(
    fakesqs: FakeSQS, opened: list[socket.socket], expect: bool
) -> None:
    with serving(fakesqs) as server:
        sock = connect(server, opened)
        headers = b"Expect: 100-continue\r\n" if expect else b""
        sock.sendall(
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"Content-Length: 1000000000\r\n" + headers + b"\r\n"
        )  # and not one byte of the body

        answer = read_all(sock)

        assert status_of(answer) == 413
        assert b"100 Continue" not in answer


def test_the_largest_valid_request_is_not_refused(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    # 1 MiB of messages, each byte percent-encoded in the query protocol: 3 MiB on the wire.
    with serving(fakesqs, dataclasses.replace(QUICK, body_timeout=BOUND)) as server:
        url = fakesqs.create_queue("big")
        body = "\n" * (1_048_576 - 64)
        form = f"Action=SendMessage&QueueUrl={url}&MessageBody=" + "%0A" * len(body)
        sock = connect(server, opened)
        sock.sendall(
            b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {len(form)}\r\n\r\n".encode()
            + form.encode()
        )

        answer = read_all(sock)

        assert status_of(answer) == 200, answer[:300]
        assert fakesqs.queue("big").backlog().count == 1


@pytest.mark.fakesqs(clock="real")
def test_a_client_that_hangs_up_during_a_long_poll_frees_its_thread(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    url = fakesqs.create_queue("jobs")
    queue = core_of(fakesqs).broker.find(fakesqs.key("jobs"))
    assert queue is not None
    with serving(fakesqs) as server:
        sock = connect(server, opened)
        body = json.dumps({"QueueUrl": url, "WaitTimeSeconds": 20}).encode()
        sock.sendall(
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        wait_until(lambda: queue.pollers == 1)

        sock.close()

        freed_after = wait_until(lambda: server.http.open_connections == 0)
        assert queue.pollers == 0
        assert freed_after < 5  # not the 20 s the poll asked for
        with WellFormedClient(server) as client:
            assert len(client.list_queues()) == 1


def test_a_long_poll_that_is_answered_still_stops_being_watched(
    fakesqs: FakeSQS, opened: list[socket.socket]
) -> None:
    # On the frozen clock an empty long poll returns at once; the connection serves on.
    url = fakesqs.create_queue("jobs")
    with serving(fakesqs) as server:
        client = server.client()
        for _ in range(3):
            assert "Messages" not in client.receive_message(QueueUrl=url, WaitTimeSeconds=20)
        client.send_message(QueueUrl=url, MessageBody="x")
        assert client.receive_message(QueueUrl=url, WaitTimeSeconds=20)["Messages"]


def test_serve_takes_its_limits_from_the_command_line() -> None:
    from pytest_fakesqs.server.cli import build_parser, with_flags

    flags = "--max-connections 5 --idle-timeout 3 --header-timeout 1 --body-timeout 2"
    args = build_parser().parse_args(["serve", *flags.split(), "--history-limit", "none"])

    limits = with_flags(QUICK, args)

    assert (limits.max_connections, limits.idle_timeout) == (5, 3.0)
    assert (limits.header_timeout, limits.body_timeout) == (1.0, 2.0)
    assert limits.max_request_bytes == QUICK.max_request_bytes
    assert args.history_limit is None


def test_serve_defaults_fit_a_long_running_server() -> None:
    from pytest_fakesqs.server.cli import build_parser, make_fake

    parser = build_parser()
    fake = make_fake(parser.parse_args(["serve"]), parser)
    try:
        server = FakeSQSServer(fake)
        assert fake.options.history_limit == 10_000
        assert server.http.limits.max_request_bytes >= 3 * 1_048_576
        assert server.http.limits.max_connections >= 10_000
        server.stop()
    finally:
        fake.stop()
