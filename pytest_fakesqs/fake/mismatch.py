"""Why a queue was not found: the same name in another region or account of the registry.

A client configured for the wrong region, or signing as another account, is told only
"The specified queue does not exist"; the fake knows every (region, account, name) key, so
the failure message can say where the queue is.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..api import RequestContext
from ..api.addressing import Addressing
from ..api.errors import ErrorCode, SqsError
from ..engine import Broker, QueueKey

_NOT_FOUND = ErrorCode.QueueDoesNotExist.spec


def is_queue_not_found(error: SqsError) -> bool:
    return error.spec is _NOT_FOUND


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
