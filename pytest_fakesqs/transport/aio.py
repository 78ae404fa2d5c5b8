"""In-process transport for aiobotocore (aioboto3): its endpoint has an async send of its own.

`AioEndpoint._send` is patched like botocore's `Endpoint._send`, and answers with aiobotocore's
own response type, whose body is read with `await`. The fake runs in a worker thread so a long
poll blocks that thread, never the event loop: other tasks (a producer) keep running meanwhile.
Imported only when aiobotocore is installed; its classes are looked up afresh at each install.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

from botocore.hooks import first_non_none_response

from ..protocol import WireResponse
from .inprocess import http_headers, serving_handler, to_wire_request, virtual_retry_clock

_patched: list[tuple[Any, str, Any]] = []  # (AioEndpoint, attribute, original), to put back
# Kept after uninstall: a call already in flight still needs them.
_original_send: Any = None
_original_needs_retry: Any = None


class _AsyncRawBody:
    """The minimum of aiohttp's response that aiobotocore reads."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    async def read(self, *_args: Any, **_kwargs: Any) -> bytes:
        return self._body


def to_aio_response(url: str, response: WireResponse) -> Any:
    response_class = importlib.import_module("aiobotocore.awsrequest").AioAWSResponse
    return response_class(
        url, response.status, http_headers(response.headers), _AsyncRawBody(response.body)
    )


async def _send(self: Any, request: Any) -> Any:
    handler = serving_handler(self, request)
    if handler is None:
        return await _original_send(self, request)
    wire = to_wire_request(request)
    response = await asyncio.to_thread(handler.handle, wire)
    return to_aio_response(request.url or "", response)


async def _needs_retry(
    self: Any,
    attempts: int,
    operation_model: Any,
    request_dict: Any,
    response: Any = None,
    caught_exception: Any = None,
) -> bool:
    """aiobotocore's retry decision; a virtual clock absorbs the back-off, no `asyncio.sleep`."""
    clock = virtual_retry_clock(self)
    if clock is None:
        result: bool = await _original_needs_retry(
            self, attempts, operation_model, request_dict, response, caught_exception
        )
        return result
    service_id = operation_model.service_model.service_id.hyphenize()
    responses = await self._event_emitter.emit(
        f"needs-retry.{service_id}.{operation_model.name}",
        response=response,
        endpoint=self,
        operation=operation_model,
        attempts=attempts,
        caught_exception=caught_exception,
        request_dict=request_dict,
    )
    delay = first_non_none_response(responses)
    if delay is None or delay is False:
        return False
    clock.advance(float(delay))
    return True


def install() -> None:
    global _original_send, _original_needs_retry
    if not _patched:
        endpoint = importlib.import_module("aiobotocore.endpoint").AioEndpoint
        _original_send = endpoint.__dict__["_send"]
        _original_needs_retry = endpoint.__dict__["_needs_retry"]
        for name, replacement in (("_send", _send), ("_needs_retry", _needs_retry)):
            _patched.append((endpoint, name, endpoint.__dict__[name]))
            setattr(endpoint, name, replacement)


def uninstall() -> None:
    while _patched:
        endpoint, name, original = _patched.pop()
        setattr(endpoint, name, original)
