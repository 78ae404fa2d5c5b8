"""RedrivePolicy and RedriveAllowPolicy: AWS's validation texts, and the allow check a DLQ makes.

RedrivePolicy errors echo the policy text as sent ("Value <text> for parameter RedrivePolicy is
invalid. Reason: ..."), an unparsable one is an InvalidAttributeValue.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import QueueKey, RedriveTarget
from .errors import Err, SqsError, invalid_parameter

if TYPE_CHECKING:
    from .core import Service

REDRIVE_KEYS = ("maxReceiveCount", "deadLetterTargetArn")
PERMISSIONS = ("allowAll", "denyAll", "byQueue")
MAX_SOURCE_QUEUE_ARNS = 10
_CANNOT_CREATE = "Amazon SQS can't create the redrive allow policy."


def _redrive_error(text: str, reason: str) -> SqsError:
    return invalid_parameter("RedrivePolicy", text, reason)


def _allow_error(text: str, reason: str) -> SqsError:
    return invalid_parameter("RedriveAllowPolicy", text, f"{_CANNOT_CREATE} {reason}")


def parse_redrive_policy(text: str, max_receive_count: int) -> RedriveTarget | None:
    """RedrivePolicy JSON -> the engine's target. An empty string clears the policy."""
    if not text:
        return None
    try:
        policy = json.loads(text)
    except ValueError:
        policy = None
    if not isinstance(policy, dict):
        raise SqsError(
            Err.InvalidAttributeValue,
            "Invalid value for the parameter RedrivePolicy. "
            "Reason: Redrive policy is not a valid JSON map.",
        )
    for key in REDRIVE_KEYS:
        if key not in policy:
            raise _redrive_error(
                text, f"Redrive policy does not contain mandatory attribute: {key}."
            )
    count = policy["maxReceiveCount"]
    if not _is_count(count, max_receive_count):
        raise _redrive_error(
            text,
            f"Invalid value for maxReceiveCount: {count}, valid values are from 1 to "
            f"{max_receive_count} both inclusive.",
        )
    arn = policy["deadLetterTargetArn"]
    parts = arn.split(":") if isinstance(arn, str) else []
    if len(parts) != 6 or parts[0] != "arn" or not parts[5]:
        raise _redrive_error(text, "Dead-letter target ARN should be fully qualified ARN.")
    if len(policy) > len(REDRIVE_KEYS):
        raise _redrive_error(
            text, "Only following attributes are supported: [maxReceiveCount, deadLetterTargetArn]."
        )
    if parts[2] != "sqs":
        raise _redrive_error(text, "Only SQS queues are valid resources for deadLetterTargetArn.")
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
    try:
        policy = json.loads(text)
    except ValueError:
        policy = None
    arns = policy.get("sourceQueueArns") if isinstance(policy, dict) else None
    if (
        not isinstance(policy, dict)
        or policy.get("redrivePermission") not in PERMISSIONS
        or any(key not in ("redrivePermission", "sourceQueueArns") for key in policy)
        or (arns is not None and not (isinstance(arns, list) and _all_strings(arns)))
    ):
        raise SqsError(
            Err.InvalidAttributeValue,
            "Invalid value for the parameter RedriveAllowPolicy. Reason: "
            f"{_CANNOT_CREATE[:-1]}, as it’s in an unsupported format.",  # noqa: RUF001
        )
    if arns and policy["redrivePermission"] != "byQueue":
        raise _allow_error(
            text,
            "To specify one or more source queue ARNs, you must set redrivePermission to byQueue.",
        )
    if policy["redrivePermission"] == "byQueue":
        if not arns:
            raise _allow_error(
                text,
                "When you specify the byQueue permission type, you must also specify one or "
                "more sourceQueueArns values.",
            )
        if len(arns) > MAX_SOURCE_QUEUE_ARNS:
            raise _allow_error(
                text,
                "The maximum number of source queue ARNs you can specify is "
                f"{MAX_SOURCE_QUEUE_ARNS}.",
            )


def _all_strings(values: list[Any]) -> bool:
    return all(isinstance(value, str) for value in values)


def check(
    service: Service, attributes: Mapping[str, str], *, fifo: bool, key: QueueKey
) -> RedriveTarget | None:
    """All redrive rules for a queue about to have `attributes`; returns its engine target."""
    check_allow_policy(attributes.get("RedriveAllowPolicy", ""))
    text = attributes.get("RedrivePolicy", "")
    target = parse_redrive_policy(text, service.limits.max_receive_count)
    if target is None:
        return None
    dead_letter_key = target.dead_letter_queue
    # The type is judged from the name first, so a wrong-type ARN is reported before lookup.
    if dead_letter_key[2].endswith(".fifo") != fifo:
        raise _redrive_error(text, "Dead-letter queue must be same type of queue as the source..")
    dead_letter_queue = service.broker.find(dead_letter_key)
    if dead_letter_queue is None:
        raise _redrive_error(text, "Dead letter target does not exist.")
    if dead_letter_queue.settings.fifo != fifo:
        raise _redrive_error(text, "Dead-letter queue must be same type of queue as the source..")
    allow = service.current_attributes(dead_letter_queue).get("RedriveAllowPolicy", "")
    if not _allows(allow, service.addressing.queue_arn(key)):
        raise _redrive_error(
            text,
            "Source queue is not allowed by the RedriveAllowPolicy of the dead-letter queue.",
        )
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
