"""In-process transport for aiobotocore (aioboto3): its endpoint has an async send of its own.

`AioEndpoint._send` is patched like botocore's `Endpoint._send`, and answers with aiobotocore's
own response type, whose body is read with `await`. A ReceiveMessage (the only call that can
wait) runs in a thread of its own, so a long poll blocks that thread, never the event loop, and
any number of concurrent polls never starve a shared pool; every other call is answered inline.
Under asyncio (aiobotocore's aiohttp backend) that thread answers through the loop; under trio
(its httpx backend) or any other anyio backend, anyio's thread offloading carries it. The thread
polls on behalf of the event loop's thread, so the clock's thread rule treats it as that one.
Imported only once aiobotocore's endpoint module is, while a fake is active; every copy of that
module imported meanwhile is patched (see patching.py).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import logging
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from botocore.exceptions import BotoCoreError

from ..engine.clock import calling_thread, serving_for
from ..protocol import WireHandler, WireRequest, WireResponse
from .inprocess import (
    RETRY_LOG_LINE,
    absorbed_on_the_clock,
    emit_needs_retry,
    is_sqs,
    may_wait,
    refuse_before_signing,
    refuse_if_unserved,
    refuse_instead_of,
    retry_delay,
    serving_handler,
    to_wire_request,
    unserved_before_signing,
)
from .patching import Patches


class _AsyncRawBody:
    """The minimum of aiohttp's response that aiobotocore reads: the body, and the headers as
    bytes pairs (aiobotocore before 2.21 builds its header map from them)."""

    def __init__(self, body: bytes, headers: dict[str, str]) -> None:
        self._body = body
        self._headers = headers

    @property
    def raw_headers(self) -> tuple[tuple[bytes, bytes], ...]:
        # Made when read: aiobotocore 2.21 and later never ask.
        return tuple((k.encode("utf-8"), v.encode("utf-8")) for k, v in self._headers.items())

    async def read(self, *_args: Any, **_kwargs: Any) -> bytes:
        return self._body


def to_aio_response(url: str, response: WireResponse) -> Any:
    response_class = importlib.import_module("aiobotocore.awsrequest").AioAWSResponse
    raw = _AsyncRawBody(response.body, response.headers)
    return response_class(url, response.status, response.headers, raw)


def _serving_send(original: Callable[..., Any]) -> Callable[..., Any]:
    async def _send(self: Any, request: Any) -> Any:
        __tracebackhide__ = True
        handler = serving_handler(self, request)
        if handler is None:
            refuse_if_unserved(self, request)
            return await original(self, request)
        wire = to_wire_request(request)
        if may_wait(wire):
            response = await _in_own_thread(handler, wire)
        else:
            response = handler.handle(wire)
        return to_aio_response(request.url or "", response)

    return _send


async def _in_own_thread(handler: WireHandler, request: WireRequest) -> WireResponse:
    caller = calling_thread()  # the event loop's thread: the poll counts as made there

    def serve() -> WireResponse:
        with serving_for(caller):
            return handler.handle(request)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not asyncio: trio, or another backend anyio knows
        return await _in_anyio_thread(serve)
    return await _in_asyncio_thread(loop, serve)


async def _in_asyncio_thread(
    loop: asyncio.AbstractEventLoop, serve: Callable[[], WireResponse]
) -> WireResponse:
    answer: asyncio.Future[WireResponse] = loop.create_future()

    def settle(response: WireResponse | None, error: BaseException | None) -> None:
        if answer.done():  # the awaiting task was cancelled meanwhile
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(response)  # type: ignore[arg-type]

    def run() -> None:
        try:
            response, error = serve(), None
        except BaseException as exc:  # handed to the awaiting task, not lost in this thread
            response, error = None, exc
        try:
            loop.call_soon_threadsafe(settle, response, error)
        except RuntimeError:  # the loop closed while the poll waited: nobody is listening
            return

    threading.Thread(target=run, name="fakesqs-aio-receive", daemon=True).start()
    return await answer


async def _in_anyio_thread(serve: Callable[[], WireResponse]) -> WireResponse:
    anyio = importlib.import_module("anyio")
    to_thread = importlib.import_module("anyio.to_thread")
    # A limiter of its own per poll: concurrent polls never queue behind anyio's shared 40;
    # a cancelled task leaves its poll to finish alone, as the asyncio path does.
    response: WireResponse = await to_thread.run_sync(
        serve, abandon_on_cancel=True, limiter=anyio.CapacityLimiter(1)
    )
    return response


def _retrying_on_the_clock(original: Callable[..., Any], log: logging.Logger) -> Callable[..., Any]:
    async def _needs_retry(
        self: Any,
        attempts: int,
        operation_model: Any,
        request_dict: Any,
        response: Any = None,
        caught_exception: Any = None,
    ) -> bool:
        """aiobotocore's retry decision; a virtual clock absorbs the back-off, no asyncio.sleep."""
        if not is_sqs(self):
            result: bool = await original(
                self, attempts, operation_model, request_dict, response, caught_exception
            )
            return result
        delay = retry_delay(
            await emit_needs_retry(
                self, attempts, operation_model, request_dict, response, caught_exception
            )
        )
        if delay is None:  # the usual answer: no retry, so no clock to look for
            return False
        log.debug(RETRY_LOG_LINE, delay)
        if not absorbed_on_the_clock(delay):
            await asyncio.sleep(delay)  # as aiobotocore's own _needs_retry does
        return True

    return _needs_retry


def patch_sending(patches: Patches, endpoint_module: ModuleType) -> None:
    """Serve aiobotocore's SQS sends from `aiobotocore.endpoint` (this copy of it)."""
    endpoint = endpoint_module.AioEndpoint
    patches.wrap(endpoint, "_send", _serving_send)
    log = logging.getLogger(endpoint_module.__name__)  # where aiobotocore's _needs_retry logs
    patches.wrap(endpoint, "_needs_retry", functools.partial(_retrying_on_the_clock, log=log))


def _refusing_before_signing(original: Callable[..., Any]) -> Callable[..., Any]:
    if not inspect.iscoroutinefunction(original):  # an aiobotocore that builds requests as
        return original  # botocore does: botocore's own patch asks the question there

    async def create_request(self: Any, params: Any, operation_model: Any = None) -> Any:
        __tracebackhide__ = True
        if not unserved_before_signing(self, params):
            return await original(self, params, operation_model)
        refuse_before_signing(self, params, operation_model)
        try:
            return await original(self, params, operation_model)
        except BotoCoreError as failure:  # see inprocess: the refusal, not a credentials error
            refuse_instead_of(failure, self, params, operation_model)
            raise

    return create_request


def patch_building(patches: Patches, endpoint_module: ModuleType) -> None:
    """An unserved SQS request aiobotocore cannot sign is refused, not a credentials error."""
    patches.wrap(endpoint_module.AioEndpoint, "create_request", _refusing_before_signing)
