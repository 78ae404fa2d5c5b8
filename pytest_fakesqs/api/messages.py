"""Message actions: SendMessage, ReceiveMessage, DeleteMessage, ChangeMessageVisibility."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import (
    Delivery,
    MalformedReceiptHandle,
    Outgoing,
    Queue,
    QueueOverLimit,
    StaleReceiptHandle,
    VisibilityLimitExceeded,
)
from . import message_attributes as ma
from .context import RequestContext
from .errors import Err, SqsError, invalid_parameter, missing_parameter
from .md5 import md5_of_attributes, md5_of_body
from .params import get_int, get_map, get_str, get_str_list, require_str

if TYPE_CHECKING:
    from .service import SqsService

# Alphanumeric and punctuation, 1 to 128: MessageGroupId and MessageDeduplicationId.
_FIFO_ID = re.compile(r"^[!-~]{1,128}$")
SYSTEM_ATTRIBUTE_NAMES = (
    "SenderId",
    "SentTimestamp",
    "ApproximateReceiveCount",
    "ApproximateFirstReceiveTimestamp",
    "SequenceNumber",
    "MessageDeduplicationId",
    "MessageGroupId",
    "AWSTraceHeader",
    "DeadLetterQueueSourceArn",
)


@dataclass(slots=True)
class Prepared:
    """A validated message ready for the engine, plus what the send response reports."""

    outgoing: Outgoing
    md5_of_body: str
    md5_of_attributes: str | None
    md5_of_system_attributes: str | None


def prepare(
    service: SqsService, queue: Queue, entry: dict[str, Any], ctx: RequestContext, *, in_batch: bool
) -> Prepared:
    """Validate one SendMessage (or batch entry) with AWS's codes and texts."""
    body = entry.get("MessageBody")
    if body is None or body == "":
        raise missing_parameter("MessageBody")
    if not isinstance(body, str):
        raise invalid_parameter("MessageBody", body, "Must be a string.")
    if ma.has_invalid_characters(body):
        raise SqsError(
            Err.InvalidMessageContents,
            "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | "
            "#x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
        )
    # Most sends carry no attributes: skip their parsing then (this is the hot path).
    attributes = (
        ma.parse_attributes(
            get_map(entry, "MessageAttributes"), max_count=service.limits.max_message_attributes
        )
        if entry.get("MessageAttributes") is not None
        else {}
    )
    system_raw = entry.get("MessageSystemAttributes")
    system = (
        _system_attributes(get_map(entry, "MessageSystemAttributes"))
        if system_raw is not None
        else {}
    )
    size = len(body.encode("utf-8")) + (ma.attributes_size(attributes) if attributes else 0)
    max_size = int(service.current_attributes(queue).get("MaximumMessageSize", "0")) or (
        service.limits.max_message_size
    )
    if size > max_size:
        verb = "cannot be validated" if in_batch else "are invalid"
        raise SqsError(
            Err.InvalidParameterValue,
            f"One or more parameters {verb}. Reason: Message must be shorter than {max_size} bytes.",
        )
    delay = get_int(entry, "DelaySeconds")
    if delay is not None and not 0 <= delay <= service.limits.max_delay_seconds:
        raise invalid_parameter(
            "DelaySeconds",
            delay,
            f"DelaySeconds must be >= 0 and <= {service.limits.max_delay_seconds}",
        )
    group_id = get_str(entry, "MessageGroupId")
    dedup_id = get_str(entry, "MessageDeduplicationId")
    if group_id is not None and not _FIFO_ID.match(group_id):
        raise invalid_parameter(
            "MessageGroupId",
            group_id,
            "MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.",
        )
    if dedup_id is not None and not _FIFO_ID.match(dedup_id):
        raise invalid_parameter(
            "MessageDeduplicationId",
            dedup_id,
            "MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.",
        )
    if queue.settings.fifo:
        if group_id is None:
            if in_batch:
                raise SqsError(
                    Err.InvalidParameterValue,
                    "The request must contain the parameter MessageGroupId.",
                )
            raise missing_parameter("MessageGroupId")
        if delay:
            if service.limits.fifo_message_delay_ignored:
                delay = None  # YMQ: "does not apply", the queue's DelaySeconds is used
            else:
                raise invalid_parameter(
                    "DelaySeconds",
                    delay,
                    "The request include parameter that is not valid for this queue type.",
                )
        if dedup_id is None:
            if service.current_attributes(queue).get("ContentBasedDeduplication") != "true":
                raise SqsError(
                    Err.InvalidParameterValue,
                    "The queue should either have ContentBasedDeduplication enabled or "
                    "MessageDeduplicationId provided explicitly",
                )
            dedup_id = hashlib.sha256(body.encode("utf-8")).hexdigest()
    else:
        if dedup_id is not None:
            raise invalid_parameter(
                "MessageDeduplicationId",
                dedup_id,
                "The request includes a parameter that is not valid for this queue type.",
            )
    system["SenderId"] = ctx.access_key or ctx.account_id
    return Prepared(
        Outgoing(
            body=body,
            size=size,
            attributes=attributes or None,
            system=system,
            delay=None if delay is None else float(delay),
            group_id=group_id,
            dedup_id=dedup_id,
        ),
        md5_of_body(body),
        md5_of_attributes(attributes) if attributes else None,
        md5_of_attributes({"AWSTraceHeader": ("String", system["AWSTraceHeader"])})
        if "AWSTraceHeader" in system
        else None,
    )


