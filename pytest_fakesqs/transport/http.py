"""HTTP transport: one event loop on one thread serving every connection, answering with the
in-process WireHandler.

Each request becomes a `WireRequest` exactly as received (URL on the Host the client used, so
queue URLs point back at this server) and is served by the same handler, engine and clock as
the in-process transport, or, under `/_fakesqs/` and `/_aws/`, by one of the server's own
`routes`. A connection costs a socket and a parser (httptools: llhttp, Node's HTTP/1.1 parser),
never a thread; a request runs in a greenlet on the loop's thread (parking.py), so a long poll
that waits parks there and 500 of them cost 500 greenlets. Why this design, and the numbers:
docs/server-mode.md and docs/performance.md.

Per connection, requests are answered one at a time, in order (pipelined ones wait their
turn); every phase of reading one has its deadline (connections.HttpLimits), and a refusal is
one line of text with the status that says why, after which the connection closes.

One module past 500 lines: the connection protocol and the server that owns its connections
share one bookkeeping (the cap, the counts, answering and logging); apart, each would read the
other's private state.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import httptools

from ..protocol import WireHandler, WireRequest, WireResponse
from ..protocol.sniffing import action_of
from . import inprocess
from .connections import (
    CONTINUE,
    MAX_HEADER_BYTES,
    MAX_HEADERS,
    MAX_PIPELINED,
    HttpLimits,
    busy,
    effective_max_connections,
    encode_response,
    open_files_limit,
    refusal,
)
from .parking import RequestRun
from .routes import Route, dispatch, is_reserved

RequestLog = Callable[[str], None]
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}
_METHODS = frozenset({"GET", "POST", "DELETE"})
_LISTEN_BACKLOG = 1024  # many clients connect at once; a short backlog drops their SYNs

# Where a connection is in reading its next request.
_IDLE, _HEAD, _BODY, _READ = "idle", "head", "body", "read"


if hasattr(time, "clock_gettime"):

    def _monotonic() -> float:
        # The OS clock itself: freezegun replaces time.monotonic (which asyncio's timers read),
        # and a frozen one would hold every deadline and long poll of the server forever.
        return time.clock_gettime(time.CLOCK_MONOTONIC)

else:  # pragma: no cover - Windows: as it was when this module was imported
    _monotonic = time.monotonic


class _Loop(asyncio.SelectorEventLoop):
    """The server's event loop, its timers on the real clock whatever a test does to time."""

    def time(self) -> float:
        return _monotonic()


