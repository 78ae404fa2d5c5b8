"""HTTP transport: a threaded server on a local port, answering with the in-process WireHandler.

Each request becomes a `WireRequest` exactly as received (URL on the Host the client used, so
queue URLs point back at this server) and is served by the same handler, engine and clock as
the in-process transport. One thread per connection; a long poll on a real clock waits on its
queue's condition, which releases the queue lock, so it never stalls other requests.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from ..protocol import WireHandler, WireRequest, WireResponse
from . import inprocess

RequestLog = Callable[[str], None]
# GET paths under /_fakesqs (the dashboard) -> a page, or None to serve the path as SQS does.
Pages = Callable[[str], WireResponse | None]
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
        self.owner._track(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self.owner._untrack(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-answer (or a connection closed by stop()) is not an error.
        pass


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: SDKs pool connections
    disable_nagle_algorithm = True  # headers and body go out in two writes: don't wait for ACKs
    server: _Server

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        pages = self.server.owner.pages
        page = pages(self.path) if pages and self.path.startswith("/_fakesqs") else None
        if page is not None:
            self._answer(page)
            return
        self._serve()

    def _serve(self) -> None:
        started = time.perf_counter()
        owner = self.server.owner
        try:
            body = self._body()
        except ValueError:  # a Content-Length or chunk size that is not a number
            self.send_error(400, "Malformed request body framing")
            return
        request = WireRequest(self.command, self._url(), self._headers(), body)
        response = owner.handler.handle(request)
        # Counted before the client can see the answer, so a client never outruns the count.
        owner._served(request, response, self.client_address[0], started)
        self._answer(response)

    def _url(self) -> str:
        host = self.headers.get("Host") or self.server.owner.netloc
        return f"http://{host}{self.path}"

    def _headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            key = name.lower()
            headers[key] = f"{headers[key]},{value}" if key in headers else value
        return headers

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._chunked_body()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _chunked_body(self) -> bytes:
        chunks: list[bytes] = []
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline().strip():  # trailers, then the blank line
                    pass
                return b"".join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

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
    ) -> None:
        self.handler = handler
        self.request_log = request_log
        self.pages: Pages | None = None
        self.requests_served = 0
        self._counter_lock = threading.Lock()
        self._connections: set[socket.socket] = set()
        self._server = _Server((host, port), self)
        self.host = host
        self.port: int = self._server.server_address[1]
        self._thread: threading.Thread | None = None

    @property
    def netloc(self) -> str:
        host = _ANY_ADDRESS.get(self.host, self.host)
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def endpoint_url(self) -> str:
        return f"http://{self.netloc}"

    def start(self) -> SqsHttpServer:
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
        if self._thread is None:
            return
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

    def __enter__(self) -> SqsHttpServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _track(self, connection: socket.socket) -> None:
        with self._counter_lock:
            self._connections.add(connection)

    def _untrack(self, connection: socket.socket) -> None:
        with self._counter_lock:
            self._connections.discard(connection)

    def _served(
        self, request: WireRequest, response: WireResponse, client: str, started: float
    ) -> None:
        with self._counter_lock:
            self.requests_served += 1
        if self.request_log is not None:
            self.request_log(_log_line(request, response, client, started))


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