def _system_attributes(raw: dict[str, Any]) -> dict[str, Any]:
    system: dict[str, Any] = {}
    for name, spec in raw.items():
        if name != "AWSTraceHeader":
            raise invalid_parameter(
                "MessageSystemAttributes", name, "Only AWSTraceHeader is supported."
            )
        if not isinstance(spec, dict) or spec.get("DataType") != "String":
            raise SqsError(
                Err.InvalidParameterValue,
                "Message (system) attribute 'AWSTraceHeader' must contain a non-empty value of type 'String'.",
            )
        value = spec.get("StringValue")
        if not isinstance(value, str) or not value:
            raise SqsError(
                Err.InvalidParameterValue,
                "Message (system) attribute 'AWSTraceHeader' must contain a non-empty value of type 'String'.",
            )
        system["AWSTraceHeader"] = value
    return system


def send_result(prepared: Prepared, message_id: str, sequence_number: str | None) -> dict[str, Any]:
    result: dict[str, Any] = {"MD5OfMessageBody": prepared.md5_of_body, "MessageId": message_id}
    if prepared.md5_of_attributes:
        result["MD5OfMessageAttributes"] = prepared.md5_of_attributes
    if prepared.md5_of_system_attributes:
        result["MD5OfMessageSystemAttributes"] = prepared.md5_of_system_attributes
    if sequence_number is not None:
        result["SequenceNumber"] = sequence_number
    return result


def send_message(
    service: SqsService, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    prepared = prepare(service, queue, params, ctx, in_batch=False)
    sent = service.broker.send(queue, prepared.outgoing)
    return send_result(prepared, sent.message.message_id, sent.message.sequence_number)


def receive_message(
    service: SqsService, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    max_messages = get_int(params, "MaxNumberOfMessages")
    if max_messages is not None and not 1 <= max_messages <= 10:
        raise invalid_parameter(
            "MaxNumberOfMessages", max_messages, "Must be between 1 and 10, if provided."
        )
    visibility = get_int(params, "VisibilityTimeout")
    limit = service.limits.max_visibility_timeout
    if visibility is not None and not 0 <= visibility <= limit:
        raise invalid_parameter(
            "VisibilityTimeout", visibility, f"Must be >= 0 and <= {limit}, if provided."
        )
    wait = get_int(params, "WaitTimeSeconds")
    max_wait = service.limits.max_wait_seconds
    if wait is not None and not 0 <= wait <= max_wait:
        raise invalid_parameter(
            "WaitTimeSeconds", wait, f"Must be >= 0 and <= {max_wait}, if provided."
        )
    if wait is None:
        wait = int(service.current_attributes(queue).get("ReceiveMessageWaitTimeSeconds", "0"))
    wanted_system = set(get_str_list(params, "AttributeNames")) | set(
        get_str_list(params, "MessageSystemAttributeNames")
    )
    wanted_attributes = get_str_list(params, "MessageAttributeNames")
    try:
        deliveries = service.broker.receive(
            queue,
            max_messages or 1,
            None if visibility is None else float(visibility),
            float(wait),
        )
    except QueueOverLimit as exc:
        raise SqsError(
            Err.OverLimit, f"Too many messages in flight: the limit is {exc.limit}."
        ) from None
    messages = [service.render_delivery(d, wanted_system, wanted_attributes) for d in deliveries]
    return {"Messages": messages} if messages else {}


def render_delivery(
    service: SqsService, delivery: Delivery, wanted_system: set[str], wanted_attributes: list[str]
) -> dict[str, Any]:
    message = delivery.message
    rendered: dict[str, Any] = {
        "MessageId": message.message_id,
        "ReceiptHandle": delivery.receipt_handle,
        "MD5OfBody": md5_of_body(message.body),
        "Body": message.body,
    }
    if wanted_system:
        everything = "All" in wanted_system
        system = message.system or {}
        values: dict[str, str] = {
            "SenderId": str(system.get("SenderId", "")),
            "SentTimestamp": str(int(message.sent_at * 1000)),
            "ApproximateReceiveCount": str(delivery.receive_count),
            "ApproximateFirstReceiveTimestamp": str(int(delivery.first_received_at * 1000)),
        }
        if message.sequence_number is not None:
            values["SequenceNumber"] = message.sequence_number
        if message.group_id is not None:
            values["MessageGroupId"] = message.group_id
        if message.dedup_id is not None and message.sequence_number is not None:
            values["MessageDeduplicationId"] = message.dedup_id
        if "AWSTraceHeader" in system:
            values["AWSTraceHeader"] = system["AWSTraceHeader"]
        source = system.get("dead_letter_source")
        if source is not None:
            values["DeadLetterQueueSourceArn"] = service.addressing.queue_arn(source)
        chosen = values if everything else {k: v for k, v in values.items() if k in wanted_system}
        if chosen:
            rendered["Attributes"] = chosen
    if message.attributes:
        selected = ma.select(message.attributes, wanted_attributes)
        if selected:
            rendered["MD5OfMessageAttributes"] = md5_of_attributes(selected)
            rendered["MessageAttributes"] = ma.to_wire(selected)
    return rendered


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


def delete_one(service: SqsService, queue: Queue, handle: str) -> None:
    try:
        service.broker.delete(queue, handle)
    except (MalformedReceiptHandle, StaleReceiptHandle) as exc:
        error = handle_error(queue, exc, "DeleteMessage")
        if error is not None:
            raise error from None


def change_one(service: SqsService, queue: Queue, handle: str, timeout: int | None) -> None:
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
    service: SqsService, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    delete_one(service, queue, require_str(params, "ReceiptHandle"))
    return {}


def change_message_visibility(
    service: SqsService, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    handle = require_str(params, "ReceiptHandle")
    change_one(service, queue, handle, get_int(params, "VisibilityTimeout"))
    return {}
