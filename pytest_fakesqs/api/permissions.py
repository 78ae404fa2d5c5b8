"""AddPermission / RemovePermission: the queue's `Policy` document, built as AWS builds it."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..engine import Queue
from .context import RequestContext
from .error_texts import ErrorText
from .params import get_str_list, require_str

if TYPE_CHECKING:
    from .core import Service

POLICY_VERSION = "2008-10-17"  # what AWS writes into the documents it builds (recorded)
MAX_ACTIONS = 7
# Actions another account may be granted; the rest are reserved for the queue's owner.
GRANTABLE_ACTIONS = frozenset(
    {
        "*",
        "ChangeMessageVisibility",
        "DeleteMessage",
        "GetQueueAttributes",
        "GetQueueUrl",
        "ListDeadLetterSourceQueues",
        "PurgeQueue",
        "ReceiveMessage",
        "SendMessage",
    }
)
OWNER_ONLY_ACTIONS = frozenset(
    {
        "AddPermission",
        "CreateQueue",
        "DeleteQueue",
        "RemovePermission",
        "SetQueueAttributes",
        "TagQueue",
        "UntagQueue",
        "ListQueues",
        "ListQueueTags",
    }
)
_LABEL = re.compile(r"[A-Za-z0-9_-]{1,80}")  # fullmatch: `$` would let a final "\n" through


def _one_or_many(values: list[str]) -> str | list[str]:
    # AWS writes a single principal or action as a string, several as a list.
    return values[0] if len(values) == 1 else values


def _check_action(action: str) -> str:
    if action in GRANTABLE_ACTIONS:
        return f"SQS:{action}"
    text = ErrorText.ACTION_OWNER_ONLY if action in OWNER_ONLY_ACTIONS else ErrorText.ACTION_UNKNOWN
    raise text(name="ActionName", value=f"SQS:{action}")


def _policy(service: Service, queue: Queue) -> dict[str, Any] | None:
    text = service.record(queue).attributes.policy
    try:
        document = json.loads(text) if text else None
    except ValueError:
        return None
    if isinstance(document, dict) and isinstance(document.get("Statement"), list):
        return document
    return None


def _store(service: Service, queue: Queue, document: dict[str, Any] | None) -> None:
    record = service.record(queue)
    # Removing the last statement removes the policy.
    text = json.dumps(document, separators=(",", ":")) if document and document["Statement"] else ""
    record.attributes = record.attributes.updated({"Policy": text})
    record.last_modified_at = service.broker.clock.now()


def add_permission(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    label = require_str(params, "Label")
    if not _LABEL.fullmatch(label):
        raise ErrorText.LABEL_INVALID(name="Label", value=label)
    account_ids = get_str_list(params, "AWSAccountIds")
    actions = get_str_list(params, "Actions")
    if not actions:
        raise ErrorText.MISSING_PARAMETER(name="Actions")
    if not account_ids:
        raise ErrorText.PRINCIPAL_UNVERIFIED(name="PrincipalId", value="[]")
    if len(actions) > MAX_ACTIONS:
        raise ErrorText.TOO_MANY_ACTIONS(count=len(actions), maximum=MAX_ACTIONS)
    granted = [_check_action(action) for action in actions]
    arn = service.addressing.queue_arn(queue.key)
    statement = {
        "Sid": label,
        "Effect": "Allow",
        "Principal": {"AWS": _one_or_many([f"arn:aws:iam::{a}:root" for a in account_ids])},
        "Action": _one_or_many(granted),
        "Resource": arn,
    }
    with queue.lock:
        document = _policy(service, queue) or {
            "Version": POLICY_VERSION,
            "Id": f"{arn}/SQSDefaultPolicy",
            "Statement": [],
        }
        if any(existing.get("Sid") == label for existing in document["Statement"]):
            raise ErrorText.LABEL_EXISTS(name="Label", value=label)
        document["Statement"].append(statement)
        _store(service, queue, document)
    return {}


def remove_permission(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    label = require_str(params, "Label")
    with queue.lock:
        document = _policy(service, queue)
        statements = [] if document is None else document["Statement"]
        kept = [s for s in statements if not (isinstance(s, dict) and s.get("Sid") == label)]
        if document is None or len(kept) == len(statements):
            raise ErrorText.LABEL_NOT_FOUND(name="Label", value=label)
        document["Statement"] = kept
        _store(service, queue, document)
    return {}
