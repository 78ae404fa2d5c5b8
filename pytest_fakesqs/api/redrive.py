"""RedrivePolicy and RedriveAllowPolicy: AWS's validation texts, and the allow check a DLQ makes.

RedrivePolicy errors echo the policy text as sent ("Value <text> for parameter RedrivePolicy is
invalid. Reason: ..."), an unparsable one is an InvalidAttributeValue.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..engine import Broker, Queue, QueueKey, RedriveTarget
from .addressing import Addressing
from .error_texts import ErrorText
from .limits import Limits
from .queue_record import QueueAttributes, QueueRecord

REDRIVE_KEYS = ("maxReceiveCount", "deadLetterTargetArn")
PERMISSIONS = ("allowAll", "denyAll", "byQueue")
MAX_SOURCE_QUEUE_ARNS = 10


def json_or_none(text: str) -> Any:
    """A policy's JSON, or None where it is not JSON: each flavor words that error its own way."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def parse_redrive_policy(text: str, max_receive_count: int) -> RedriveTarget | None:
    """RedrivePolicy JSON -> the engine's target. An empty string clears the policy."""
    if not text:
        return None
    policy = json_or_none(text)
    if not isinstance(policy, dict):
        raise ErrorText.REDRIVE_NOT_JSON()
    for key in REDRIVE_KEYS:
        if key not in policy:
            raise ErrorText.REDRIVE_MISSING_KEY(value=text, key=key)
    count = policy["maxReceiveCount"]
    if not _is_count(count, max_receive_count):
        raise ErrorText.REDRIVE_COUNT(value=text, count=count, maximum=max_receive_count)
    arn = policy["deadLetterTargetArn"]
    parts = arn.split(":") if isinstance(arn, str) else []
    if len(parts) != 6 or parts[0] != "arn" or not parts[5]:
        raise ErrorText.REDRIVE_ARN_NOT_QUALIFIED(value=text)
    if len(policy) > len(REDRIVE_KEYS):
        raise ErrorText.REDRIVE_EXTRA_KEYS(value=text)
    if parts[2] != "sqs":
        raise ErrorText.REDRIVE_NOT_SQS(value=text)
    return RedriveTarget((parts[3], parts[4], parts[5]), int(count))


def _is_count(value: Any, maximum: int) -> bool:
    if isinstance(value, bool):
        return False
    try:
        number = int(value)
    except (TypeError, ValueError):
        return False
    return str(number) == str(value).strip() and 1 <= number <= maximum


def check_allow_policy(text: str) -> None:
    """Validate a queue's own RedriveAllowPolicy (who may use it as a dead-letter queue)."""
    if not text:
        return
    policy = json_or_none(text)
    arns = policy.get("sourceQueueArns") if isinstance(policy, dict) else None
    if (
        not isinstance(policy, dict)
        or policy.get("redrivePermission") not in PERMISSIONS
        or any(key not in ("redrivePermission", "sourceQueueArns") for key in policy)
        or (arns is not None and not (isinstance(arns, list) and _all_strings(arns)))
    ):
        raise ErrorText.REDRIVE_ALLOW_FORMAT()
    if arns and policy["redrivePermission"] != "byQueue":
        raise ErrorText.REDRIVE_ALLOW_ARNS_NEED_BY_QUEUE(value=text)
    if policy["redrivePermission"] == "byQueue":
        if not arns:
            raise ErrorText.REDRIVE_ALLOW_BY_QUEUE_NEEDS_ARNS(value=text)
        if len(arns) > MAX_SOURCE_QUEUE_ARNS:
            raise ErrorText.REDRIVE_ALLOW_TOO_MANY_ARNS(value=text, maximum=MAX_SOURCE_QUEUE_ARNS)


def _all_strings(values: list[Any]) -> bool:
    return all(isinstance(value, str) for value in values)


class RedriveLookup(Protocol):
    """What the redrive rules read of the service (SqsService is one)."""

    broker: Broker

    @property
    def limits(self) -> Limits: ...

    @property
    def addressing(self) -> Addressing: ...

    def record(self, queue: Queue) -> QueueRecord: ...


def check(
    service: RedriveLookup, attributes: QueueAttributes, *, fifo: bool, key: QueueKey
) -> RedriveTarget | None:
    """All redrive rules for a queue about to have `attributes`; returns its engine target."""
    check_allow_policy(attributes.redrive_allow_policy or "")
    text = attributes.redrive_policy or ""
    target = parse_redrive_policy(text, service.limits.max_receive_count)
    if target is None:
        return None
    dead_letter_key = target.dead_letter_queue
    # The type is judged from the name first, so a wrong-type ARN is reported before lookup.
    if dead_letter_key[2].endswith(".fifo") != fifo:
        raise ErrorText.REDRIVE_TYPE_MISMATCH(value=text)
    dead_letter_queue = service.broker.find(dead_letter_key)
    if dead_letter_queue is None:
        raise ErrorText.REDRIVE_TARGET_MISSING(value=text)
    if dead_letter_queue.settings.fifo != fifo:
        raise ErrorText.REDRIVE_TYPE_MISMATCH(value=text)
    allow = service.record(dead_letter_queue).attributes.redrive_allow_policy or ""
    if not _allows(allow, service.addressing.queue_arn(key)):
        raise ErrorText.REDRIVE_NOT_ALLOWED(value=text)
    return target


def _allows(allow_policy: str, source_arn: str) -> bool:
    if not allow_policy:
        return True  # no policy: every queue may use it (allowAll)
    policy = json.loads(allow_policy)  # validated when it was set
    permission = policy.get("redrivePermission")
    if permission == "denyAll":
        return False
    if permission == "byQueue":
        return source_arn in policy.get("sourceQueueArns", [])
    return True
