"""Queue attributes: one rule per attribute (range, default, queue types), read by validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import QueueSettings, RedriveTarget
from . import policy
from .error_texts import Text
from .limits import Limits


@dataclass(frozen=True, slots=True)
class AttributeRule:
    name: str
    default: str | None  # None: absent unless set
    kind: str  # "int" | "bool" | "enum" | "json" | "str"
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    fifo_only: bool = False
    # DeduplicationScope / FifoThroughputLimit get their own "only when FifoQueue" text.
    fifo_only_text: bool = False


def _rules(limits: Limits) -> dict[str, AttributeRule]:
    rules = (
        AttributeRule("DelaySeconds", "0", "int", 0, limits.max_delay_seconds),
        AttributeRule(
            "MaximumMessageSize",
            str(limits.max_message_size),
            "int",
            limits.min_message_size_attribute,
            limits.max_message_size,
        ),
        AttributeRule(
            "MessageRetentionPeriod", "345600", "int", limits.min_retention, limits.max_retention
        ),
        AttributeRule("ReceiveMessageWaitTimeSeconds", "0", "int", 0, limits.max_wait_seconds),
        AttributeRule("VisibilityTimeout", "30", "int", 0, limits.max_visibility_timeout),
        AttributeRule("Policy", None, "json"),
        # Both redrive policies are checked, with their own texts, in redrive.py.
        AttributeRule("RedrivePolicy", None, "str"),
        AttributeRule("RedriveAllowPolicy", None, "str"),
        AttributeRule("KmsMasterKeyId", None, "str"),
        AttributeRule("KmsDataKeyReusePeriodSeconds", None, "int", 60, 86400),
        AttributeRule("SqsManagedSseEnabled", "true", "bool"),
        AttributeRule("FifoQueue", None, "bool", fifo_only=True),
        AttributeRule("ContentBasedDeduplication", "false", "bool", fifo_only=True),
        AttributeRule(
            "DeduplicationScope",
            "queue",
            "enum",
            choices=("queue", "messageGroup"),
            fifo_only=True,
            fifo_only_text=True,
        ),
        AttributeRule(
            "FifoThroughputLimit",
            "perQueue",
            "enum",
            choices=("perQueue", "perMessageGroupId"),
            fifo_only=True,
            fifo_only_text=True,
        ),
    )
    return {rule.name: rule for rule in rules if rule.name not in limits.unsupported_attributes}


RULES_BY_FLAVOR: dict[Limits, dict[str, AttributeRule]] = {}  # filled lazily per Limits
READ_ONLY = (
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
)


def rules_for(limits: Limits) -> dict[str, AttributeRule]:
    rules = RULES_BY_FLAVOR.get(limits)
    if rules is None:
        rules = RULES_BY_FLAVOR[limits] = _rules(limits)
    return rules


def validate(attributes: Mapping[str, Any], *, fifo: bool, limits: Limits) -> dict[str, str]:
    """Check names and values; returns the canonical string form of each attribute given."""
    rules = rules_for(limits)
    if not isinstance(attributes, Mapping):
        raise Text.ATTRIBUTES_NOT_A_MAP()
    clean: dict[str, str] = {}
    for name, raw in attributes.items():
        rule = rules.get(name)
        if rule is None:
            raise Text.UNKNOWN_ATTRIBUTE(name=name)
        if rule.fifo_only and not fifo:
            if rule.fifo_only_text:
                raise Text.FIFO_ONLY_ATTRIBUTE(name=name)
            raise Text.UNKNOWN_ATTRIBUTE(name=name)
        value = raw if isinstance(raw, str) else str(raw) if raw is not None else ""
        clean[name] = _check_value(rule, value, limits)
    return clean


def _check_value(rule: AttributeRule, value: str, limits: Limits) -> str:
    if rule.kind == "int":
        # YMQ's text names the range: "... Valid values are from 0 to 43200 both inclusive."
        text = Text.ATTRIBUTE_VALUE_INVALID(name=rule.name)
        if limits.flavor == "ymq":
            text = Text.ATTRIBUTE_VALUE_OUT_OF_RANGE_YMQ(
                name=rule.name, low=rule.low, high=rule.high
            )
        try:
            number = int(value.strip())
        except ValueError:
            raise text from None
        if not rule.low <= number <= rule.high:
            raise text
        return str(number)
    if rule.kind == "bool":
        if value.lower() not in ("true", "false"):
            raise Text.ATTRIBUTE_VALUE_INVALID(name=rule.name)
        return value.lower()
    if rule.kind == "enum":
        if value not in rule.choices:
            raise Text.ATTRIBUTE_VALUE_INVALID(name=rule.name)
        return value
    # The Policy must be a document AWS would store (policy.py). AWS's refusal, "Invalid value
    # for the parameter Policy.", is quoted in hashicorp/terraform-provider-aws PR #42209 (2025).
    if rule.kind == "json" and value:
        try:
            policy.parse(value)
        except policy.MalformedPolicy:
            raise Text.ATTRIBUTE_VALUE_INVALID(name=rule.name) from None
    return value


def reconcile_encryption(requested: Mapping[str, str], merged: dict[str, str]) -> None:
    """KMS SSE and SQS-managed SSE exclude each other: enabling one turns the other off, and
    asking for both in one call is refused."""
    kms_requested = bool(requested.get("KmsMasterKeyId"))
    if kms_requested and requested.get("SqsManagedSseEnabled") == "true":
        raise Text.ONE_KIND_OF_SSE()
    if kms_requested:
        merged["SqsManagedSseEnabled"] = "false"
    elif requested.get("SqsManagedSseEnabled") == "true":
        merged.pop("KmsMasterKeyId", None)
        merged.pop("KmsDataKeyReusePeriodSeconds", None)


def settings_from(
    attributes: Mapping[str, str],
    *,
    fifo: bool,
    limits: Limits,
    redrive: RedriveTarget | None,
) -> QueueSettings:
    rules = rules_for(limits)

    def number(name: str) -> float:
        value = attributes.get(name) or rules[name].default
        assert value is not None
        return float(value)

    return QueueSettings(
        fifo=fifo,
        visibility_timeout=number("VisibilityTimeout"),
        delay=number("DelaySeconds"),
        retention=number("MessageRetentionPeriod"),
        redrive=redrive,
        dedup_scope="messageGroup"
        if attributes.get("DeduplicationScope") == "messageGroup"
        else "queue",
        max_in_flight=limits.fifo_in_flight if fifo else limits.standard_in_flight,
        one_message_per_group=fifo and limits.one_message_per_group,
    )


def defaults(*, fifo: bool, limits: Limits) -> dict[str, str]:
    """The attributes a new queue reports before anything is set."""
    values: dict[str, str] = {}
    for rule in rules_for(limits).values():
        if rule.default is None or (rule.fifo_only and not fifo):
            continue
        values[rule.name] = rule.default
    if fifo:
        values["FifoQueue"] = "true"
    return values
