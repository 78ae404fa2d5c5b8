"""Yandex Message Queue's own answers where they differ from AWS (texts from YDB's sources, in
the error-text table as the YMQ_* rows).

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
from .error_texts import Text
from .errors import Err, SqsError

_LABEL = re.compile(r"^[a-z0-9_-]*$")
_LABEL_LENGTH = 63


def absent_action(action: str, ctx: RequestContext) -> SqsError:
    """What YMQ answers for an action it does not have, in the protocol the client spoke."""
    if ctx.protocol == "query":
        # ydb/core/ymq/http: EAction::Unknown -> MissingAction.
        return Text.YMQ_UNKNOWN_ACTION_QUERY(action=action)
    # ydb/core/http_proxy: an AmazonSQS.* method without a processor.
    return Text.YMQ_UNKNOWN_METHOD_JSON(action=action)


def creation_error(error: SqsError) -> SqsError:
    """YDB's CreateQueue prefixes what its schema step found; all but the queue-state errors
    (deleted recently, too many queues) become ValidationError."""
    keep = error.spec in (Err.QueueDeletedRecently.spec, Err.OverLimit.spec)
    spec = error.spec if keep else Err.ValidationError.spec
    return SqsError(spec, Text.YMQ_CANNOT_CREATE(reason=error.message).message)


def check_queue_name(name: str, *, fifo: bool, max_length: int) -> None:
    if name.endswith(".fifo") and not fifo:
        raise Text.YMQ_FIFO_NEEDS_ATTRIBUTE()
    if fifo and not name.endswith(".fifo"):
        raise Text.YMQ_FIFO_NAME()
    stem = name[: -len(".fifo")] if name.endswith(".fifo") else name
    if not stem or len(name) > max_length or not re.match(r"^[A-Za-z0-9_-]+$", stem):
        raise Text.YMQ_QUEUE_NAME_INVALID()


def validate_labels(tags: Mapping[str, Any], current: Mapping[str, str], max_tags: int) -> None:
    """YDB's TTagValidator: at most 50 labels, keys and values 1-63 chars of [a-z0-9_-]."""
    if len(tags) > max_tags or len({**current, **tags}) > max_tags:
        raise Text.YMQ_TOO_MANY_TAGS()
    for key, value in tags.items():
        _check_label(str(key), is_key=True)
        _check_label("" if value is None else str(value), is_key=False)


def _check_label(text: str, *, is_key: bool) -> None:
    part = "key" if is_key else "value"
    if not text:
        raise Text.YMQ_TAG_EMPTY(part=part)
    if is_key and not ("a" <= text[0] <= "z"):
        raise Text.YMQ_TAG_KEY_START()
    if len(text) > _LABEL_LENGTH:
        raise Text.YMQ_TAG_TOO_LONG(part=part)
    if not _LABEL.match(text):
        raise Text.YMQ_TAG_CHARACTERS(part=part)


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
        raise Text.YMQ_REDRIVE_ILL_CONSTRUCTED()
    try:
        count = int(policy["maxReceiveCount"])
    except ValueError:
        raise Text.YMQ_REDRIVE_COUNT_NOT_INTEGER() from None
    if not 1 <= count <= max_receive:
        raise Text.YMQ_REDRIVE_COUNT()
    key = resolve(policy["deadLetterTargetArn"])
    if key is None:
        raise Text.YMQ_REDRIVE_ARN()
    return RedriveTarget(key, count)


def check_dead_letter_target(
    source: QueueKey, target: RedriveTarget, *, fifo: bool, exists: bool
) -> None:
    """The checks YDB makes once the policy parsed: same type, not itself, target exists."""
    name = target.dead_letter_queue[2]
    if fifo != name.endswith(".fifo"):
        raise Text.YMQ_REDRIVE_TYPE_MISMATCH()
    if target.dead_letter_queue == source:
        raise Text.YMQ_REDRIVE_ITSELF()
    if not exists:
        raise Text.YMQ_REDRIVE_TARGET_MISSING()
