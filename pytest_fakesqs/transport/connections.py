"""What keeps the HTTP server alive under bad clients: read deadlines, a connection cap, and
noticing a client that hung up during a long poll.

- `DeadlineReader` gives every phase of a request (waiting for it, its headers, its body) one
  deadline for the whole phase, so a client trickling a byte a second cannot hold a thread.
- `reject()` answers a connection beyond the cap from the accepting thread, without reading it.
- `DisconnectWatcher` is one thread watching the sockets whose request waits (a long poll):
  when one reads end-of-file, the poll's `Cancellation` is cancelled and its thread freed.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..engine.cancellation import Cancellation

MAX_HEADER_BYTES = 64 * 1024  # request line plus headers; SDKs send a few hundred bytes


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """Bounds on what one client may hold. Times in seconds; None turns a bound off."""

    idle_timeout: float | None = 60.0  # a kept-alive connection with no request coming
    header_timeout: float | None = 10.0  # from a request's first byte to its last header
    body_timeout: float | None = 30.0  # to read a body once its headers are in
    write_timeout: float | None = 30.0  # to hand an answer to a client that does not read
    max_connections: int = 256  # connection threads; one more gets 503 and is closed
    max_request_bytes: int = 3 * 1_048_576 + 64 * 1024  # see the server's limits


class DeadlineReader(socket.SocketIO):
    """A socket's raw reader that refuses to read past `deadline` (time.monotonic())."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(sock, "rb")
        self.sock = sock
        self.deadline: float | None = None

    def readinto(self, buffer: Any) -> int | None:
        deadline = self.deadline
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("client too slow")
            self.sock.settimeout(remaining)
        return super().readinto(buffer)


def expire_in(reader: DeadlineReader, seconds: float | None) -> None:
    reader.deadline = None if seconds is None else time.monotonic() + seconds
    if seconds is None:
        reader.sock.settimeout(None)


_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n"
    b"Content-Length: 49\r\n\r\nfakesqs: too many connections; retry in a moment\n"
)


def reject(connection: socket.socket) -> None:
    """Answer 503 and close, never blocking the accepting thread: what the client already sent
    is drained (so closing does not reset the answer away), nothing more is waited for."""
    with contextlib.suppress(OSError):
        connection.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            while connection.recv(65536):
                pass
        connection.send(_BUSY)
        connection.shutdown(socket.SHUT_WR)
    with contextlib.suppress(OSError):
        connection.close()


class DisconnectWatcher:
    """One thread that cancels a waiting request as soon as its client closes the connection."""

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="fakesqs-hangups", daemon=True)
        self._thread.start()

    def watch(self, connection: socket.socket, token: Cancellation) -> None:
        with self._lock:
            if self._stopped:
                return
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._selector.register(connection, selectors.EVENT_READ, token)

    def forget(self, connection: socket.socket) -> None:
        with self._lock, contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(connection)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        with contextlib.suppress(OSError):
            self._wake_write.send(b"x")
        self._thread.join(timeout=5)
        self._selector.close()
        self._wake_read.close()
        self._wake_write.close()

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._stopped:
                    return
            for key, _events in self._selector.select(timeout=1.0):
                if key.data is None:
                    with contextlib.suppress(OSError):
                        self._wake_read.recv(64)
                    continue
                connection: socket.socket = key.fileobj  # type: ignore[assignment]
                # Readable while a request is being answered: end-of-file (the client left),
                # an error, or a pipelined next request; only the first two cancel.
                try:
                    gone = connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
                except BlockingIOError:
                    continue
                except OSError:
                    gone = True
                self.forget(connection)
                if gone:
                    key.data.cancel()
