"""Queue policies: parsed once, evaluated as AWS documents it.

Evaluation order (IAM's policy evaluation logic): a matching explicit Deny wins; otherwise a
matching Allow allows; otherwise the request is implicitly denied. Whether an implicit deny
refuses the call (other accounts, services) or not (the queue owner's account, whose identity
policies this fake does not model) is the caller's rule, in authorization.py. Pure: no engine,
no wire, no clock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from . import policy_conditions as conditions
from .principals import Principal, is_account_id

VERSIONS = ("2008-10-17", "2012-10-17")
PRINCIPAL_KINDS = ("AWS", "Service", "Federated", "CanonicalUser")
Effect = Literal["Allow", "Deny"]
Outcome = Literal["allow", "deny", "implicit"]


class MalformedPolicy(ValueError):
    """The document is not a policy AWS would store; the reason is for the fake's own tests."""


@dataclass(frozen=True, slots=True)
class Condition:
    operator: str  # as written: "StringEquals", "ArnLikeIfExists", ...
    key: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Statement:
    sid: str | None
    effect: Effect
    # ("*", "*") for everyone, else (kind, value) pairs: ("AWS", "123456789012"), ...
    principals: tuple[tuple[str, str], ...]
    not_principal: bool
    actions: tuple[str, ...]
    not_action: bool
    resources: tuple[str, ...] | None  # None: no Resource element (the queue itself)
    not_resource: bool
    conditions: tuple[Condition, ...]

    def label(self, index: int) -> str:
        return f"statement {self.sid!r}" if self.sid else f"statement #{index + 1}"


@dataclass(frozen=True, slots=True)
class Policy:
    statements: tuple[Statement, ...]

    def operators_not_evaluated(self) -> list[str]:
        return sorted(
            {
                c.operator
                for s in self.statements
                for c in s.conditions
                if not conditions.is_evaluated(c.operator)
            }
        )


@dataclass(frozen=True, slots=True)
class AccessRequest:
    """One call as a policy sees it."""

    principal: Principal
    action: str  # the SQS action, e.g. "SendMessage" (batches authorise as the single action)
    resource: str  # the queue's ARN
    secure_transport: bool = True

    def context_value(self, key: str) -> str | None:
        name = key.lower()
        principal = self.principal
        if name == "aws:sourcearn":
            return principal.source_arn
        if name == "aws:sourceaccount":
            return principal.source_account
        if name == "aws:principalaccount":
            return None if principal.is_service else principal.account_id
        if name == "aws:securetransport":
            return "true" if self.secure_transport else "false"
        return None


@dataclass(frozen=True, slots=True)
class Decision:
    outcome: Outcome
    statement: str | None = None  # the deciding statement's label, if any


# -- parsing -----------------------------------------------------------------------------------


def parse(text: str) -> Policy:
    """A policy document as AWS accepts it, or MalformedPolicy."""
    try:
        document = json.loads(text)
    except ValueError:
        raise MalformedPolicy("not JSON") from None
    if not isinstance(document, dict):
        raise MalformedPolicy("not a JSON object")
    version = document.get("Version", VERSIONS[0])
    if version not in VERSIONS:
        raise MalformedPolicy(f"Version {version!r}")
    raw = document.get("Statement")
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise MalformedPolicy("no Statement list")
    return Policy(tuple(_statement(s) for s in raw))


def _strings(value: Any, element: str) -> tuple[str, ...]:
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str) and v for v in values):
        raise MalformedPolicy(f"{element} must be a string or a list of strings")
    return tuple(values)


def _one_of(raw: dict[str, Any], name: str, required: bool) -> tuple[Any, bool]:
    """The element `name` or its `Not` form: (value, negated)."""
    plain, negated = raw.get(name), raw.get("Not" + name)
    if plain is not None and negated is not None:
        raise MalformedPolicy(f"both {name} and Not{name}")
    if plain is None and negated is None:
        if required:
            raise MalformedPolicy(f"no {name}")
        return None, False
    return (plain, False) if plain is not None else (negated, True)


def _statement(raw: Any) -> Statement:
    if not isinstance(raw, dict):
        raise MalformedPolicy("a statement is not an object")
    effect = raw.get("Effect")
    if effect not in ("Allow", "Deny"):
        raise MalformedPolicy(f"Effect {effect!r}")
    principal, not_principal = _one_of(raw, "Principal", required=True)
    action, not_action = _one_of(raw, "Action", required=True)
    resource, not_resource = _one_of(raw, "Resource", required=False)
    actions = _strings(action, "Action")
    for name in actions:
        if name != "*" and ":" not in name:
            raise MalformedPolicy(f"action {name!r} has no service prefix")
    sid = raw.get("Sid")
    if sid is not None and not isinstance(sid, str):
        raise MalformedPolicy("Sid must be a string")
    return Statement(
        sid=sid,
        effect=effect,
        principals=_principals(principal),
        not_principal=not_principal,
        actions=actions,
        not_action=not_action,
        resources=None if resource is None else _strings(resource, "Resource"),
        not_resource=not_resource,
        conditions=_conditions(raw.get("Condition")),
    )


