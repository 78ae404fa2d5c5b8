"""ReceiveMessage: parameter rules, ReceiveRequestAttemptId, and rendering each delivery."""

from __future__ import annotations

from collections.abc import Set
from itertools import chain
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from ..engine import Delivery, Queue, QueueOverLimit
from . import message_attributes
from .as_is import AsIsRows, writes_as_is
from .context import RequestContext
from .error_texts import ErrorText
from .md5 import md5_of_attributes, md5_of_body
from .params import FIFO_TOKEN, get_int, get_str, get_str_list

if TYPE_CHECKING:
    from .core import Service

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


def receive_message(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    plain = _received_plain(service, queue, params)
    if plain is not None:  # the usual receive: nothing to read but how many
        return plain
    max_messages = get_int(params, "MaxNumberOfMessages")
    if max_messages is not None and not 1 <= max_messages <= 10:
        raise ErrorText.MAX_NUMBER_OF_MESSAGES(name="MaxNumberOfMessages", value=max_messages)
    visibility = get_int(params, "VisibilityTimeout")
    limit = service.limits.max_visibility_timeout
    if visibility is not None and not 0 <= visibility <= limit:
        raise ErrorText.VISIBILITY_TIMEOUT(
            name="VisibilityTimeout", value=visibility, maximum=limit
        )
    wait = get_int(params, "WaitTimeSeconds")
    max_wait = service.limits.max_wait_seconds
    if wait is not None and not 0 <= wait <= max_wait:
        raise ErrorText.WAIT_TIME_SECONDS(name="WaitTimeSeconds", value=wait, maximum=max_wait)
    if wait is None:
        wait = service.record(queue).attributes.receive_message_wait_time_seconds
    attempt_id = get_str(params, "ReceiveRequestAttemptId")
    if attempt_id is not None and not FIFO_TOKEN.fullmatch(attempt_id):
        raise ErrorText.ATTEMPT_ID_INVALID(name="ReceiveRequestAttemptId", value=attempt_id)
    # The deprecated AttributeNames and its successor are merged, as AWS does.
    wanted_system: set[str] = (
        set(get_str_list(params, "AttributeNames"))
        | set(get_str_list(params, "MessageSystemAttributeNames"))
        if "AttributeNames" in params or "MessageSystemAttributeNames" in params
        else set()
    )
    wanted_attributes = get_str_list(params, "MessageAttributeNames")
    try:
        deliveries = service.broker.receive(
            queue,
            max_messages or 1,
            None if visibility is None else float(visibility),
            float(wait),
            attempt_id=attempt_id,
        )
    except QueueOverLimit:
        raise service.dialect.over_limit() from None
    if not deliveries:
        return {}
    return {"Messages": render_deliveries(service, deliveries, wanted_system, wanted_attributes)}


_NONE: frozenset[str] = frozenset()  # no system attribute asked for
# A receive naming nothing but its queue and how many messages it wants (the usual one).
_QUEUE_AND_COUNT = frozenset({"QueueUrl", "MaxNumberOfMessages"})


def _received_plain(
    service: Service, queue: Queue, params: dict[str, Any]
) -> dict[str, Any] | None:
    """receive_message's answer to a receive that names nothing but its queue and a count of 1
    to 10 as a number (the usual one): nothing else to read, the queue's own timeouts, no
    attributes asked for. None for any other, which receive_message reads in full.
    tests/api/test_batch_paths.py proves the two give the same."""
    count = params.get("MaxNumberOfMessages", 1)
    if not (params.keys() <= _QUEUE_AND_COUNT and type(count) is int and 1 <= count <= 10):
        return None
    wait = service.record(queue).attributes.receive_message_wait_time_seconds
    try:
        deliveries = service.broker.receive(queue, count, None, float(wait))
    except QueueOverLimit:
        raise service.dialect.over_limit() from None
    return {"Messages": render_deliveries(service, deliveries, _NONE, [])} if deliveries else {}


_ATTRIBUTES = attrgetter("message.attributes")  # any() of them in C, no generator


def render_deliveries(
    service: Service,
    deliveries: list[Delivery],
    wanted_system: Set[str],
    wanted_attributes: list[str],
) -> list[dict[str, Any]]:
    """render_delivery() of each; when no system attribute is asked for and no message has
    attributes (the usual receive), the rows are written here in one pass: the same four
    members. When their ids, digests and bodies need no escaping too, the answer says so (its
    handles are base64, made by engine.handles.new_handles for this receive)."""
    if wanted_system or any(map(_ATTRIBUTES, deliveries)):
        return [render_delivery(service, d, wanted_system, wanted_attributes) for d in deliveries]
    return vouched(
        [
            {
                "MessageId": d.message.message_id,
                "ReceiptHandle": d.receipt_handle,
                "MD5OfBody": d.message.body_digest or md5_of_body(d.message.body),
                "Body": d.message.body,
            }
            for d in deliveries
        ]
    )


# What of a plain row did not come from this receive: a restored state file may hold any id.
_MADE_ELSEWHERE = itemgetter("MessageId", "MD5OfBody", "Body")


def vouched(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A receive's plain rows as AsIsRows when their ids, digests and bodies need no escaping
    (checked once for the whole answer); the rows as they are otherwise."""
    written = "".join(chain.from_iterable(map(_MADE_ELSEWHERE, rows)))
    return AsIsRows(rows) if writes_as_is(written) else rows


def render_delivery(
    service: Service, delivery: Delivery, wanted_system: Set[str], wanted_attributes: list[str]
) -> dict[str, Any]:
    message = delivery.message
    rendered: dict[str, Any] = {
        "MessageId": message.message_id,
        "ReceiptHandle": delivery.receipt_handle,
        "MD5OfBody": message.body_digest or md5_of_body(message.body),
        "Body": message.body,
    }
    if wanted_system:
        chosen = _system_values(service, delivery, wanted_system)
        if chosen:
            rendered["Attributes"] = chosen
    if message.attributes:
        selected = message_attributes.select(message.attributes, wanted_attributes)
        if selected:
            rendered["MD5OfMessageAttributes"] = md5_of_attributes(selected)
            rendered["MessageAttributes"] = message_attributes.to_wire(selected)
    return rendered


def _system_values(service: Service, delivery: Delivery, wanted: Set[str]) -> dict[str, str]:
    message = delivery.message
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
    if "All" in wanted:
        return values
    return {name: value for name, value in values.items() if name in wanted}
