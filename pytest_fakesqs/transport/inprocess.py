"""In-process transport: botocore's HTTP-send step is patched so SQS requests never leave.

Patching `Endpoint._send` (the class, so clients made before activation are caught too) rather
than adding one more `before-send` handler means every handler the client itself registered
(tracing, X-Ray headers, moto...) has run before the fake sees the request. While a fake is
active, every copy of `botocore.endpoint` imported is patched (pytest's in-process runs drop
the modules they imported, so botocore may be imported anew under an active fake), and so are
aiobotocore's endpoint (aio.py) and moto's stubber (moto_bridge.py) once they are imported.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.endpoint import Endpoint
from botocore.hooks import first_non_none_response

from ..engine import Clock
from ..protocol import WireHandler, WireRequest, WireResponse
from .kombu_clients import KOMBU_CLIENTS
from .patching import Patches

_lock = threading.Lock()
_active: list[WireHandler] = []  # innermost activation last; only it serves
_patches = Patches()  # on while any fake is active
# Ports of this process's fake HTTP servers: requests addressed to one go over real HTTP, so a
# session-wide server is never answered by a test's in-process fake.
_served_ports: set[int] = set()
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class _RawBody:
    """The minimum of urllib3's response that botocore reads."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, *_args: Any, **_kwargs: Any) -> Iterator[bytes]:
        yield self._body

    def read(self, *_args: Any, **_kwargs: Any) -> bytes:
        return self._body


def body_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytearray):
        return bytes(body)
    if hasattr(body, "read"):
        data = body.read()
        if hasattr(body, "seek"):
            body.seek(0)
        return data if isinstance(data, bytes) else str(data).encode("utf-8")
    return bytes(body)


def to_wire_request(request: AWSPreparedRequest) -> WireRequest:
    raw = getattr(request.headers, "_dict", None)
    headers = None
    if isinstance(raw, dict):
        # botocore's HeadersDict keys already carry their lower-cased name, and its values are
        # UTF-8 bytes or str: read directly, that skips a case-folded lookup and a call per
        # header on every request. Anything unusual takes the general way below.
        try:
            headers = {
                k._lower: v.decode() if type(v) is bytes else v if type(v) is str else str(v)
                for k, v in raw.items()
            }
        except (AttributeError, UnicodeDecodeError):
            headers = None
    if headers is None:
        headers = {str(k).lower(): _header_text(v) for k, v in request.headers.items()}
    return WireRequest(
        request.method or "POST", request.url or "", headers, body_bytes(request.body)
    )


def _header_text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def to_aws_response(url: str, response: WireResponse) -> AWSResponse:
    # AWSResponse copies any mapping into botocore's own HeadersDict (urllib3 hands it an
    # HTTPHeaderDict; the stubs say HTTPHeaders): a plain dict is the cheapest to copy.
    headers: Any = response.headers
    return AWSResponse(url, response.status, headers, _RawBody(response.body))


def may_wait(request: WireRequest) -> bool:
    """A ReceiveMessage, in either protocol: the one call that can long-poll."""
    target = request.headers.get("x-amz-target", "")
    if target:
        return target.endswith(".ReceiveMessage")
    return b"Action=ReceiveMessage" in request.body or "Action=ReceiveMessage" in request.url


def is_sqs(endpoint: Endpoint) -> bool:
    return getattr(endpoint, "_endpoint_prefix", None) == "sqs"


def current_handler() -> WireHandler | None:
    return _active[-1] if _active else None


def pass_through(port: int) -> None:
    """Let requests to this local port reach the HTTP server listening there."""
    with _lock:
        _served_ports.add(port)


def stop_passing_through(port: int) -> None:
    with _lock:
        _served_ports.discard(port)


def _addressed_to_local_server(url: str) -> bool:
    if not _served_ports:
        return False
    try:
        parts = urlsplit(url)
        return parts.port in _served_ports and parts.hostname in _LOOPBACK
    except ValueError:
        return False


