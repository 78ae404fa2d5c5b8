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
from .errors import Err, SqsError, invalid_parameter, missing_parameter
from .params import get_int, require_str

if TYPE_CHECKING:
    from .core import Service


def handle_error(queue: Queue, exc: Exception, action: str) -> SqsError | None:
    """Map the engine's receipt-handle errors to AWS's answer; None means "succeed silently"."""
    if isinstance(exc, MalformedReceiptHandle):
        return SqsError(
            Err.ReceiptHandleIsInvalid,
            f'The input receipt handle "{exc.handle}" is not a valid receipt handle.',
        )
    if isinstance(exc, StaleReceiptHandle):
        if action == "ChangeMessageVisibility" and not exc.message_exists:
            return invalid_parameter(
                "ReceiptHandle",
                exc.handle,
                "Message does not exist or is not available for visibility timeout change.",
            )
        if queue.settings.fifo:
            return invalid_parameter("ReceiptHandle", exc.handle, "The receipt handle has expired.")
        return None
    if isinstance(exc, VisibilityLimitExceeded):
        return SqsError(
            Err.InvalidParameterValue,
            f"Value {exc.handle} for parameter ReceiptHandle is invalid. Reason: Total "
            "VisibilityTimeout for the message is beyond the limit [43200 seconds]",
        )
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
        raise missing_parameter("VisibilityTimeout")
    limit = service.limits.max_visibility_timeout
    if not 0 <= timeout <= limit:
        raise invalid_parameter(
            "VisibilityTimeout", timeout, f"Must be >= 0 and <= {limit}, if provided."
        )
    try:
        service.broker.change_visibility(queue, handle, float(timeout))
    except (MalformedReceiptHandle, StaleReceiptHandle, VisibilityLimitExceeded) as exc:
        error = handle_error(queue, exc, "ChangeMessageVisibility")
        if error is not None:
            raise error from None


def delete_message(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
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
