"""In-process transport for kombu's asynchronous HTTP client, the one Celery's SQS worker polls with.

kombu's SQS transport signs its ReceiveMessage (and, on no-ack queues, DeleteMessage) with
botocore, then sends it over kombu's own HTTP client, which botocore's patch never sees: pycurl's
`CurlClient` (kombu 4 to 5.4, and 5.6 on) or `Urllib3Client` (kombu 5.5). Each client class's
`add_request` is replaced while a fake is active; an SQS request (signed for the `sqs` service,
not addressed to one of this process's fake servers) is answered by the fake, and its callbacks
run the way that client runs them:

- `CurlClient` answers later, on the hub, when a socket it registered becomes readable: here a
  socket pair the hub watches. A ReceiveMessage is served in a thread of its own, so a long poll
  never blocks the hub; it polls on behalf of the hub's thread (the clock's thread rule). As curl
  does, the response headers are parsed into the request's own `headers`, and the response's
  are left empty. Closing the client (the hub closing: the worker stopping) cancels its polls
  and drops their answers, as a closed curl client drops its transfers.
- `Urllib3Client` answers at once, in `add_request`, on the calling thread: a long poll blocks
  the hub, as the real client does.

Imported only once kombu imports its SQS transport or a client module while a fake is active
(kombu imports its client lazily, when a worker first polls); put back when the last fake
stops, cancelling every poll still waiting. kombu before 5.6 caches queue URLs for the whole
process, on its Channel class: that cache is emptied when a fake starts serving and stops.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import socket
import threading
import weakref
from collections import deque
from collections.abc import Callable
from http import HTTPStatus
from io import BytesIO
from types import ModuleType
from typing import Any
from urllib.parse import unquote

from ..engine import cancellation
from ..engine.clock import calling_thread, serving_for
from ..protocol import WireHandler, WireRequest, WireResponse
from ..protocol.sniffing import NO_ACTION, action_of, queue_url_of
from . import KOMBU_CLIENTS
from .inprocess import body_bytes, may_wait
from .patching import Patches
from .serving import current_handler, handler_for, refuse_unserved

# The SigV4 credential scope of a request signed for SQS (Authorization header or presigned URL).
_SQS_SCOPE = re.compile(r"Credential=[^/,\s&]+/\d{8}/[^/,\s&]+/sqs/aws4_request")

_lock = threading.Lock()
_polls: set[cancellation.Cancellation] = set()  # every poll waiting now, cancelled on uninstall
_servers: set[threading.Thread] = set()  # the threads serving those polls, joined on uninstall
# A cancelled poll answers at once: this bounds only a thread stuck outside the fake.
_JOIN_SECONDS = 5.0


# -- what the fake serves ----------------------------------------------------------------------


def header_text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def is_sqs_request(request: Any) -> bool:
    """Signed for SQS: kombu's async client carries other AWS services' requests too in theory."""
    headers = request.headers or {}
    for name, value in headers.items():
        lowered = str(name).lower()
        if lowered == "authorization" and _SQS_SCOPE.search(header_text(value)):
            return True
        if lowered == "x-amz-target" and header_text(value).startswith("AmazonSQS."):
            return True
    return bool(_SQS_SCOPE.search(unquote(str(request.url or ""))))


def serving_handler(request: Any) -> WireHandler | None:
    """The fake answering this kombu request in-process, or None to send it as usual (none is
    active, or it is addressed to one of this process's fake servers; see serving.py)."""
    return handler_for(str(request.url or "")) if is_sqs_request(request) else None


def refuse_if_unserved(request: Any) -> None:
    """An SQS request no fake serves is about to leave: the real-SQS guard may refuse it."""
    __tracebackhide__ = True
    if is_sqs_request(request) and handler_for(str(request.url or "")) is None:
        wire = to_wire_request(request)
        action = action_of(wire)
        refuse_unserved(
            wire.url, "a request" if action == NO_ACTION else action, queue_url_of(wire)
        )


def to_wire_request(request: Any) -> WireRequest:
    headers = {str(k).lower(): header_text(v) for k, v in (request.headers or {}).items()}
    return WireRequest(
        str(request.method or "GET"), str(request.url or ""), headers, body_bytes(request.body)
    )


def serve(
    handler: WireHandler, wire: WireRequest, polls: set[cancellation.Cancellation] | None = None
) -> WireResponse:
    """The fake's answer. A poll waiting here is cancelled when the last fake stops, or when
    `polls` (its client's) are."""
    token = cancellation.Cancellation()
    with _lock:
        _polls.add(token)
        if polls is not None:
            polls.add(token)
    if current_handler() is not handler:
        token.cancel()  # the fake stopped after this request was taken: answer it without waiting
    outer = cancellation.current()
    cancellation.bind(token)
    try:
        return handler.handle(wire)
    finally:
        cancellation.bind(outer)
        with _lock:
            _polls.discard(token)
            if polls is not None:
                polls.discard(token)


def _status_line(status: int) -> str:
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Unknown"
    return f"HTTP/1.1 {status} {reason}"


# -- CurlClient: answers on the hub, when a socket it watches becomes readable ------------------


class _HubDeliveries:
    """One CurlClient's answers from the fake, handed to its hub through a socket pair."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.hub = client.hub
        self.reader, self.writer = socket.socketpair()
        self.reader.setblocking(False)
        self.writer.setblocking(False)
        self.answers: deque[tuple[Any, WireResponse]] = deque()
        self.polls: set[cancellation.Cancellation] = set()
        self.closed = False
        self.hub.add_reader(self.reader.fileno(), self.on_readable)
        # Closed with its hub (the worker stopping, or a hub reset), patched or not by then.
        self.hub.on_close.add(self.on_hub_close)

    def answer(self, request: Any, response: WireResponse) -> None:
        """Called from any thread: the hub runs the request's callbacks on its next turn."""
        if self.closed:
            return  # the client closed while the poll waited: nothing may run now
        self.answers.append((request, response))
        with contextlib.suppress(OSError):  # closed meanwhile, or a wakeup already pending
            self.writer.send(b"\0")

    def on_readable(self, *_args: Any) -> None:
        with contextlib.suppress(OSError):
            self.reader.recv(4096)
        while self.answers and not self.closed:
            request, response = self.answers.popleft()
            self._deliver(request, response)

    def _deliver(self, request: Any, response: WireResponse) -> None:
        # As CurlClient: headers go to the request's header callback (into request.headers),
        # the body to on_stream or the buffer, then on_ready gets a response without headers.
        on_header = request.on_header or self.client.on_header
        for line in (
            _status_line(response.status),
            *(f"{k}: {v}" for k, v in response.headers.items()),
            "",
        ):
            on_header(request.headers, line)
        buffer = BytesIO()
        if request.on_stream:
            request.on_stream(response.body)
        else:
            buffer.write(response.body)
        buffer.seek(0)
        request.on_ready(
            self.client.Response(
                request=request,
                code=response.status,
                headers=self.client.Headers(),
                buffer=buffer,
                effective_url=request.url,
                error=None,
            )
        )

    def serve_in_thread(self, handler: WireHandler, request: Any, wire: WireRequest) -> None:
        caller = calling_thread()  # the hub's thread: the poll counts as made there

        def run() -> None:
            try:
                with serving_for(caller):
                    response = serve(handler, wire, self.polls)
                self.answer(request, response)
            finally:
                with _lock:
                    _servers.discard(threading.current_thread())

        thread = threading.Thread(target=run, name="fakesqs-kombu-receive", daemon=True)
        with _lock:
            _servers.add(thread)
        thread.start()

    def on_hub_close(self, _hub: Any) -> None:
        # kombu before 5.5 iterates hub.on_close itself while calling it: leave the set alone.
        self.close(from_hub=True)

    def close(self, *, from_hub: bool = False) -> None:
        """No callback runs after this; the polls still waiting are cancelled."""
        if self.closed:
            return
        self.closed = True
        _deliveries.pop(self.client, None)  # it refers to its client: never collected otherwise
        self.answers.clear()
        with _lock:
            polls = list(self.polls)
        for token in polls:
            token.cancel()
        if not from_hub:
            self.hub.on_close.discard(self.on_hub_close)
        with contextlib.suppress(Exception):  # the hub may be closed already
            self.hub.remove(self.reader.fileno())
        self.reader.close()
        self.writer.close()


_deliveries: weakref.WeakKeyDictionary[Any, _HubDeliveries] = weakref.WeakKeyDictionary()


def _curl_add_request(original: Callable[..., Any]) -> Callable[..., Any]:
    def add_request(self: Any, request: Any) -> Any:
        handler = serving_handler(request)
        if handler is None:
            return original(self, request)
        if getattr(self, "_closed", False):
            return request  # as CurlClient does once closed: the request is dropped
        deliveries = _deliveries.get(self)
        if deliveries is None or deliveries.closed:
            deliveries = _deliveries[self] = _HubDeliveries(self)
        wire = to_wire_request(request)
        if may_wait(wire):
            deliveries.serve_in_thread(handler, request, wire)
        else:
            deliveries.answer(request, serve(handler, wire))
        return request

    return add_request


def _curl_close(original: Callable[..., Any]) -> Callable[..., Any]:
    def close(self: Any) -> Any:
        deliveries = _deliveries.pop(self, None)
        if deliveries is not None:
            deliveries.close()
        return original(self)

    return close


# -- Urllib3Client: answers at once, in add_request ---------------------------------------------


def _urllib3_add_request(original: Callable[..., Any]) -> Callable[..., Any]:
    def add_request(self: Any, request: Any) -> Any:
        handler = serving_handler(request)
        if handler is None:
            return original(self, request)
        response = serve(handler, to_wire_request(request))
        headers = importlib.import_module("urllib3").HTTPHeaderDict(response.headers)
        request.on_ready(
            self.Response(
                request=request,
                code=response.status,
                headers=headers,
                buffer=BytesIO(response.body),
                effective_url=request.url,
                error=None,
            )
        )
        return request

    return add_request


# The methods replaced on each client class kombu ever shipped (transport/__init__.py).
_REPLACEMENTS: dict[str, dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]]] = {
    "CurlClient": {"add_request": _curl_add_request, "close": _curl_close},
    "Urllib3Client": {"add_request": _urllib3_add_request},
}


