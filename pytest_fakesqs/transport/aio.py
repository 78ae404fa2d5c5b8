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

from ..protocol import WireResponse
from .inprocess import http_headers, serving_handler, to_wire_request

_patched: list[tuple[Any, Any]] = []  # (AioEndpoint, its original _send), to put back
_original_send: Any = None  # kept after uninstall: a call already in flight still needs it


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


def install() -> None:
    global _original_send
    if not _patched:
        endpoint = importlib.import_module("aiobotocore.endpoint").AioEndpoint
        _original_send = endpoint.__dict__["_send"]
        _patched.append((endpoint, _original_send))
        endpoint._send = _send


def uninstall() -> None:
    while _patched:
        endpoint, original = _patched.pop()
        endpoint._send = original
