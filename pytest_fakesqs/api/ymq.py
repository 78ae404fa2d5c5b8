"""Yandex Message Queue: its dialect, where it differs from AWS (texts from YDB's sources, in
the error-text table as the YMQ_* rows).

Everything here is used only by the `ymq` flavor; the AWS behaviour stays in dialect.Dialect
and the modules that own each action.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ..engine import Broker, QueueKey, RedriveTarget
from .addressing import Addressing, YmqAddressing
from .context import Flavor, RequestContext
from .dialect import Dialect, Envelope
from .error_texts import ErrorText
from .errors import ErrorCode, SqsError
from .queue_record import QueueAttributes
from .redrive import RedriveLookup, json_or_none
from .tag_rules import TagRules

_LABEL = re.compile(r"[a-z0-9_-]*")  # fullmatch: `$` would let a final "\n" through
_LABEL_LENGTH = 63
# util's IsTrue (util/string/type.cpp), compared ignoring case: what YDB's CreateQueue takes as a
# FifoQueue that asks for a FIFO queue.
_IS_TRUE = frozenset({"true", "t", "yes", "y", "on", "1", "da"})


class YmqDialect(Dialect):
    """Yandex Message Queue (YDB's SQS-compatible service)."""

    flavor: ClassVar[Flavor] = "ymq"
    default_region: ClassVar[str] = "ru-central1"  # YMQ lives in ru-central1 only
    envelope: ClassVar[Envelope] = Envelope(
        aws_json_errors=False, aws_query_wording=False, json_may_be_refused=True
    )
    # "Unknown Attribute X." for KMS, policies and high-throughput FIFO.
    unsupported_attributes: ClassVar[tuple[str, ...]] = (
        "Policy",
        "RedriveAllowPolicy",
        "KmsMasterKeyId",
        "KmsDataKeyReusePeriodSeconds",
        "SqsManagedSseEnabled",
        "DeduplicationScope",
        "FifoThroughputLimit",
    )
    # Neither its query front-end nor YDB's JSON one has a handler for these.
    absent_actions: ClassVar[tuple[str, ...]] = (
        "AddPermission",
        "RemovePermission",
        "StartMessageMoveTask",
        "CancelMessageMoveTask",
        "ListMessageMoveTasks",
    )
    paginates_list_queues: ClassVar[bool] = False  # up to 1000 URLs, MaxResults ignored
    one_message_per_group: ClassVar[bool] = True
    ignores_fifo_message_delay: ClassVar[bool] = True  # "does not apply": the queue's is used

    def __init__(self, broker: Broker) -> None:
        super().__init__(broker)
        self.tag_rules: TagRules = YmqLabels()

    def _addressing(self, broker: Broker) -> Addressing:
        return YmqAddressing(broker)

    def creates_fifo(self, name: str, fifo_attribute: str | None) -> bool:
        # YDB's CreateQueue: the name makes the queue FIFO; the attribute must agree, read by
        # util's IsTrue (then FromAttributesAndConfig takes only "true" as its value).
        fifo = name.endswith(".fifo")
        says_fifo = fifo_attribute is not None and fifo_attribute.lower() in _IS_TRUE
        if fifo and not says_fifo:
            raise ErrorText.YMQ_FIFO_NEEDS_ATTRIBUTE()
        if says_fifo and not fifo:
            raise ErrorText.YMQ_FIFO_NAME()
        return fifo

    def check_queue_name(self, name: str, *, fifo: bool) -> None:
        check_queue_name(name, max_length=self.limits.max_queue_name_length)

    def queue_owner(self, requested: str | None, ctx: RequestContext) -> str:
        return ctx.account_id  # YMQ ignores QueueOwnerAWSAccountId

    def check_same_tags(self, current: dict[str, str], given: dict[str, str]) -> None:
        if given and given != current:
            raise ErrorText.YMQ_QUEUE_EXISTS()

    def redrive_target(
        self,
        lookup: RedriveLookup,
        attributes: QueueAttributes,
        *,
        fifo: bool,
        key: QueueKey,
    ) -> RedriveTarget | None:
        target = parse_redrive_policy(
            attributes.redrive_policy or "",
            self.addressing.key_from_arn,
            self.limits.max_receive_count,
        )
        if target is not None:
            exists = lookup.broker.find(target.dead_letter_queue) is not None
            check_dead_letter_target(key, target, fifo=fifo, exists=exists)
        return target

    def queue_does_not_exist(self) -> SqsError:
        return ErrorText.YMQ_QUEUE_DOES_NOT_EXIST()

    def queue_deleted_recently(self) -> SqsError:
        return ErrorText.YMQ_QUEUE_DELETED_RECENTLY()

    def queue_exists(self, attribute: str) -> SqsError:
        return ErrorText.YMQ_QUEUE_EXISTS()

    def creation_error(self, error: SqsError) -> SqsError:
        return creation_error(error)

    def over_limit(self) -> SqsError:
        return ErrorText.YMQ_OVER_LIMIT()

    def number_out_of_range(self, name: str, low: int, high: int) -> SqsError:
        # YMQ's text names the range: "... Valid values are from 0 to 43200 both inclusive."
        return ErrorText.ATTRIBUTE_VALUE_OUT_OF_RANGE_YMQ(name=name, low=low, high=high)

    def integer_value(self, text: str) -> int | None:
        # YDB's TQueueAttributes::TryParseLimitedValue: TryFromString<ui64>, as for the count.
        return _unsigned(text)

    def boolean_value(self, name: str, text: str) -> bool:
        # YDB's TQueueAttributes::FromAttributesAndConfig compares with "true" and "false".
        if text not in ("true", "false"):
            raise ErrorText.YMQ_BOOLEAN_INVALID(name=name)
        return text == "true"

    def check_fifo_kept(self, text: str) -> None:
        if text == "false":
            raise ErrorText.MODIFYING_QUEUE_TYPE()
        if text != "true":
            raise ErrorText.YMQ_BOOLEAN_INVALID(name="FifoQueue")

    def absent_action(self, action: str, ctx: RequestContext) -> SqsError:
        return absent_action(action, ctx)


class YmqLabels:
    """YMQ's tags are Yandex Cloud labels: YDB's TTagValidator, with its texts."""

    def at_create(self, tags: Mapping[str, Any], max_tags: int) -> dict[str, str]:
        validate_labels(tags, {}, max_tags)
        return {str(key): str(value) for key, value in tags.items()}

    def merged(
        self, requested: Mapping[str, Any], current: Mapping[str, str], max_tags: int, queue: str
    ) -> dict[str, str]:
        validate_labels(requested, current, max_tags)
        return {**current, **{str(key): str(value) for key, value in requested.items()}}


def absent_action(action: str, ctx: RequestContext) -> SqsError:
    """What YMQ answers for an action it does not have, in the protocol the client spoke."""
    if ctx.protocol == "query":
        # ydb/core/ymq/http: EAction::Unknown -> MissingAction.
        return ErrorText.YMQ_UNKNOWN_ACTION_QUERY(action=action)
    # ydb/core/http_proxy: an AmazonSQS.* method without a processor.
    return ErrorText.YMQ_UNKNOWN_METHOD_JSON(action=action)


def creation_error(error: SqsError) -> SqsError:
    """YDB's CreateQueue prefixes what its schema step found; all but the queue-state errors
    (deleted recently, too many queues) become ValidationError."""
    keep = error.spec in (ErrorCode.QueueDeletedRecently.spec, ErrorCode.OverLimit.spec)
    spec = error.spec if keep else ErrorCode.ValidationError.spec
    return SqsError(spec, ErrorText.YMQ_CANNOT_CREATE(reason=error.message).message)


def check_queue_name(name: str, *, max_length: int) -> None:
    stem = name[: -len(".fifo")] if name.endswith(".fifo") else name
    if not stem or len(name) > max_length or not re.fullmatch(r"[A-Za-z0-9_-]+", stem):
        raise ErrorText.YMQ_QUEUE_NAME_INVALID()


def validate_labels(tags: Mapping[str, Any], current: Mapping[str, str], max_tags: int) -> None:
    """YDB's TTagValidator: at most 50 labels, keys and values 1-63 chars of [a-z0-9_-]."""
    if len(tags) > max_tags or len({**current, **tags}) > max_tags:
        raise ErrorText.YMQ_TOO_MANY_TAGS()
    for key, value in tags.items():
        _check_label(str(key), is_key=True)
        _check_label("" if value is None else str(value), is_key=False)


def _check_label(text: str, *, is_key: bool) -> None:
    part = "key" if is_key else "value"
    if not text:
        raise ErrorText.YMQ_TAG_EMPTY(part=part)
    if is_key and not ("a" <= text[0] <= "z"):
        raise ErrorText.YMQ_TAG_KEY_START()
    if len(text) > _LABEL_LENGTH:
        raise ErrorText.YMQ_TAG_TOO_LONG(part=part)
    if not _LABEL.fullmatch(text):
        raise ErrorText.YMQ_TAG_CHARACTERS(part=part)


# YDB reads unsigned numbers (queue attributes, the redrive count) with util's TryFromString:
# an optional "+", then ASCII digits only (no "-", no spaces, no "_"), at most 2**64 - 1.
_UNSIGNED = re.compile(r"\+?[0-9]+")
_SIZE_MAX = 2**64 - 1


def _unsigned(text: str) -> int | None:
    """The unsigned number YDB parses from `text`, or None where its parser fails ("-3", " 3",
    "3_0", Arabic-Indic digits, "", overflow); a JSON integer arrives as its decimal text."""
    if not _UNSIGNED.fullmatch(text):
        return None
    value = int(text)
    return value if value <= _SIZE_MAX else None


def parse_redrive_policy(
    text: str, resolve: Callable[[str], QueueKey | None], max_receive: int
) -> RedriveTarget | None:
    """YDB's TRedrivePolicy::FromJson, with its texts. An empty string clears the policy."""
    if not text:
        return None
    policy = json_or_none(text)
    if (
        not isinstance(policy, dict)
        or not isinstance(policy.get("maxReceiveCount"), str | int)
        or isinstance(policy.get("maxReceiveCount"), bool)
        or not isinstance(policy.get("deadLetterTargetArn"), str)
    ):
        raise ErrorText.YMQ_REDRIVE_ILL_CONSTRUCTED()
    count = _unsigned(str(policy["maxReceiveCount"]))
    if count is None:
        raise ErrorText.YMQ_REDRIVE_COUNT_NOT_INTEGER()
    if not 1 <= count <= max_receive:
        raise ErrorText.YMQ_REDRIVE_COUNT()
    key = resolve(policy["deadLetterTargetArn"])
    if key is None:
        raise ErrorText.YMQ_REDRIVE_ARN()
    return RedriveTarget(key, count)


def check_dead_letter_target(
    source: QueueKey, target: RedriveTarget, *, fifo: bool, exists: bool
) -> None:
    """The checks YDB makes once the policy parsed: same type, not itself, target exists."""
    name = target.dead_letter_queue[2]
    if fifo != name.endswith(".fifo"):
        raise ErrorText.YMQ_REDRIVE_TYPE_MISMATCH()
    if target.dead_letter_queue == source:
        raise ErrorText.YMQ_REDRIVE_ITSELF()
    if not exists:
        raise ErrorText.YMQ_REDRIVE_TARGET_MISSING()
