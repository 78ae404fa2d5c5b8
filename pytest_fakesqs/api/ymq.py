"""Yandex Message Queue's own answers where they differ from AWS (texts from YDB's sources).

Everything here is used only by the `ymq` flavor; the AWS behaviour stays in the modules that
own each action.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..engine import QueueKey, RedriveTarget
from .context import RequestContext
from .errors import Err, SqsError

NON_EXISTENT_QUEUE = "The specified queue doesn't exist."
# YDB's default OverLimit text: ReceiveMessage past the in-flight limit sends no text of its own.
OVER_LIMIT = (
    "The specified action violates a limit. For example, ReceiveMessage returns this error if "
    "the maximum number of inflight messages is reached and AddPermission returns this error "
    "if the maximum number of permissions for the queue is reached."
)
_LABEL = re.compile(r"^[a-z0-9_-]*$")
_LABEL_LENGTH = 63


def absent_action(action: str, ctx: RequestContext) -> SqsError:
    """What YMQ answers for an action it does not have, in the protocol the client spoke."""
    if ctx.protocol == "query":
        # ydb/core/ymq/http: EAction::Unknown -> MissingAction.
        return SqsError(Err.MissingAction, f'Unknown action: "{action}".')
    # ydb/core/http_proxy: an AmazonSQS.* method without a processor.
    return SqsError(Err.InvalidAction, f'Unknown method name "{action}"')


def creation_error(error: SqsError) -> SqsError:
    """YDB's CreateQueue prefixes what its schema step found; all but the queue-state errors
    (deleted recently, too many queues) become ValidationError."""
    keep = error.spec in (Err.QueueDeletedRecently.spec, Err.OverLimit.spec)
    spec = error.spec if keep else Err.ValidationError.spec
    return SqsError(spec, f"Cannot create queue: {error.message}")


def check_queue_name(name: str, *, fifo: bool, max_length: int) -> None:
    if name.endswith(".fifo") and not fifo:
        raise SqsError(
            Err.InvalidParameterValue,
            "The FifoQueue attribute should be set to true for FIFO queue.",
        )
    if fifo and not name.endswith(".fifo"):
        raise SqsError(Err.InvalidParameterValue, 'Name of FIFO queue should end with ".fifo".')
    stem = name[: -len(".fifo")] if name.endswith(".fifo") else name
    if not stem or len(name) > max_length or not re.match(r"^[A-Za-z0-9_-]+$", stem):
        raise SqsError(Err.InvalidParameterValue, "Invalid queue name.")


def validate_labels(tags: Mapping[str, Any], current: Mapping[str, str], max_tags: int) -> None:
    """YDB's TTagValidator: at most 50 labels, keys and values 1-63 chars of [a-z0-9_-]."""
    if len(tags) > max_tags or len({**current, **tags}) > max_tags:
        raise SqsError(Err.InvalidParameterValue, "Too many tags added for queue")
    for key, value in tags.items():
        _check_label(str(key), is_key=True)
        _check_label("" if value is None else str(value), is_key=False)


def _check_label(text: str, *, is_key: bool) -> None:
    part = "key" if is_key else "value"
    if not text:
        raise SqsError(Err.InvalidParameterValue, f"Tag {part} must not be empty.")
    if is_key and not ("a" <= text[0] <= "z"):
        raise SqsError(
            Err.InvalidParameterValue, "Tag key must start with a lowercase letter (a-z)."
        )
    if len(text) > _LABEL_LENGTH:
        raise SqsError(
            Err.InvalidParameterValue, f"Tag {part} must not be longer than 63 characters."
        )
    if not _LABEL.match(text):
        raise SqsError(
            Err.InvalidParameterValue,
            f"Tag {part} can only consist of ASCII lowercase letters, digits, dashes and "
            "underscores.",
        )


def parse_redrive_policy(
    text: str, resolve: Callable[[str], QueueKey | None], max_receive: int
) -> RedriveTarget | None:
    """YDB's TRedrivePolicy::FromJson, with its texts. An empty string clears the policy."""
    if not text:
        return None
    try:
        policy = json.loads(text)
    except ValueError:
        policy = None
    if (
        not isinstance(policy, dict)
        or not isinstance(policy.get("maxReceiveCount"), str | int)
        or isinstance(policy.get("maxReceiveCount"), bool)
        or not isinstance(policy.get("deadLetterTargetArn"), str)
    ):
        raise _redrive_error("RedrivePolicy attribute is ill-constructed.")
    try:
        count = int(policy["maxReceiveCount"])
    except ValueError:
        raise _redrive_error("Failed to parse maxReceiveCount as an integer.") from None
    if not 1 <= count <= max_receive:
        raise _redrive_error("maxReceiveCount must be greater than 0 and less than 1001.")
    key = resolve(policy["deadLetterTargetArn"])
    if key is None:
        raise _redrive_error("Invalid deadLetterTargetArn.")
    return RedriveTarget(key, count)


def _redrive_error(text: str) -> SqsError:
    return SqsError(Err.InvalidParameterValue, text)


def check_dead_letter_target(
    source: QueueKey, target: RedriveTarget, *, fifo: bool, exists: bool
) -> None:
    """The checks YDB makes once the policy parsed: same type, not itself, target exists."""
    name = target.dead_letter_queue[2]
    if fifo != name.endswith(".fifo"):
        raise _redrive_error("Target dead letter queue should have the same type as source queue.")
    if target.dead_letter_queue == source:
        raise SqsError(
            Err.ValidationError, "Using the queue itself as a dead letter queue is not allowed."
        )
    if not exists:
        raise SqsError(Err.ValidationError, "Target DLQ does not exist")
