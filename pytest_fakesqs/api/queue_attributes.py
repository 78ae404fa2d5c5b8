"""Queue attributes: one rule per attribute (range, default, queue types), read by validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import QueueSettings, RedriveTarget
from . import policy
from .error_texts import ErrorText
from .limits import Limits
from .queue_record import AttributeValue, QueueAttributes

if TYPE_CHECKING:
    from .dialect import Dialect


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


def _rules(limits: Limits, unsupported: tuple[str, ...]) -> dict[str, AttributeRule]:
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
    return {rule.name: rule for rule in rules if rule.name not in unsupported}


# Filled lazily, per flavor's limits and the attributes it does not have.
RULES_BY_FLAVOR: dict[tuple[Limits, tuple[str, ...]], dict[str, AttributeRule]] = {}
READ_ONLY = (
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
)


def rules_for(limits: Limits, unsupported: tuple[str, ...] = ()) -> dict[str, AttributeRule]:
    """The attributes a queue of a flavor has (all but its `unsupported` ones), with their
    ranges and defaults."""
    key = (limits, unsupported)
    rules = RULES_BY_FLAVOR.get(key)
    if rules is None:
        rules = RULES_BY_FLAVOR[key] = _rules(*key)
    return rules


def validate(
    attributes: Mapping[str, Any], *, fifo: bool, dialect: Dialect
) -> dict[str, AttributeValue]:
    """Check names and values; returns each attribute given, parsed ("" clears text)."""
    rules = rules_for(dialect.limits, dialect.unsupported_attributes)
    if not isinstance(attributes, Mapping):
        raise ErrorText.ATTRIBUTES_NOT_A_MAP()
    clean: dict[str, AttributeValue] = {}
    for name, raw in attributes.items():
        rule = rules.get(name)
        if rule is None:
            raise ErrorText.UNKNOWN_ATTRIBUTE(name=name)
        if rule.fifo_only and not fifo:
            if rule.fifo_only_text:
                raise ErrorText.FIFO_ONLY_ATTRIBUTE(name=name)
            raise ErrorText.UNKNOWN_ATTRIBUTE(name=name)
        value = raw if isinstance(raw, str) else str(raw) if raw is not None else ""
        clean[name] = _check_value(rule, value, dialect)
    return clean


def _check_value(rule: AttributeRule, value: str, dialect: Dialect) -> AttributeValue:
    if rule.kind == "int":
        number = dialect.integer_value(value)
        if number is None or not rule.low <= number <= rule.high:
            raise dialect.number_out_of_range(rule.name, rule.low, rule.high)
        return number
    if rule.kind == "bool":
        return dialect.boolean_value(rule.name, value)
    if rule.kind == "enum":
        if value not in rule.choices:
            raise ErrorText.ATTRIBUTE_VALUE_INVALID(name=rule.name)
        return value
    # The Policy must be a document AWS would store (policy.py). AWS's refusal, "Invalid value
    # for the parameter Policy.", is quoted in hashicorp/terraform-provider-aws PR #42209 (2025).
    if rule.kind == "json" and value:
        try:
            policy.parse(value)
        except policy.MalformedPolicy:
            raise ErrorText.ATTRIBUTE_VALUE_INVALID(name=rule.name) from None
    return value


def reconcile_encryption(
    given: Mapping[str, AttributeValue], attributes: QueueAttributes
) -> QueueAttributes:
    """KMS SSE and SQS-managed SSE exclude each other: enabling one turns the other off, and
    asking for both in one call is refused."""
    kms_given = bool(given.get("KmsMasterKeyId"))
    if kms_given and given.get("SqsManagedSseEnabled") is True:
        raise ErrorText.ONE_KIND_OF_SSE()
    if kms_given:
        return attributes.updated({"SqsManagedSseEnabled": False})
    if given.get("SqsManagedSseEnabled") is True:
        return attributes.updated({"KmsMasterKeyId": "", "KmsDataKeyReusePeriodSeconds": ""})
    return attributes


def check_fifo_settings(attributes: QueueAttributes) -> None:
    """High throughput (perMessageGroupId) needs deduplication per message group."""
    if (
        attributes.fifo_throughput_limit == "perMessageGroupId"
        and (attributes.deduplication_scope or "queue") == "queue"
    ):
        raise ErrorText.THROUGHPUT_NEEDS_GROUP_SCOPE()


def settings_from(
    attributes: QueueAttributes,
    *,
    fifo: bool,
    dialect: Dialect,
    redrive: RedriveTarget | None,
) -> QueueSettings:
    limits = dialect.limits
    return QueueSettings(
        fifo=fifo,
        visibility_timeout=float(attributes.visibility_timeout),
        delay=float(attributes.delay_seconds),
        retention=float(attributes.message_retention_period),
        redrive=redrive,
        dedup_scope="messageGroup" if attributes.deduplication_scope == "messageGroup" else "queue",
        max_in_flight=limits.fifo_in_flight if fifo else limits.standard_in_flight,
        one_message_per_group=fifo and dialect.one_message_per_group,
    )


def defaults(*, fifo: bool, dialect: Dialect) -> QueueAttributes:
    """The attributes a new queue reports before anything is set."""
    values: dict[str, AttributeValue] = {}
    for rule in rules_for(dialect.limits, dialect.unsupported_attributes).values():
        if rule.default is None or (rule.fifo_only and not fifo):
            continue
        values[rule.name] = _check_value(rule, rule.default, dialect)
    if fifo:
        values["FifoQueue"] = True
    return QueueAttributes.of(values)
