"""`enforce_policies`: each call on a queue is authorised against the queue's `Policy`.

The queue owner's account is allowed unless a statement explicitly denies it (identity
policies are not modelled: every principal of the owner's account is taken to have them).
Other accounts and AWS services need an Allow and no Deny. Batches authorise as their
single-message action, as AWS does (its denial names sqs:sendmessage for SendMessageBatch).
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from ..engine import Broker, Queue, QueueKey
from .addressing import Addressing
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .policy import AccessRequest, ConditionNotEvaluated, MalformedPolicy, Policy, evaluate, parse
from .policy_conditions import SUPPORTED_KEYS
from .principals import Principal, root
from .queue_record import QueueRecord

SINGLE_ACTION = {
    "SendMessageBatch": "SendMessage",
    "DeleteMessageBatch": "DeleteMessage",
    "ChangeMessageVisibilityBatch": "ChangeMessageVisibility",
}
# Calls that name no existing queue of someone else: nothing to authorise against.
_NOT_ON_A_QUEUE = frozenset(
    {
        "CreateQueue",
        "ListQueues",
        "StartMessageMoveTask",
        "ListMessageMoveTasks",
        "CancelMessageMoveTask",
    }
)


class QueueDirectory(Protocol):
    """What authorising needs of the service (SqsService is one)."""

    broker: Broker

    @property
    def addressing(self) -> Addressing: ...

    def record(self, queue: Queue) -> QueueRecord: ...

    def queue_url(self, ctx: RequestContext, queue: Queue) -> str: ...


class AccessDenied(SqsError):
    """AccessDenied (403), with what the fake's reports say about it."""

    def __init__(self, error: SqsError, *, principal: Principal, queue: str, reason: str) -> None:
        super().__init__(error.spec, error.message)
        self.principal = principal
        self.queue = queue
        self.reason = reason


@functools.lru_cache(maxsize=256)  # a queue's policy text is read on every call it authorises
def parsed(text: str) -> Policy | None:
    try:
        return parse(text)
    except MalformedPolicy:
        return None  # never stored: SetQueueAttributes refuses it


def check_policy(text: str, *, enforcing: bool) -> None:
    """SetQueueAttributes / CreateQueue: AWS's refusal of a malformed policy; with enforcement
    on, also the fake's refusal of conditions it cannot evaluate (rather than guessing)."""
    try:
        policy = parse(text)
    except MalformedPolicy:
        raise ErrorText.ATTRIBUTE_VALUE_INVALID(name="Policy") from None
    unsupported = policy.operators_not_evaluated() if enforcing else []
    if unsupported:
        raise ErrorText.CONDITION_NOT_EVALUATED(
            operators=", ".join(unsupported), keys=", ".join(SUPPORTED_KEYS)
        )


def _target(
    service: QueueDirectory, action: str, params: dict[str, Any], ctx: RequestContext
) -> QueueKey | None:
    if action == "GetQueueUrl":
        owner = params.get("QueueOwnerAWSAccountId")
        name = params.get("QueueName")
        if not owner or not isinstance(name, str) or not isinstance(owner, str):
            return None  # the caller's own account
        return (ctx.region, owner, name)
    url = params.get("QueueUrl")
    if not isinstance(url, str) or not url:
        return None
    return service.addressing.key_from_url(ctx, url)


def authorize(
    service: QueueDirectory, action: str, params: dict[str, Any], ctx: RequestContext
) -> None:
    """Raise AccessDenied unless the caller may make this call; unknown queues pass through, so
    the action answers them with its own error."""
    if action in _NOT_ON_A_QUEUE:
        return
    key = _target(service, action, params, ctx)
    queue = None if key is None else service.broker.find(key)
    if queue is None or key is None:
        return
    principal = ctx.principal or root(ctx.account_id)
    text = service.record(queue).attributes.policy or ""
    own_account = principal.account_id == key[1] and not principal.is_service
    if own_account and not text:
        return
    single = SINGLE_ACTION.get(action, action)
    resource = service.addressing.queue_arn(key)
    request = AccessRequest(principal, single, resource, secure_transport=_secure(ctx))
    try:
        decision = evaluate(parsed(text) if text else None, request)
    except ConditionNotEvaluated as error:
        raise ErrorText.CONDITION_NOT_EVALUATED_IN_POLICY(operator=error, queue=key[2]) from None
    if decision.outcome == "allow" or (decision.outcome == "implicit" and own_account):
        return
    who = principal.describe()
    if decision.outcome == "deny":
        reason = f"{decision.statement} denies {who}"
    else:
        reason = f"no statement allows {who}"
    if principal.is_service:
        refusal = ErrorText.SERVICE_ACCESS_DENIED(url=service.queue_url(ctx, queue))
    else:
        row = (
            ErrorText.ACCESS_DENIED_EXPLICIT
            if decision.outcome == "deny"
            else ErrorText.ACCESS_DENIED
        )
        refusal = row(principal=principal.arn, action=f"sqs:{single.lower()}", resource=resource)
    raise AccessDenied(refusal, principal=principal, queue=key[2], reason=reason)


def _secure(ctx: RequestContext) -> bool:
    return not ctx.base_url.startswith("http://")
