"""In-process transport: botocore's HTTP-send step is patched so SQS requests never leave.

Patching `Endpoint._send` (the class, so clients made before activation are caught too) rather
than adding one more `before-send` handler means every handler the client itself registered
(tracing, X-Ray headers, moto...) has run before the fake sees the request. A request no fake
serves goes to `serving.refuse_unserved` before it leaves; with the real-SQS guard on, a request
botocore cannot sign (`Endpoint.create_request`: no credentials on the machine) is refused
there too, so the refusal is what the test reads, not `NoCredentialsError`. A request that can
be signed goes on through the client's `before-send` handlers (moto, a test's own stub). serving.py decides when these patches are on and puts them on
every copy of `botocore.endpoint` imported meanwhile (pytest's in-process runs drop the modules
they imported, so botocore may be imported anew under an active fake).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.exceptions import BotoCoreError
from botocore.hooks import first_non_none_response

from ..protocol import WireHandler, WireRequest
from ..protocol.sniffing import NO_ACTION, action_of, queue_url_of
from .patching import Patches

if TYPE_CHECKING:  # imported by botocore's import itself, which serving.py follows
    from botocore.endpoint import Endpoint

from .serving import (
    current_handler,
    gated,
    handler_for,
    moto_mock_on,
    pass_through,
    refuse_unserved,
    stop_passing_through,
)

__all__ = ["current_handler", "pass_through", "stop_passing_through"]  # for transport/http.py


class _RawBody:
    """The minimum of urllib3's response that botocore reads."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, *_args: Any, **_kwargs: Any) -> Iterable[bytes]:
        return (self._body,)  # all botocore does is join it: no generator needed

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
    body = request.body  # botocore's JSON protocol sends bytes: no call needed for them
    return WireRequest(
        request.method or "POST",
        request.url or "",
        wire_headers(request.headers),
        body if type(body) is bytes else body_bytes(body),
    )


def wire_headers(headers: Any) -> dict[str, str]:
    """The request's headers by lower-cased name, as `plain_wire_headers` reads them.

    botocore's HeadersDict keys already carry their lower-cased name, and its values are UTF-8
    bytes or str: read through its private `_dict`, that skips a case-folded lookup and a call
    per header on every request (benchmarks/hot_path.py). Anything unusual takes the plain way;
    tests/transport/test_wire_headers.py proves both give the same."""
    raw = getattr(headers, "_dict", None)
    if isinstance(raw, dict):
        read: dict[str, str] = {}
        try:
            for k, v in raw.items():  # a loop: on 3.11 a comprehension is a call of its own
                read[k._lower] = v.decode() if type(v) is bytes else v if type(v) is str else str(v)
        except (AttributeError, UnicodeDecodeError):
            pass
        else:
            return read
    return plain_wire_headers(headers)


def plain_wire_headers(headers: Any) -> dict[str, str]:
    return {str(k).lower(): _header_text(v) for k, v in headers.items()}


def _header_text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def may_wait(request: WireRequest) -> bool:
    """A ReceiveMessage, in either protocol: the one call that can long-poll."""
    return action_of(request) == "ReceiveMessage"


def is_sqs(endpoint: Endpoint) -> bool:
    return getattr(endpoint, "_endpoint_prefix", None) == "sqs"


def serving_handler(endpoint: Endpoint, request: AWSPreparedRequest) -> WireHandler | None:
    """The fake that answers this request in-process, or None to send it as usual."""
    # is_sqs, read in place: every request of every client asks this, in both transports.
    prefix = getattr(endpoint, "_endpoint_prefix", None)
    return handler_for(request.url or "") if prefix == "sqs" else None


def refuse_if_unserved(endpoint: Endpoint, request: AWSPreparedRequest) -> None:
    """An SQS request no fake answered is about to be sent: the guard may refuse it."""
    __tracebackhide__ = True
    if gated() and is_sqs(endpoint):
        wire = to_wire_request(request)
        action = action_of(wire)
        refuse_unserved(
            wire.url, "a request" if action == NO_ACTION else action, queue_url_of(wire)
        )


def unserved_before_signing(endpoint: Endpoint, params: Any) -> bool:
    """At `create_request`, ahead of signing: an SQS request that neither a fake nor moto's mock
    will answer? A stray thread's call is refused right here."""
    if not is_sqs(endpoint) or not isinstance(params, dict):
        return False
    return handler_for(str(params.get("url") or "")) is None and not moto_mock_on()


def refuse_before_signing(endpoint: Endpoint, params: Any, operation_model: Any) -> None:
    """An unserved request that no `before-send` handler of the client could answer is asked
    about before botocore signs it: a refusal comes before credentials are looked for."""
    __tracebackhide__ = True
    if not _may_be_answered_before_sending(endpoint, operation_model):
        refuse_unserved(*_named(params, operation_model))


def refuse_instead_of(
    failure: BaseException, endpoint: Endpoint, params: Any, operation_model: Any
) -> None:
    """Signing an unserved request failed (no credentials, an expired token): when the guard
    refuses the request, that refusal is the answer, not the credentials error."""
    __tracebackhide__ = True
    try:
        refuse_unserved(*_named(params, operation_model))
    except Exception as refusal:
        raise refusal from None  # the refusal alone: the credentials error is its consequence
    raise failure


