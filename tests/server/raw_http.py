"""Raw sockets against a FakeSQSServer with small limits: what a bad client does, byte by byte."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Callable, Iterator

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.transport.connections import HttpLimits

# Small, so the tests that need the real passing of time stay short.
QUICK = HttpLimits(
    idle_timeout=0.5,
    header_timeout=0.5,
    body_timeout=0.5,
    write_timeout=2.0,
    max_connections=16,
    max_request_bytes=3 * 1_048_576 + 64 * 1024,
)
BOUND = 10.0  # seconds; the most any one wait below may take, never an expectation


@contextlib.contextmanager
def serving(fake: FakeSQS, limits: HttpLimits = QUICK) -> Iterator[FakeSQSServer]:
    with FakeSQSServer(fake, limits=limits) as server:
        yield server


def connect(server: FakeSQSServer, opened: list[socket.socket]) -> socket.socket:
    """A new connection, closed by the test's `opened` fixture at the end whatever happens."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
    opened.append(sock)
    return sock


@contextlib.contextmanager
def closing_all() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    try:
        yield opened
    finally:
        for sock in opened:
            sock.close()


def read_all(sock: socket.socket, timeout: float = BOUND) -> bytes:
    """Everything the server sends until it closes the connection (or `timeout` passes)."""
    sock.settimeout(timeout)
    chunks = []
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status_of(answer: bytes) -> int | None:
    if not answer.startswith(b"HTTP/1."):
        return None
    return int(answer.split(b" ", 2)[1])


def wait_until(condition: Callable[[], bool], timeout: float = BOUND) -> float:
    """Seconds until `condition()` held; raises after `timeout`."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"still not true after {timeout}s")
        time.sleep(0.01)  # real-time: polls the server's own threads
    return time.monotonic() - started


class WellFormedClient:
    """One kept-alive connection making ListQueues calls, as a healthy client would."""

    def __init__(self, server: FakeSQSServer) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=BOUND)

    def __enter__(self) -> WellFormedClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def list_queues(self) -> list[str]:
        try:
            return self._list_queues()
        except (http.client.RemoteDisconnected, ConnectionError):
            # Closed while idle (idle_timeout): a pooled SDK client reconnects, so does this.
            self.connection.close()
            return self._list_queues()

    def _list_queues(self) -> list[str]:
        self.connection.request(
            "POST",
            "/",
            body=b"{}",
            headers={
                "Content-Type": "application/x-amz-json-1.0",
                "X-Amz-Target": "AmazonSQS.ListQueues",
            },
        )
        response = self.connection.getresponse()
        body = response.read()
        assert response.status == 200, body
        urls: list[str] = json.loads(body).get("QueueUrls", [])
        return urls

    def close(self) -> None:
        self.connection.close()