# -- installing --------------------------------------------------------------------------------


def patch(patches: Patches, module: ModuleType) -> None:
    """Serve the client class `module` defines (or forget `kombu.transport.SQS`'s cached URLs)."""
    if module.__name__.startswith("kombu.transport.SQS"):
        forget_queue_urls(module)
        patches.when_undone(lambda: forget_queue_urls(module))
        return
    class_name = KOMBU_CLIENTS[module.__name__]
    client_class = getattr(module, class_name, None)
    if client_class is None:
        return
    for attribute, serving in _REPLACEMENTS[class_name].items():
        patches.wrap(client_class, attribute, serving)
    patches.when_undone(cancel_polls)


def _refusing_add_request(original: Callable[..., Any]) -> Callable[..., Any]:
    def add_request(self: Any, request: Any) -> Any:
        __tracebackhide__ = True
        refuse_if_unserved(request)
        return original(self, request)

    return add_request


def patch_refusing(patches: Patches, module: ModuleType) -> None:
    """Ask the real-SQS guard about the unserved SQS requests of the client `module` defines."""
    client_class = getattr(module, KOMBU_CLIENTS.get(module.__name__, ""), None)
    if client_class is not None:
        patches.wrap(client_class, "add_request", _refusing_add_request)


def forget_queue_urls(module: ModuleType) -> None:
    """kombu before 5.6 caches queue URLs on the Channel class, for the whole process: those an
    earlier fake (or real SQS) answered name queues this one may not have. Emptied, kombu
    reads them afresh."""
    channel = getattr(module, "Channel", None)
    cache = None if channel is None else vars(channel).get("_queue_cache")
    if isinstance(cache, dict):
        cache.clear()


def cancel_polls() -> None:
    """No fake is left to answer them: the polls still waiting return empty now, answered on
    their hubs as usual (each client's socket pair closes with its hub). Their threads are
    joined, so none outlives the fake that served it."""
    with _lock:
        polls = list(_polls)
        servers = [t for t in _servers if t is not threading.current_thread()]
    for token in polls:
        token.cancel()
    for thread in servers:
        thread.join(_JOIN_SECONDS)
