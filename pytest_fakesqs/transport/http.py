"""HTTP transport: a threaded server on a local port, answering with the in-process WireHandler.

Each request becomes a `WireRequest` exactly as received (URL on the Host the client used, so
queue URLs point back at this server) and is served by the same handler, engine and clock as
the in-process transport, or, under `/_fakesqs/` and `/_aws/`, by one of the server's own
`routes`. One thread per connection, up to `limits.max_connections` (see connections.py for
what else bounds a client); a long poll on a real clock waits on its queue's condition, which
releases the queue lock, so it never stalls other requests, and ends when its client hangs up.
"""

from __future__ import annotations

import contextlib
import io
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from ..engine import cancellation
from ..protocol import WireHandler, WireRequest, WireResponse
from . import inprocess
from .connections import (
    MAX_HEADER_BYTES,
    DeadlineReader,
    DisconnectWatcher,
    HttpLimits,
    expire_in,
    reject,
)
from .framing import FramingError, declared_length, read_body
from .routes import Route, dispatch, is_reserved

RequestLog = Callable[[str], None]
# GET paths under /_fakesqs (the dashboard) -> a page, or None to serve the path as SQS does.
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # many clients connect at once; the default backlog of 5 drops SYNs

    def __init__(self, address: tuple[str, int], owner: SqsHttpServer) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.owner = owner
        super().__init__(address, _RequestHandler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.owner._track(request):
            reject(request)  # beyond the cap: 503 from this thread, no thread for it
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self.owner._untrack(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-answer (or a connection closed by stop()) is not an error.
        pass


class _ConnectionToken(cancellation.Cancellation):
    """A connection's long-poll token: the first wait of a request has its socket watched."""

    __slots__ = ("connection", "watched", "watcher")

    def __init__(self, watcher: DisconnectWatcher, connection: socket.socket) -> None:
        super().__init__()
        self.watcher = watcher
        self.connection = connection
        self.watched = False

    def waiting(self, condition: threading.Condition | None) -> None:
        super().waiting(condition)
        if condition is not None and not self.watched:
            self.watched = True
            self.watcher.watch(self.connection, self)

    def finished(self) -> None:
        if self.watched:
            self.watcher.forget(self.connection)
            self.watched = False
        self.reset()


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: SDKs pool connections
    server: _Server

    def setup(self) -> None:
        self.connection = self.request
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
        self.limits = self.server.owner.limits
        self.reader = DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self.reader)
        self.wfile = socketserver._SocketWriter(self.connection)  # type: ignore[attr-defined]
        self.token = _ConnectionToken(self.server.owner._watcher, self.connection)
        cancellation.bind(self.token)

    def finish(self) -> None:
        cancellation.bind(None)
        self.token.finished()
        super().finish()

    def handle_one_request(self) -> None:
        expire_in(self.reader, self.limits.idle_timeout)  # until the request line is in
        super().handle_one_request()

    def parse_request(self) -> bool:
        expire_in(self.reader, self.limits.header_timeout)
        if not super().parse_request():
            return False
        if sum(len(k) + len(v) for k, v in self.headers.items()) > MAX_HEADER_BYTES:
            self.send_error(431, "Request header fields too large")
            return False
        return True

    def handle_expect_100(self) -> bool:
        if self._refused_length() is not None:
            return self._refuse()
        return super().handle_expect_100()

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def _serve(self) -> None:
        started = time.perf_counter()
        owner = self.server.owner
        if self._refused_length() is not None:
            self._refuse()
            return
        expire_in(self.reader, self.limits.body_timeout)
        try:
            body = read_body(
                self.rfile, self.headers, self.limits.max_request_bytes, MAX_HEADER_BYTES
            )
        except FramingError as error:  # not a number, too long, or cut short
            self.close_connection = True
            self.send_error(error.status, str(error))
            return
        request = WireRequest(self.command, self._url(), self._headers(), body)
        try:
            response = owner.answer(request)
        finally:
            self.token.finished()
        # Counted before the client can see the answer, so a client never outruns the count.
        owner._served(request, response, self.client_address[0], started)
        expire_in(self.reader, None)
        self.connection.settimeout(self.limits.write_timeout)
        self._answer(response)

    def _refused_length(self) -> int | None:
        """The Content-Length, when it is beyond the largest valid request."""
        length = declared_length(self.headers)
        return length if length is not None and length > self.limits.max_request_bytes else None

    def _refuse(self) -> bool:
        self.close_connection = True  # the body is never read, so the connection cannot go on
        self.send_error(
            413,
            f"Request body larger than {self.limits.max_request_bytes} bytes",
            "No SQS request is that large (1 MiB of messages, each byte at most tripled by "
            "its encoding).",
        )
        return False

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # A refusal goes out under the write deadline, not what was left of a read deadline.
        self.connection.settimeout(self.limits.write_timeout)
        super().send_error(code, message, explain)

    def _url(self) -> str:
        host = self.headers.get("Host") or self.server.owner.netloc
        return f"http://{host}{self.path}"

    def _headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            key = name.lower()
            headers[key] = f"{headers[key]},{value}" if key in headers else value
        return headers

    def _answer(self, response: WireResponse) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)
        self.wfile.flush()

    def version_string(self) -> str:
        return "pytest-fakesqs"

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # the owner logs one line per request, with the action, when asked to

    def log_message(self, format: str, *args: Any) -> None:
        pass