def serving_handler(endpoint: Endpoint, request: AWSPreparedRequest) -> WireHandler | None:
    """The fake that answers this request in-process, or None to send it as usual."""
    handler = current_handler()
    if handler is None or not is_sqs(endpoint) or _addressed_to_local_server(request.url or ""):
        return None
    return handler


def _serving_send(original: Callable[..., Any]) -> Callable[..., Any]:
    def _send(self: Endpoint, request: AWSPreparedRequest) -> Any:
        handler = serving_handler(self, request)
        if handler is None:
            return original(self, request)
        return to_aws_response(request.url or "", handler.handle(to_wire_request(request)))

    return _send


def virtual_retry_clock(endpoint: Endpoint) -> Clock | None:
    """The virtual clock that absorbs this SQS endpoint's retry back-off, if one is serving it."""
    handler = current_handler()
    clock = None if handler is None else handler.service.broker.clock
    if clock is None or not clock.is_virtual or not is_sqs(endpoint):
        return None
    return clock


def _retrying_on_the_clock(original: Callable[..., Any]) -> Callable[..., Any]:
    def _needs_retry(
        self: Endpoint,
        attempts: int,
        operation_model: Any,
        request_dict: Any,
        response: Any = None,
        caught_exception: Any = None,
    ) -> bool:
        """botocore's retry decision; a virtual clock absorbs the back-off instead of sleeping."""
        clock = virtual_retry_clock(self)
        if clock is None:
            result: bool = original(
                self, attempts, operation_model, request_dict, response, caught_exception
            )
            return result
        responses = emit_needs_retry(
            self, attempts, operation_model, request_dict, response, caught_exception
        )
        return absorb_back_off(clock, responses)

    return _needs_retry


def emit_needs_retry(
    endpoint: Any,
    attempts: int,
    operation_model: Any,
    request_dict: Any,
    response: Any,
    caught_exception: Any,
) -> Any:
    """botocore's needs-retry event, as its `_needs_retry` emits it (aiobotocore: an awaitable)."""
    service_id = operation_model.service_model.service_id.hyphenize()
    return endpoint._event_emitter.emit(
        f"needs-retry.{service_id}.{operation_model.name}",
        response=response,
        endpoint=endpoint,
        operation=operation_model,
        attempts=attempts,
        caught_exception=caught_exception,
        request_dict=request_dict,
    )


def absorb_back_off(clock: Clock, responses: Any) -> bool:
    """Whether to retry; the back-off the retry handlers chose passes on the virtual clock."""
    delay = first_non_none_response(responses)
    if delay is None or delay is False:
        return False
    clock.advance(float(delay))
    return True


def _patch_botocore(endpoint_module: ModuleType) -> None:
    endpoint = endpoint_module.Endpoint
    _patches.wrap(endpoint, "_send", _serving_send)
    _patches.wrap(endpoint, "_needs_retry", _retrying_on_the_clock)


def _patch_aiobotocore(endpoint_module: ModuleType) -> None:
    try:
        aio = importlib.import_module(f"{__package__}.aio")
    except ImportError:  # a broken or incompatible install: serve botocore alone
        return
    aio.patch(_patches, endpoint_module)


def _follow_moto(_models: ModuleType) -> None:
    moto_bridge = importlib.import_module(f"{__package__}.moto_bridge")
    moto_bridge.follow()
    _patches.when_undone(moto_bridge.unfollow)


def _patch_kombu(module: ModuleType) -> None:
    importlib.import_module(f"{__package__}.kombu_http").patch(_patches, module)


def activate(handler: WireHandler) -> None:
    with _lock:
        if not _active:
            _patches.when_imported("botocore.endpoint", _patch_botocore)
            _patches.when_imported("aiobotocore.endpoint", _patch_aiobotocore)
            _patches.when_imported("moto.core.models", _follow_moto)
            # kombu imports its HTTP client lazily, when a worker first polls (kombu_http.py)
            for kombu_module in ("kombu.transport.SQS", *KOMBU_CLIENTS):
                _patches.when_imported(kombu_module, _patch_kombu)
        _active.append(handler)


def deactivate(handler: WireHandler) -> None:
    with _lock:
        if handler in _active:
            _active.remove(handler)
        if not _active:
            _patches.undo()