class _Refused(Exception):
    """Raised from a parser callback: answer `status` with `reason` and close."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.headers = "Allow: GET, POST, DELETE\r\n" if status == 405 else ""


class _Connection(asyncio.Protocol):
    """One client connection: parse requests, answer them in order, enforce the deadlines."""

    def __init__(self, server: SqsHttpServer) -> None:
        self.server = server
        self.limits = server.limits
        self.loop = server._loop_or_fail()
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpRequestParser(self)
        self.phase = _IDLE
        self.head_bytes = 0  # bytes received since the request's first byte, headers unfinished
        self.url = bytearray()
        self.headers: dict[str, str] = {}
        self.header_count = 0
        self.body: list[bytes] = []
        self.body_bytes = 0
        self.pending: deque[WireRequest] = deque()  # read, not yet answered, in order
        self.running: RequestRun | None = None
        self.reading_paused = False
        self.closing = False  # no more requests: answer what is pending, then close
        self.refusal: bytes | None = None  # the last words once what is pending is answered
        self.timer: asyncio.TimerHandle | None = None
        self.timer_phase: str | None = None
        self.phase_since = self.loop.time()  # when the phase began: its deadline counts from it
        self.write_timer: asyncio.TimerHandle | None = None
        self.answer: Callable[[WireRequest], WireResponse] = server._answer_timed

    # -- asyncio.Protocol ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.answer = functools.partial(self.server._answer_timed, client=peer[0] if peer else "-")
        if not self.server._track(self):
            self.closing = True
            with contextlib.suppress(Exception):
                transport.write(busy())
                transport.close()  # unread: nothing of its request is waited for
            return
        transport.set_write_buffer_limits(high=256 * 1024)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return  # after a refusal, or past a `Connection: close` request: ignored
        if self.phase is _HEAD:  # headers spread over reads: bounded across them too
            self.head_bytes += len(data)
        try:
            self.parser.feed_data(data)
        except _Refused as refused:
            self._refuse(refused.status, refused.reason, refused.headers)
            return
        except httptools.HttpParserUpgrade:
            self._refuse(400, "protocol upgrades are not served")
            return
        except httptools.HttpParserError as error:
            cause = error.__context__
            if isinstance(cause, _Refused):
                self._refuse(cause.status, cause.reason, cause.headers)
            else:
                self._refuse(400, f"malformed request ({_reason_of(error)})")
            return
        if self.phase is _HEAD and self.head_bytes > MAX_HEADER_BYTES:
            if self.header_count == 0 and not self.headers:
                self._refuse(414, f"request line longer than {MAX_HEADER_BYTES} bytes")
            else:
                self._refuse(431, f"request headers larger than {MAX_HEADER_BYTES} bytes")
            return
        self._arm()

    def eof_received(self) -> bool:
        # The client will send nothing more. A request cut short is answered 400; one being
        # answered (a long poll) lost its client: it is given up. Keep the socket open only to
        # write what is still owed.
        if self.phase is _HEAD or self.phase is _BODY:
            if self.running is not None:
                self.running.cancel()
            self._refuse(400, "request cut short: the connection ended before its end")
            return True
        self.closing = True
        if self.running is not None:
            self.running.cancel()
            return True
        if self.pending:
            return True
        self._close()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self._cancel_timers()
        self.pending.clear()
        if self.running is not None:
            self.running.cancel()
        self.server._untrack(self)

    def pause_writing(self) -> None:
        timeout = self.limits.write_timeout
        if timeout is not None and self.write_timer is None:
            self.write_timer = self.loop.call_later(timeout, self._abort)

    def resume_writing(self) -> None:
        if self.write_timer is not None:
            self.write_timer.cancel()
            self.write_timer = None

    # -- httptools callbacks ---------------------------------------------------------------------

    def on_message_begin(self) -> None:
        self.phase = _HEAD
        self.phase_since = self.loop.time()
        self.head_bytes = 0
        self.url.clear()
        self.headers = {}
        self.header_count = 0
        self.body = []
        self.body_bytes = 0

    def on_url(self, url: bytes) -> None:
        self.url += url
        if len(self.url) > MAX_HEADER_BYTES:
            raise _Refused(414, f"request line longer than {MAX_HEADER_BYTES} bytes")

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        if self.header_count > MAX_HEADERS:
            raise _Refused(431, f"more than {MAX_HEADERS} request headers")
        self.head_bytes += len(name) + len(value)
        if self.head_bytes > MAX_HEADER_BYTES:
            raise _Refused(431, f"request headers larger than {MAX_HEADER_BYTES} bytes")
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        headers = self.headers
        headers[key] = f"{headers[key]},{text}" if key in headers else text

    def on_headers_complete(self) -> None:
        self.phase = _BODY
        self.phase_since = self.loop.time()
        length = self.headers.get("content-length", "").strip()
        limit = self.limits.max_request_bytes
        if length.isdigit() and int(length) > limit:
            # The body is never read, so the connection cannot go on after this answer.
            raise _Refused(
                413,
                f"request body larger than {limit} bytes (no SQS request is that large: "
                "1 MiB of messages, each byte at most tripled by its encoding)",
            )
        method = self.parser.get_method().decode("latin-1")
        if method not in _METHODS:
            raise _Refused(405, f"method {method} is not served; use GET, POST or DELETE")
        expect = self.headers.get("expect", "").lower()
        if expect == "100-continue" and self.running is None and not self.pending:
            assert self.transport is not None
            self.transport.write(CONTINUE)

    def on_body(self, body: bytes) -> None:
        self.body_bytes += len(body)
        if self.body_bytes > self.limits.max_request_bytes:
            raise _Refused(413, f"request body larger than {self.limits.max_request_bytes} bytes")
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.phase = _IDLE
        method = self.parser.get_method().decode("latin-1")
        host = self.headers.get("host") or self.server.netloc
        url = f"http://{host}{self.url.decode('latin-1')}"
        body = b"".join(self.body) if len(self.body) != 1 else self.body[0]
        request = WireRequest(method, url, self.headers, body)
        keep_alive = self.parser.should_keep_alive()
        self.body = []
        self.pending.append(request)
        if not keep_alive:
            self.closing = True  # what follows on this connection is never read
        if self.running is None:
            self._next()
        elif len(self.pending) >= MAX_PIPELINED and self.transport is not None:
            self.transport.pause_reading()
            self.reading_paused = True

    # -- answering -------------------------------------------------------------------------------

    def _next(self) -> None:
        """Answer pending requests in order until one parks (a long poll) or none are left."""
        while self.pending and self.running is None and self.transport is not None:
            request = self.pending.popleft()
            run = RequestRun(self.loop, self.answer, self._answered)
            self.running = run
            run.start(request)
            if self.running is run:  # it parks (a long poll): no read deadline meanwhile
                self._arm()
        if self.reading_paused and len(self.pending) < MAX_PIPELINED and not self.closing:
            self.reading_paused = False
            if self.transport is not None:
                self.transport.resume_reading()

    def _answered(self, run: RequestRun, response: WireResponse) -> None:
        """A request's answer is ready (called on the loop, as its greenlet ends)."""
        self.running = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        close = self.closing and not self.pending
        last_words = self.refusal if close else None
        transport.write(encode_response(response, close=close and last_words is None))
        if close:
            if last_words is not None:  # what made it stop reading, after what came before
                transport.write(last_words)
            self._close()
        elif self.pending:
            self.loop.call_soon(self._next)  # not from inside the finished greenlet's step
        else:
            self.phase_since = self.loop.time()  # idle from now
            self._arm()

    def _refuse(self, status: int, reason: str, headers: str = "") -> None:
        """Read no more: answer the whole requests read before, then this refusal, and close."""
        self.closing = True
        self.phase = _IDLE
        if self.running is not None or self.pending:
            self.refusal = refusal(status, reason, extra_headers=headers)  # after those owed
            if self.running is None:
                self._next()
            return
        transport = self.transport
        if transport is not None and not transport.is_closing():
            with contextlib.suppress(Exception):
                transport.write(refusal(status, reason, extra_headers=headers))
        self._close()

    # -- deadlines -------------------------------------------------------------------------------

    def _arm(self) -> None:
        """The one read deadline of the phase the connection is in (none while answering)."""
        phase = None if self.running is not None or self.closing else self.phase
        if phase is _IDLE and self.pending:
            phase = None
        if phase == self.timer_phase:
            return  # the timer runs on; on firing it measures from `phase_since` again
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.timer_phase = phase
        seconds = self._deadline_of(phase)
        if seconds is not None:
            self.timer = self.loop.call_later(seconds, self._expired)

    def _deadline_of(self, phase: str | None) -> float | None:
        if phase is _IDLE:
            return self.limits.idle_timeout
        if phase is _HEAD:
            return self.limits.header_timeout
        if phase is _BODY:
            return self.limits.body_timeout
        return None

    def _expired(self) -> None:
        """A read deadline passed: close without a word (the client is too slow, or idle).
        A timer outlives phases of the same name (request after request on a kept-alive
        connection), so it first checks the phase's own start and waits on if it is later."""
        self.timer = None
        seconds = self._deadline_of(self.timer_phase)
        if seconds is not None:
            remaining = self.phase_since + seconds - self.loop.time()
            if remaining > 0:
                self.timer = self.loop.call_later(remaining, self._expired)
                return
        self._close()

    def _cancel_timers(self) -> None:
        for timer in (self.timer, self.write_timer):
            if timer is not None:
                timer.cancel()
        self.timer = self.write_timer = None
        self.timer_phase = None

    def _close(self) -> None:
        self.closing = True
        self._cancel_timers()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _abort(self) -> None:
        """The client did not read its answer within the write deadline: drop it."""
        self.write_timer = None
        if self.transport is not None:
            self.transport.abort()

    def shut(self) -> None:
        """The server stops: give up a waiting request and close at once."""
        self.closing = True
        self.pending.clear()
        if self.running is not None:
            self.running.cancel()
        self._cancel_timers()
        if self.transport is not None:
            self.transport.abort()


