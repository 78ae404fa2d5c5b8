"""SendMessage and the rules every sent message (or batch entry) must pass."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import Message, Outgoing, Queue
from . import message_attributes
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .md5 import md5_of_attributes, md5_of_encoded_body
from .params import FIFO_TOKEN, get_int, get_map, get_str

if TYPE_CHECKING:
    from .core import Service


def max_message_size(service: Service, queue: Queue) -> int:
    """The queue's MaximumMessageSize, or the flavor's limit when the queue sets none."""
    return service.record(queue).attributes.maximum_message_size or service.limits.max_message_size


@dataclass(slots=True, frozen=True)
class SendRules:
    """What every entry of one send request is checked against, read once per request."""

    max_size: int  # the queue's MaximumMessageSize
    in_batch: bool  # a few texts differ between SendMessage and SendMessageBatch
    # The system attributes of an entry with nothing but a body, or None when even such an
    # entry has rules to pass (a FIFO queue, an X-Ray trace header to attach).
    plain_system: dict[str, Any] | None


def send_rules(service: Service, queue: Queue, ctx: RequestContext, *, in_batch: bool) -> SendRules:
    plain = None if queue.settings.fifo or ctx.trace_header else sender_only(ctx.sender_id)
    return SendRules(max_message_size(service, queue), in_batch, plain)


def prepare(
    service: Service, queue: Queue, entry: dict[str, Any], ctx: RequestContext, rules: SendRules
) -> Outgoing:
    """Validate one SendMessage (or batch entry) with AWS's codes and texts."""
    encoded = _checked_body(entry.get("MessageBody"))
    max_size, in_batch = rules.max_size, rules.in_batch
    if rules.plain_system is not None and entry.keys() <= BODY_ONLY:
        # Most sends are a body and nothing else: none of the rules below has anything to check.
        if len(encoded) > max_size:
            raise _too_long(max_size, in_batch)
        body_only: str = entry["MessageBody"]
        digest = md5_of_encoded_body(encoded)
        return Outgoing(body_only, len(encoded), None, rules.plain_system, None, None, None, digest)
    body: str = entry["MessageBody"]
    # Most sends carry no attributes: skip their parsing then (this is the hot path).
    attributes = (
        message_attributes.parse_attributes(
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
    if "AWSTraceHeader" not in system and ctx.trace_header:
        system["AWSTraceHeader"] = ctx.trace_header  # propagated from the X-Ray HTTP header
    size = len(encoded) + (message_attributes.attributes_size(attributes) if attributes else 0)
    if size > max_size:
        raise _too_long(max_size, in_batch)
    delay = get_int(entry, "DelaySeconds")
    if delay is not None and not 0 <= delay <= service.limits.max_delay_seconds:
        raise ErrorText.DELAY_SECONDS(
            name="DelaySeconds", value=delay, maximum=service.limits.max_delay_seconds
        )
    group_id = get_str(entry, "MessageGroupId")
    dedup_id = get_str(entry, "MessageDeduplicationId")
    if group_id is not None and not FIFO_TOKEN.fullmatch(group_id):
        raise ErrorText.FIFO_ID_INVALID(name="MessageGroupId", value=group_id)
    if dedup_id is not None and not FIFO_TOKEN.fullmatch(dedup_id):
        raise ErrorText.FIFO_ID_INVALID(name="MessageDeduplicationId", value=dedup_id)
    if queue.settings.fifo:
        if group_id is None:
            if in_batch:
                raise ErrorText.BATCH_MISSING_GROUP_ID()
            raise ErrorText.MISSING_PARAMETER(name="MessageGroupId")
        if not delay:
            delay = None  # DelaySeconds=0 on a FIFO queue means "the queue's delay"
        elif service.dialect.ignores_fifo_message_delay:
            delay = None  # YMQ: "does not apply", the queue's DelaySeconds is used
        else:
            raise ErrorText.NOT_FOR_THIS_QUEUE_TYPE(name="DelaySeconds", value=delay)
        if dedup_id is None:
            if not service.record(queue).attributes.content_based_deduplication:
                raise ErrorText.FIFO_NEEDS_DEDUPLICATION()
            dedup_id = hashlib.sha256(body.encode("utf-8")).hexdigest()
    else:
        if dedup_id is not None:
            raise ErrorText.NOT_FOR_THIS_QUEUE_TYPE(name="MessageDeduplicationId", value=dedup_id)
    sender = ctx.sender_id
    if system:
        system["SenderId"] = sender
    else:
        system = sender_only(sender)
    return Outgoing(
        body=body,
        size=size,
        attributes=attributes or None,
        system=system,
        delay=None if delay is None else float(delay),
        group_id=group_id,
        dedup_id=dedup_id,
        body_digest=md5_of_encoded_body(encoded),
    )


_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))