def _principals(raw: Any) -> tuple[tuple[str, str], ...]:
    if raw == "*":
        return (("*", "*"),)
    if not isinstance(raw, dict) or not raw:
        raise MalformedPolicy("Principal must be * or an object")
    pairs: list[tuple[str, str]] = []
    for kind, value in raw.items():
        if kind not in PRINCIPAL_KINDS:
            raise MalformedPolicy(f"principal kind {kind!r}")
        for name in _strings(value, f"Principal {kind}"):
            if kind == "AWS" and not _valid_aws_principal(name):
                raise MalformedPolicy(f"principal {name!r}")
            pairs.append((kind, name))
    return tuple(pairs)


def _valid_aws_principal(name: str) -> bool:
    if name == "*" or is_account_id(name):
        return True
    parts = name.split(":", 5)
    return (
        len(parts) == 6
        and parts[0] == "arn"
        and parts[2] in ("iam", "sts")
        and is_account_id(parts[4])
        and bool(parts[5])
    )


def _conditions(raw: Any) -> tuple[Condition, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise MalformedPolicy("Condition must be an object")
    found: list[Condition] = []
    for operator, keys in raw.items():
        if not conditions.is_known(operator):
            raise MalformedPolicy(f"condition operator {operator!r}")
        if not isinstance(keys, dict) or not keys:
            raise MalformedPolicy(f"condition {operator} must map keys to values")
        for key, value in keys.items():
            values = value if isinstance(value, list) else [value]
            if not values or not all(isinstance(v, str | bool | int | float) for v in values):
                raise MalformedPolicy(f"condition {operator} {key}: values must be scalars")
            texts = tuple(
                ("true" if v else "false") if isinstance(v, bool) else str(v) for v in values
            )
            found.append(Condition(operator, key, texts))
    return tuple(found)


# -- evaluation --------------------------------------------------------------------------------


def evaluate(policy: Policy | None, request: AccessRequest) -> Decision:
    """Explicit deny, then allow, else implicit deny."""
    allowed_by: str | None = None
    for index, statement in enumerate(() if policy is None else policy.statements):
        if not applies(statement, request):
            continue
        if statement.effect == "Deny":
            return Decision("deny", statement.label(index))
        if allowed_by is None:
            allowed_by = statement.label(index)
    return Decision("implicit") if allowed_by is None else Decision("allow", allowed_by)


def applies(statement: Statement, request: AccessRequest) -> bool:
    """Whether every element of the statement matches the request."""
    return (
        _principal_matches(statement, request.principal)
        and _action_matches(statement, request.action)
        and _resource_matches(statement, request.resource)
        and all(_condition_holds(c, request) for c in statement.conditions)
    )


def _principal_matches(statement: Statement, principal: Principal) -> bool:
    matched = any(_names(kind, name, principal) for kind, name in statement.principals)
    return not matched if statement.not_principal else matched


def _names(kind: str, name: str, principal: Principal) -> bool:
    if name == "*" and kind in ("*", "AWS"):
        return True
    if kind == "Service":
        return principal.service is not None and principal.service.lower() == name.lower()
    if kind != "AWS" or principal.is_service:
        return False
    if is_account_id(name):
        return principal.account_id == name
    parts = name.split(":")
    if len(parts) == 6 and parts[2] == "iam" and parts[5] == "root":  # the whole account
        return principal.account_id == parts[4]
    return name in (principal.arn, principal.role_arn)


def _action_matches(statement: Statement, action: str) -> bool:
    wanted = f"sqs:{action}"
    matched = any(conditions.wildcard_match(p, wanted, ignore_case=True) for p in statement.actions)
    return not matched if statement.not_action else matched


def _resource_matches(statement: Statement, resource: str) -> bool:
    if statement.resources is None:
        return True
    matched = any(conditions.arn_match(p, resource) for p in statement.resources)
    return not matched if statement.not_resource else matched


class ConditionNotEvaluated(LookupError):
    """A condition operator this fake does not evaluate (IpAddress, ...)."""


def _condition_holds(condition: Condition, request: AccessRequest) -> bool:
    if not conditions.is_evaluated(condition.operator):
        raise ConditionNotEvaluated(condition.operator)
    return conditions.holds(
        condition.operator, condition.values, request.context_value(condition.key)
    )
