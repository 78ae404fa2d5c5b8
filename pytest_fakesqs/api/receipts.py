"""DeleteMessage and ChangeMessageVisibility: receipt-handle rules, shared with the batches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import (
    MalformedReceiptHandle,
    Queue,
    StaleReceiptHandle,
    VisibilityLimitExceeded,
)
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .params import get_int, require_str

if TYPE_CHECKING:
    from .core import Service


def handle_error(queue: Queue, exc: Exception, action: str) -> SqsError | None:
    """Map the engine's receipt-handle errors to AWS's answer; None means "succeed silently"."""
    if isinstance(exc, MalformedReceiptHandle):
        return ErrorText.RECEIPT_HANDLE_INVALID(handle=exc.handle)
    if isinstance(exc, StaleReceiptHandle):
        if action == "ChangeMessageVisibility" and not exc.message_exists:
            return ErrorText.NOT_AVAILABLE_FOR_VISIBILITY(handle=exc.handle)
        if queue.settings.fifo:
            return ErrorText.RECEIPT_HANDLE_EXPIRED(handle=exc.handle)
        return None
    if isinstance(exc, VisibilityLimitExceeded):
        timeout = int(exc.timeout) if exc.timeout == int(exc.timeout) else exc.timeout
        return ErrorText.VISIBILITY_BEYOND_LIMIT(timeout=timeout)
    return None


def delete_one(service: Service, queue: Queue, handle: str) -> None:
    try:
        service.broker.delete(queue, handle)
    except (MalformedReceiptHandle, StaleReceiptHandle) as exc:
        error = handle_error(queue, exc, "DeleteMessage")
        if error is not None:
            raise error from None


def change_one(service: Service, queue: Queue, handle: str, timeout: int | None) -> None:
    if timeout is None:
        raise ErrorText.MISSING_PARAMETER(name="VisibilityTimeout")
    limit = service.limits.max_visibility_timeout
    if not 0 <= timeout <= limit:
        raise ErrorText.VISIBILITY_TIMEOUT(name="VisibilityTimeout", value=timeout, maximum=limit)
    try:
        service.broker.change_visibility(queue, handle, float(timeout))
    except (MalformedReceiptHandle, StaleReceiptHandle, VisibilityLimitExceeded) as exc:
        error = handle_error(queue, exc, "ChangeMessageVisibility")
        if error is not None:
            raise error from None


def delete_message(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    delete_one(service, queue, require_str(params, "ReceiptHandle"))
    return {}


def change_message_visibility(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    handle = require_str(params, "ReceiptHandle")
    change_one(service, queue, handle, get_int(params, "VisibilityTimeout"))
    return {}