class SqsHttpServer:
    """Serves a WireHandler over HTTP on `host:port` (port 0: a free one) until `stop()`."""

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
        self.refused_connections = 0  # answered 503: beyond limits.max_connections
        self._counter_lock = threading.Lock()
        self._connections: set[socket.socket] = set()
        self._watcher = DisconnectWatcher()
        try:
            self._server = _Server((host, port), self)
        except OSError:
            self._watcher.stop()
            raise
        self.host = host
        self.port: int = self._server.server_address[1]
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def netloc(self) -> str:
        host = _ANY_ADDRESS.get(self.host, self.host)
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def endpoint_url(self) -> str:
        return f"http://{self.netloc}"

    def start(self) -> SqsHttpServer:
        if self._closed:
            raise RuntimeError("this server was stopped; make a new one")
        if self._thread is None:
            inprocess.pass_through(self.port)
            self._thread = threading.Thread(
                target=self._server.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"fakesqs-http-{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port (also when never started); once is enough."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            inprocess.stop_passing_through(self.port)
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        # Close kept-alive connections so no pooled client reaches a stopped fake.
        with self._counter_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        self._watcher.stop()

    def answer(self, request: WireRequest) -> WireResponse:
        """What this server answers `request`: one of its routes, or the SQS handler. The
        socket side calls this once a request is read; so can a test, without sockets."""
        path = _path_of(request)
        if self.routes and is_reserved(path):
            return dispatch(self.routes, request, path)
        return self.handler.handle(request)

    @property
    def open_connections(self) -> int:
        with self._counter_lock:
            return len(self._connections)

    def __enter__(self) -> SqsHttpServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _track(self, connection: socket.socket) -> bool:
        """Count a new connection in; False (and counted as refused) when at the cap."""
        with self._counter_lock:
            if len(self._connections) >= self.limits.max_connections:
                self.refused_connections += 1
                return False
            self._connections.add(connection)
            return True

    def _untrack(self, connection: socket.socket) -> None:
        with self._counter_lock:
            self._connections.discard(connection)

    def _served(
        self, request: WireRequest, response: WireResponse, client: str, started: float
    ) -> None:
        if not is_reserved(_path_of(request)):  # health checks and pages are not SQS requests
            with self._counter_lock:
                self.requests_served += 1
        if self.request_log is not None:
            self.request_log(_log_line(request, response, client, started))


def _path_of(request: WireRequest) -> str:
    path = request.url.partition("?")[0]
    if "://" in path:
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
    return path


def action_of(request: WireRequest) -> str:
    """The SQS action a request names, in either protocol ('-' when it names none)."""
    target = request.headers.get("x-amz-target", "")
    if target:
        return target.rpartition(".")[2] or target
    query = request.url.partition("?")[2]
    form = request.body.decode("utf-8", "replace") if request.body else ""
    for text in (form, query):
        actions = parse_qs(text).get("Action")
        if actions:
            return actions[0]
    return "-"


def _log_line(request: WireRequest, response: WireResponse, client: str, started: float) -> str:
    moment = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    path = request.url.split("/", 3)[3] if request.url.count("/") >= 3 else ""
    error = response.headers.get("x-amzn-query-error", "").partition(";")[0]
    elapsed_ms = (time.perf_counter() - started) * 1000
    return (
        f"{moment} {client} {request.method} /{path.partition('?')[0]} {action_of(request)} "
        f"{response.status}{' ' + error if error else ''} {elapsed_ms:.1f}ms"
    )