def _reason_of(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:120]


class SqsHttpServer:
    """Serves a WireHandler over HTTP on `host:port` (port 0: a free one) until `stop()`.

    The port is bound at construction (so a port in use fails here, with OSError); `start()`
    runs the event loop on a thread of its own and returns once it accepts connections.
    """

    def __init__(
        self,
        handler: WireHandler,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        request_log: RequestLog | None = None,
        routes: Sequence[Route] = (),
        limits: HttpLimits | None = None,
    ) -> None:
        self.handler = handler
        self.request_log = request_log
        self.routes = list(routes)  # the server's own endpoints; one may be added before start
        self.limits = limits or HttpLimits()
        self.requests_served = 0
        self.refused_connections = 0  # answered 503: beyond the connection cap
        # Called with (request, response) for every request answered (metrics count them).
        self.observers: list[Callable[[WireRequest, WireResponse], None]] = []
        self._connections: set[_Connection] = set()
        self._listener = _listen(host, port)
        self.host = host
        self.port: int = self._listener.getsockname()[1]
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._max_connections = self.limits.max_connections

    @property
    def netloc(self) -> str:
        host = _ANY_ADDRESS.get(self.host, self.host)
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def endpoint_url(self) -> str:
        return f"http://{self.netloc}"

    @property
    def max_connections(self) -> int:
        """The connection cap in force (the limit, lowered to what open files allow)."""
        return self._max_connections

    def start(self) -> SqsHttpServer:
        if self._closed:
            raise RuntimeError("this server was stopped; make a new one")
        if self._thread is None:
            self._max_connections = effective_max_connections(self.limits, open_files_limit())
            inprocess.pass_through(self.port)
            ready = threading.Event()
            failure: list[BaseException] = []
            self._thread = threading.Thread(
                target=self._run, args=(ready, failure), name=f"fakesqs-http-{self.port}"
            )
            self._thread.daemon = True
            self._thread.start()
            ready.wait()
            if failure:
                self._thread.join()
                self._thread = None
                inprocess.stop_passing_through(self.port)
                raise failure[0]
        return self

    def _run(self, ready: threading.Event, failure: list[BaseException]) -> None:
        loop = _Loop()
        self._loop = loop
        try:
            server = loop.run_until_complete(
                loop.create_server(
                    lambda: _Connection(self), sock=self._listener, backlog=_LISTEN_BACKLOG
                )
            )
        except BaseException as error:  # pragma: no cover - the socket was bound already
            failure.append(error)
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            server.close()
            for connection in list(self._connections):
                connection.shut()
            # Let the given-up polls finish and the closes go out before the loop ends.
            loop.run_until_complete(asyncio.sleep(0))
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    def stop(self) -> None:
        """Stop serving and close the port (also when never started); once is enough."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None and self._loop is not None:
            inprocess.stop_passing_through(self.port)
            # Kept-alive connections are closed too, so no pooled client reaches a stopped fake.
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._thread = None
        with contextlib.suppress(OSError):
            self._listener.close()

    def answer(self, request: WireRequest) -> WireResponse:
        """What this server answers `request`: one of its routes, or the SQS handler. The
        socket side calls this once a request is read; so can a test, without sockets."""
        path = _path_of(request)
        if self.routes and is_reserved(path):
            return dispatch(self.routes, request, path)
        return self.handler.handle(request)

    @property
    def open_connections(self) -> int:
        return len(self._connections)

    def __enter__(self) -> SqsHttpServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _loop_or_fail(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None, "connections are made on the running loop"
        return self._loop

    def _track(self, connection: _Connection) -> bool:
        """Count a new connection in; False (and counted as refused) when at the cap."""
        if len(self._connections) >= self._max_connections:
            self.refused_connections += 1
            return False
        self._connections.add(connection)
        return True

    def _untrack(self, connection: _Connection) -> None:
        self._connections.discard(connection)

    def _answer_timed(self, request: WireRequest, client: str = "-") -> WireResponse:
        """`answer`, counted and logged before the client can see it (so a client never
        outruns the count); a bug in an endpoint is a 500 naming it, not a dead connection."""
        started = time.perf_counter()
        try:
            response = self.answer(request)
        except Exception as error:
            text = f"fakesqs: internal error: {type(error).__name__}: {error}\n"
            response = WireResponse(
                500, {"Content-Type": "text/plain; charset=utf-8"}, text.encode()
            )
        if not is_reserved(_path_of(request)):  # health checks and pages are not SQS requests
            self.requests_served += 1
        for observe in self.observers:
            observe(request, response)
        if self.request_log is not None:
            self.request_log(_log_line(request, response, client, started))
        return response


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(_LISTEN_BACKLOG)
        listener.setblocking(False)
    except OSError:
        listener.close()
        raise
    return listener


def _path_of(request: WireRequest) -> str:
    path = request.url.partition("?")[0]
    if "://" in path:
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
    return path


def _log_line(request: WireRequest, response: WireResponse, client: str, started: float) -> str:
    moment = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    path = request.url.split("/", 3)[3] if request.url.count("/") >= 3 else ""
    error = response.headers.get("x-amzn-query-error", "").partition(";")[0]
    elapsed_ms = (time.perf_counter() - started) * 1000
    return (
        f"{moment} {client} {request.method} /{path.partition('?')[0]} {action_of(request)} "
        f"{response.status}{' ' + error if error else ''} {elapsed_ms:.1f}ms"
    )