def printable_ascii(text: str) -> bool:
    """`text.isascii() and text.isprintable()` (space to tilde: always a valid body), five
    times faster: isprintable looks each character up in the Unicode tables (3 ns each on
    Python 3.11, a tenth of a send's own cost); deleting the printable bytes from the ASCII
    text is a table lookup per byte. tests/api/test_batch_paths.py proves the two agree."""
    return text.isascii() and not text.encode().translate(None, _PRINTABLE_ASCII)


# The members a send or batch entry may have without any rule beyond the body's applying.
BODY_ONLY = frozenset({"Id", "MessageBody", "QueueUrl"})


def _checked_body(body: Any) -> bytes:
    """A MessageBody that passes AWS's rules, encoded as UTF-8."""
    if type(body) is str and body and printable_ascii(body):
        return body.encode()  # printable ASCII (space to tilde) is always valid: no regex
    if body is None or body == "":
        raise ErrorText.MISSING_PARAMETER(name="MessageBody")
    if not isinstance(body, str):
        raise ErrorText.NOT_A_STRING(name="MessageBody", value=body)
    invalid = message_attributes.first_invalid_character(body)
    if invalid is not None:
        raise ErrorText.INVALID_MESSAGE_CONTENTS(character=invalid)
    return body.encode("utf-8")


def _too_long(max_size: int, in_batch: bool) -> SqsError:
    text = ErrorText.BATCH_MESSAGE_TOO_LONG if in_batch else ErrorText.MESSAGE_TOO_LONG
    return text(maximum=max_size)


_SENDER_ONLY: dict[str, dict[str, Any]] = {}


def sender_only(sender: str) -> dict[str, Any]:
    """One shared `{"SenderId": ...}` per sender: most messages carry nothing else, and a dict
    per message would be a fifth of its memory. Safe because nothing mutates `Message.system`
    (the engine copies it when a message moves)."""
    system = _SENDER_ONLY.get(sender)
    if system is None:
        system = {"SenderId": sender}
        if len(_SENDER_ONLY) < 1024:
            _SENDER_ONLY[sender] = system
    return system


def _system_attributes(raw: dict[str, Any]) -> dict[str, Any]:
    system: dict[str, Any] = {}
    for name, spec in raw.items():
        if name != "AWSTraceHeader":
            raise ErrorText.SYSTEM_ATTRIBUTE_UNSUPPORTED(name="MessageSystemAttributes", value=name)
        if not isinstance(spec, dict) or spec.get("DataType") != "String":
            raise ErrorText.TRACE_HEADER_EMPTY()
        value = spec.get("StringValue")
        if not isinstance(value, str) or not value:
            raise ErrorText.TRACE_HEADER_EMPTY()
        if message_attributes.has_invalid_characters(
            value
        ):  # as for user attributes; also keeps MD5 encodable
            raise ErrorText.TRACE_HEADER_CHARACTERS()
        system["AWSTraceHeader"] = value
    return system


def send_result(
    outgoing: Outgoing, message: Message, result: dict[str, Any] | None = None
) -> dict[str, Any]:
    """SendMessage's answer, or a batch entry's when `result` starts it with the entry's Id.

    The MD5s are of what was sent; `message` is what it became (a FIFO duplicate: the original).
    """
    result = {} if result is None else result
    result["MD5OfMessageBody"] = outgoing.body_digest
    result["MessageId"] = message.message_id
    if outgoing.attributes:
        result["MD5OfMessageAttributes"] = md5_of_attributes(outgoing.attributes)
    system = outgoing.system
    if system is not None and "AWSTraceHeader" in system:
        result["MD5OfMessageSystemAttributes"] = md5_of_attributes(
            {"AWSTraceHeader": ("String", system["AWSTraceHeader"])}
        )
    if message.sequence_number is not None:
        result["SequenceNumber"] = message.sequence_number
    return result


def send_message(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    outgoing = prepare(service, queue, params, ctx, send_rules(service, queue, ctx, in_batch=False))
    return send_result(outgoing, service.broker.send_many(queue, [outgoing])[0])
