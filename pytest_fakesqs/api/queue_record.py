"""One queue's configuration as the api keeps it: typed, parsed once when it is set.

CreateQueue and SetQueueAttributes parse the attributes given (queue_attributes.validate) into a
QueueAttributes; TagQueue / UntagQueue change the tags, AddPermission / RemovePermission the
policy. Everything else reads the typed fields; GetQueueAttributes alone renders them back to
AWS's strings (`render`). The engine's QueueSettings are derived from the same record.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# A validated attribute value: a number, a boolean, or text ("" clears an optional attribute).
AttributeValue = int | bool | str

# AWS's attribute name -> the field holding it (every attribute rule has one; a test checks it).
FIELDS = {
    "DelaySeconds": "delay_seconds",
    "MaximumMessageSize": "maximum_message_size",
    "MessageRetentionPeriod": "message_retention_period",
    "ReceiveMessageWaitTimeSeconds": "receive_message_wait_time_seconds",
    "VisibilityTimeout": "visibility_timeout",
    "Policy": "policy",
    "RedrivePolicy": "redrive_policy",
    "RedriveAllowPolicy": "redrive_allow_policy",
    "KmsMasterKeyId": "kms_master_key_id",
    "KmsDataKeyReusePeriodSeconds": "kms_data_key_reuse_period_seconds",
    "SqsManagedSseEnabled": "sqs_managed_sse_enabled",
    "FifoQueue": "fifo_queue",
    "ContentBasedDeduplication": "content_based_deduplication",
    "DeduplicationScope": "deduplication_scope",
    "FifoThroughputLimit": "fifo_throughput_limit",
}
# KMS's data key reuse period while a key is set and none was given (AWS's default).
DEFAULT_KMS_REUSE_PERIOD = 300


@dataclass(slots=True)
class QueueAttributes:
    """Every settable attribute of a queue; None: the queue does not report it (not set, not
    of this queue type, or not of this flavor)."""

    delay_seconds: int
    maximum_message_size: int
    message_retention_period: int
    receive_message_wait_time_seconds: int
    visibility_timeout: int
    policy: str | None = None  # the document as given (AWS echoes it)
    redrive_policy: str | None = None
    redrive_allow_policy: str | None = None
    kms_master_key_id: str | None = None
    kms_data_key_reuse_period_seconds: int | None = None
    sqs_managed_sse_enabled: bool | None = None
    fifo_queue: bool | None = None
    content_based_deduplication: bool | None = None
    deduplication_scope: str | None = None  # "queue" | "messageGroup"
    fifo_throughput_limit: str | None = None  # "perQueue" | "perMessageGroupId"

    @classmethod
    def of(cls, values: Mapping[str, AttributeValue]) -> QueueAttributes:
        """From validated values by attribute name (the numbers must all be there)."""
        fields: dict[str, Any] = {FIELDS[name]: _stored(value) for name, value in values.items()}
        return cls(**fields)

    def updated(self, given: Mapping[str, AttributeValue]) -> QueueAttributes:
        """A copy with the given attributes set ("" clears one)."""
        changes: dict[str, Any] = {FIELDS[name]: _stored(value) for name, value in given.items()}
        return dataclasses.replace(self, **changes)

    def first_difference(self, given: Mapping[str, AttributeValue]) -> str | None:
        """The first given attribute whose value is not this queue's (CreateQueue again)."""
        for name, value in given.items():
            if getattr(self, FIELDS[name]) != _stored(value):
                return name
        return None

    def render(self) -> dict[str, str]:
        """AWS's strings, as GetQueueAttributes answers them (sorted by name)."""
        rendered = {
            name: attribute_text(value)
            for name, field_name in FIELDS.items()
            if (value := getattr(self, field_name)) is not None
        }
        if self.redrive_policy:
            rendered["RedrivePolicy"] = redrive_policy_text(self.redrive_policy)
        if self.kms_master_key_id:
            rendered.setdefault("KmsDataKeyReusePeriodSeconds", str(DEFAULT_KMS_REUSE_PERIOD))
        else:  # the reuse period shows only while a KMS key is set
            rendered.pop("KmsDataKeyReusePeriodSeconds", None)
        return rendered


@dataclass(slots=True)
class QueueRecord:
    """What the api knows of one queue beyond the engine's settings."""

    attributes: QueueAttributes
    last_modified_at: float
    tags: dict[str, str] = field(default_factory=dict)


def _stored(value: AttributeValue | None) -> AttributeValue | None:
    return None if value == "" else value


def redrive_policy_text(text: str) -> str:
    """A RedrivePolicy as GetQueueAttributes answers it, however it was written when set:
    compact JSON, the ARN first, the count a number. AWS CLI's own examples set
    `{"deadLetterTargetArn":"arn:...","maxReceiveCount":"1000"}` and get back
    `{"deadLetterTargetArn":"arn:...","maxReceiveCount":1000}`; YDB renders its parsed policy
    (TRedrivePolicy::ToJson) the same way (its key order is a guess: sorted, as here)."""
    try:
        policy = json.loads(text)
        target, count = policy["deadLetterTargetArn"], int(policy["maxReceiveCount"])
    except (ValueError, TypeError, KeyError):  # validated when set: only a restored oddity
        return text
    return json.dumps(
        {"deadLetterTargetArn": target, "maxReceiveCount": count}, separators=(",", ":")
    )


def attribute_text(value: object) -> str:
    """An attribute value as AWS writes it: a boolean in lower case, anything else as str()
    (also how a helper's `create_queue(name, FifoQueue=True)` becomes a request)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
