"""Why a call failed, where the fake can tell more than AWS's text (which stays as it is).

A client configured for the wrong region, or signing as another account, is told only
"The specified queue does not exist"; the fake knows every (region, account, name) key, so
the failure message can say where the queue is. A misspelt queue attribute is told only
"Unknown Attribute VisiblityTimeout."; the fake knows the real names, so it can name the
closest one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .._spelling import nearest
from ..api import RequestContext
from ..api.addressing import Addressing
from ..api.dialect import Dialect
from ..api.errors import ErrorCode, SqsError
from ..api.queue_attributes import READ_ONLY, rules_for
from ..engine import Broker, QueueKey

_NOT_FOUND = ErrorCode.QueueDoesNotExist.spec
_UNKNOWN_NAME = ErrorCode.InvalidAttributeName.spec
_UNKNOWN_PREFIX, _UNKNOWN_SUFFIX = "Unknown Attribute ", "."


def is_queue_not_found(error: SqsError) -> bool:
    return error.spec is _NOT_FOUND


def attribute_hint(error: SqsError, dialect: Dialect) -> str | None:
    """`did you mean 'VisibilityTimeout'?` for "Unknown Attribute VisiblityTimeout.", or None
    (a real name refused on this queue or flavor, or nothing close)."""
    message = error.message
    if error.spec is not _UNKNOWN_NAME or not message.startswith(_UNKNOWN_PREFIX):
        return None
    name = message[len(_UNKNOWN_PREFIX) :].removesuffix(_UNKNOWN_SUFFIX)
    known = [*rules_for(dialect.limits, dialect.unsupported_attributes), *READ_ONLY]
    close = None if name in known else nearest(name, known)
    if close is None:
        return None
    if close.lower() == name.lower():
        return f"did you mean {close!r}? (attribute names are case-sensitive)"
    return f"did you mean {close!r}?"


def elsewhere_hint(
    broker: Broker, addressing: Addressing, ctx: RequestContext, params: dict[str, Any]
) -> str | None:
    """`jobs exists in us-east-1 / 123456789012; the call asked eu-west-1`, or None."""
    asked = asked_key(addressing, ctx, params)
    if asked is None:
        return None
    region, account_id, name = asked
    others = sorted(queue.key for queue in broker.queues() if queue.key[2] == name)
    others = [key for key in others if key != asked]
    if not others:
        return None
    where = " and ".join(f"{other[0]} / {other[1]}" for other in others)
    same_account = all(other[1] == account_id for other in others)
    asked_text = region if same_account else f"{region} / {account_id}"
    return f"{name} exists in {where}; the call asked {asked_text}"


def asked_key(
    addressing: Addressing, ctx: RequestContext, params: dict[str, Any]
) -> QueueKey | None:
    """The (region, account, name) key a call named, as the registry would look it up."""
    url = params.get("QueueUrl")
    if isinstance(url, str) and url:
        key = addressing.key_from_url(ctx, url)
        if key is not None:
            return key
        # Not a URL of the caller's account (a YMQ cloud id of another account, a stale id).
        segments = [s for s in (urlsplit(url).path if "://" in url else url).split("/") if s]
        return (ctx.region, ctx.account_id, segments[-1]) if segments else None
    name = params.get("QueueName")
    if isinstance(name, str) and name:
        owner = params.get("QueueOwnerAWSAccountId")
        account_id = owner if isinstance(owner, str) and owner else ctx.account_id
        return (ctx.region, account_id, name)
    return None