def _named(params: dict[str, Any], operation_model: Any) -> tuple[str, str, str | None]:
    url = str(params.get("url") or "")
    action = getattr(operation_model, "name", None) or "a request"
    return url, action, queue_url_of(_request_of(url, params))


def _may_be_answered_before_sending(endpoint: Endpoint, operation_model: Any) -> bool:
    """Whether the client has a `before-send` handler that may answer this request itself (a
    test's own stub), so it must be signed and given its turn. moto's stubber does not count:
    moto_mock_on() says whether it answers."""
    try:
        service_id = operation_model.service_model.service_id.hyphenize()
        emitter = endpoint._event_emitter  # type: ignore[attr-defined]
        emitter = getattr(emitter, "_emitter", emitter)  # botocore's EventAliaser wraps it
        event = f"before-send.{service_id}.{operation_model.name}"
        handlers = list(emitter._handlers.prefix_search(event))
    except Exception:  # a botocore built otherwise: sign, and let the send step decide
        return True
    return any(type(handler).__name__ != "BotocoreStubber" for handler in handlers)


def _request_of(url: str, params: dict[str, Any]) -> WireRequest:
    """botocore's request dict (before signing) as a WireRequest, enough to read it."""
    body = params.get("body")
    raw = urlencode(body, doseq=True) if isinstance(body, dict) else body
    headers = {str(k).lower(): _header_text(v) for k, v in (params.get("headers") or {}).items()}
    return WireRequest(str(params.get("method") or "POST"), url, headers, body_bytes(raw))


def _serving_send(original: Callable[..., Any]) -> Callable[..., Any]:
    def _send(self: Endpoint, request: AWSPreparedRequest) -> Any:
        __tracebackhide__ = True
        handler = serving_handler(self, request)
        if handler is None:
            refuse_if_unserved(self, request)
            return original(self, request)
        answer = handler.handle(to_wire_request(request))
        # AWSResponse copies any mapping into botocore's own HeadersDict (urllib3 hands it an
        # HTTPHeaderDict; the stubs say HTTPHeaders): a plain dict is the cheapest to copy.
        headers: Any = answer.headers
        return AWSResponse(request.url or "", answer.status, headers, _RawBody(answer.body))

    return _send


def _refusing_before_signing(original: Callable[..., Any]) -> Callable[..., Any]:
    def create_request(self: Endpoint, params: Any, operation_model: Any = None) -> Any:
        __tracebackhide__ = True
        if not unserved_before_signing(self, params):
            return original(self, params, operation_model)
        refuse_before_signing(self, params, operation_model)
        try:
            return original(self, params, operation_model)
        except BotoCoreError as failure:  # a client's own before-send stub never got its turn
            refuse_instead_of(failure, self, params, operation_model)
            raise

    return create_request


# What botocore's and aiobotocore's own _needs_retry log, in their endpoint module's logger,
# before a retry's back-off: our wrappers log it too, whichever clock takes the back-off.
RETRY_LOG_LINE = "Response received to retry, sleeping for %s seconds"


def _retrying_on_the_clock(original: Callable[..., Any], log: logging.Logger) -> Callable[..., Any]:
    def _needs_retry(
        self: Endpoint,
        attempts: int,
        operation_model: Any,
        request_dict: Any,
        response: Any = None,
        caught_exception: Any = None,
    ) -> bool:
        """botocore's retry decision; a virtual clock absorbs the back-off instead of sleeping."""
        if not is_sqs(self):
            result: bool = original(
                self, attempts, operation_model, request_dict, response, caught_exception
            )
            return result
        delay = retry_delay(
            emit_needs_retry(
                self, attempts, operation_model, request_dict, response, caught_exception
            )
        )
        if delay is None:  # the usual answer: no retry, so no clock to look for
            return False
        log.debug(RETRY_LOG_LINE, delay)
        if not absorbed_on_the_clock(delay):
            time.sleep(delay)  # as botocore's own _needs_retry does
        return True

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


def absorbed_on_the_clock(delay: float) -> bool:
    """Whether the virtual clock of the fake serving SQS took a retry's back-off (it moved by
    it); False on a wall clock. Callers have checked the endpoint is SQS's."""
    handler = current_handler()
    clock = None if handler is None else handler.service.broker.clock
    if clock is None or not clock.is_virtual:
        return False
    clock.advance(delay)
    return True


def retry_delay(responses: Any) -> float | None:
    """The back-off botocore's retry handlers chose (seconds), or None: no retry."""
    delay = first_non_none_response(responses)
    return None if delay is None or delay is False else float(delay)


def patch_sending(patches: Patches, endpoint_module: ModuleType) -> None:
    """Serve SQS from `botocore.endpoint` (this copy of it); absorb retries on a virtual clock."""
    endpoint = endpoint_module.Endpoint
    patches.wrap(endpoint, "_send", _serving_send)
    log = logging.getLogger(endpoint_module.__name__)  # where botocore's _needs_retry logs
    patches.wrap(endpoint, "_needs_retry", functools.partial(_retrying_on_the_clock, log=log))


def patch_building(patches: Patches, endpoint_module: ModuleType) -> None:
    """An unserved SQS request botocore cannot sign is refused, not a credentials error."""
    patches.wrap(endpoint_module.Endpoint, "create_request", _refusing_before_signing)
