"""What bounds a client of the HTTP server, and the bytes it is answered with.

`HttpLimits` is every bound in one object: a deadline per phase of a request (waiting for it,
its headers, its body; a trickle of a byte a second does not extend one), the writing of an
answer, the connections held at once, the largest request. The rest is how answers and
refusals look on the wire: written here once, as bytes, since every request pays for them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from http import HTTPStatus

from ..protocol import WireResponse

MAX_HEADER_BYTES = 64 * 1024  # request line plus headers; SDKs send a few hundred bytes
MAX_HEADERS = 100  # http.server's bound, kept
MAX_PIPELINED = 8  # requests read ahead of the one being answered; then reading pauses
SERVER_NAME = "pytest-fakesqs"
# Never a socket of its own beyond this: past it, the open-files limit would refuse accepts.
FILES_HELD_BACK = 64


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """Bounds on what one client may hold. Times in seconds; None turns a bound off."""

    idle_timeout: float | None = 60.0  # a kept-alive connection with no request coming
    header_timeout: float | None = 10.0  # from a request's first byte to its last header
    body_timeout: float | None = 30.0  # to read a body once its headers are in
    write_timeout: float | None = 30.0  # to hand an answer to a client that does not read
    # Connections held at once (each costs a socket and a few KiB, never a thread); one more
    # is answered 503 and closed. The open-files limit may lower it (see effective_max...).
    max_connections: int = 10_000
    max_request_bytes: int = 3 * 1_048_576 + 64 * 1024  # see the server's limits


def effective_max_connections(limits: HttpLimits, open_files_limit: int | None) -> int:
    """The cap in force: `max_connections`, or fewer when the process may not open that many
    files (a connection past it would fail to be accepted instead of being told 503)."""
    if open_files_limit is None or open_files_limit <= 0:
        return limits.max_connections
    return max(1, min(limits.max_connections, open_files_limit - FILES_HELD_BACK))


def open_files_limit() -> int | None:
    """This process's soft limit on open files (None where there is no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def raise_open_files_limit() -> tuple[int, int] | None:
    """Raise the soft open-files limit to the hard one; (before, after), None if unchanged."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard or soft == resource.RLIM_INFINITY:
        return None
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):  # pragma: no cover - e.g. macOS caps it below "unlimited"
        return None
    return soft, hard


_STATUS_LINES = {
    status.value: f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode("ascii")
    for status in HTTPStatus
}
_date_cache: tuple[int, bytes] = (0, b"")


def _date_header() -> bytes:
    """`Date: ...` of this second (formatted once a second, not once a request)."""
    global _date_cache
    second = int(time.time())
    if _date_cache[0] != second:
        stamp = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(second))
        _date_cache = (second, f"Server: {SERVER_NAME}\r\nDate: {stamp}\r\n".encode("ascii"))
    return _date_cache[1]


def status_line(status: int) -> bytes:
    return _STATUS_LINES.get(status) or f"HTTP/1.1 {status} Unknown\r\n".encode("ascii")


def encode_response(response: WireResponse, *, close: bool) -> bytes:
    """The whole answer on the wire: status line, headers, Content-Length, body."""
    head = [status_line(response.status), _date_header()]
    for name, value in response.headers.items():
        head.append(f"{name}: {value}\r\n".encode("latin-1", "replace"))
    if close:
        head.append(b"Connection: close\r\n")
    head.append(b"Content-Length: %d\r\n\r\n" % len(response.body))
    head.append(response.body)
    return b"".join(head)


def refusal(status: int, reason: str, *, extra_headers: str = "") -> bytes:
    """A one-line plain-text answer to a request the server will not serve; it closes."""
    body = f"fakesqs: {reason}\n".encode()
    return (
        status_line(status)
        + _date_header()
        + b"Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
        + extra_headers.encode("ascii")
        + b"Content-Length: %d\r\n\r\n" % len(body)
        + body
    )


def busy() -> bytes:
    """The answer to a connection beyond the cap, which is then closed unread."""
    return refusal(
        503, "too many connections; retry in a moment", extra_headers="Retry-After: 1\r\n"
    )


CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
