"""What a flavor of SQS is: one Dialect per flavor, asked by the code where flavors differ.

`Dialect` is Amazon SQS itself, the reference; another flavor subclasses it and overrides what
differs (ymq.YmqDialect). A dialect owns the flavor's limits (limits.py's row), its addressing
(queue URLs and ARNs, both ways), its error choices (which text answers a missing queue, a
queue that exists with other attributes, a value out of range...), its tag rules, and the
envelope its errors travel in (read by the protocol layer). Adding a flavor is adding a dialect
(and its row of limits); nothing else compares flavor names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ..engine import Broker, QueueKey, RedriveTarget
from . import redrive
from .addressing import Addressing, AwsAddressing
from .context import Flavor, RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .limits import LIMITS, Limits
from .params import integer_text
from .queue_record import QueueAttributes
from .tag_rules import AwsTags, TagRules

_QUEUE_NAME = re.compile(r"[A-Za-z0-9_-]{1,80}")  # fullmatch: `$` would let a final "\n" through


@dataclass(frozen=True, slots=True)
class Envelope:
    """How the flavor's errors look on the wire; the protocol layer renders them so."""

    # AWS JSON 1.0: `__type` is the error's shape and x-amzn-query-error carries the query code;
    # False: YDB's JSON front-end, whose `__type` is the query code (JSON 1.1, no header).
    aws_json_errors: bool = True
    # Query/XML: the error table's query-only wordings apply (AWS's "...for this wsdl version.").
    aws_query_wording: bool = True
    # The flavor's public endpoint has answered AWS JSON with HTTP 502 (option ymq_json="reject").
    json_may_be_refused: bool = False


class Dialect:
    """Amazon SQS."""

    flavor: ClassVar[Flavor] = "aws"
    default_region: ClassVar[str] = "us-east-1"
    envelope: ClassVar[Envelope] = Envelope()
    # Queue attributes the flavor does not have: "Unknown Attribute X." when one is given.
    unsupported_attributes: ClassVar[tuple[str, ...]] = ()
    # Actions the flavor has no handler for (absent_action says what it answers).
    absent_actions: ClassVar[tuple[str, ...]] = ()
    # ListQueues honours MaxResults and NextToken.
    paginates_list_queues: ClassVar[bool] = True
    # A FIFO receive hands out at most one message per group.
    one_message_per_group: ClassVar[bool] = False
    # A per-message DelaySeconds on a FIFO queue is ignored (True) or refused (False).
    ignores_fifo_message_delay: ClassVar[bool] = False

    def __init__(self, broker: Broker) -> None:
        self.limits: Limits = LIMITS[self.flavor]
        self.addressing: Addressing = self._addressing(broker)
        self.tag_rules: TagRules = AwsTags()

    def _addressing(self, broker: Broker) -> Addressing:
        return AwsAddressing()

    # -- names and owners ----------------------------------------------------------------------

    def creates_fifo(self, name: str, fifo_attribute: str | None) -> bool:
        """Whether CreateQueue of `name` with this FifoQueue value makes a FIFO queue (AWS: the
        attribute says, in any case; check_queue_name then checks the name against it)."""
        return fifo_attribute is not None and fifo_attribute.lower() == "true"

    def check_queue_name(self, name: str, *, fifo: bool) -> None:
        stem = name[: -len(".fifo")] if name.endswith(".fifo") else name
        too_long = len(name) > self.limits.max_queue_name_length
        if fifo != name.endswith(".fifo") or too_long or not _QUEUE_NAME.fullmatch(stem):
            if fifo:  # a standard queue named *.fifo gets the plain text (botocore#3058)
                raise ErrorText.FIFO_QUEUE_NAME_INVALID()
            raise ErrorText.QUEUE_NAME_INVALID()

    def queue_owner(self, requested: str | None, ctx: RequestContext) -> str:
        """The account whose queue GetQueueUrl looks up (QueueOwnerAWSAccountId, if given)."""
        return requested or ctx.account_id

    def check_same_tags(self, current: dict[str, str], given: dict[str, str]) -> None:
        """CreateQueue of an existing queue: AWS does not compare the tags."""

    def redrive_target(
        self,
        lookup: redrive.RedriveLookup,
        attributes: QueueAttributes,
        *,
        fifo: bool,
        key: QueueKey,
    ) -> RedriveTarget | None:
        """The dead-letter queue the queue's RedrivePolicy names, every rule checked."""
        return redrive.check(lookup, attributes, fifo=fifo, key=key)

    # -- error choices -------------------------------------------------------------------------

    def queue_does_not_exist(self) -> SqsError:
        return ErrorText.QUEUE_DOES_NOT_EXIST()

    def queue_deleted_recently(self) -> SqsError:
        return ErrorText.QUEUE_DELETED_RECENTLY()

    def queue_exists(self, attribute: str) -> SqsError:
        """CreateQueue of an existing queue with another value of `attribute`."""
        return ErrorText.QUEUE_NAME_EXISTS(attribute=attribute)

    def creation_error(self, error: SqsError) -> SqsError:
        """What CreateQueue answers when one of its checks refused the request."""
        return error

    def over_limit(self) -> SqsError:
        """A receive past the in-flight limit."""
        return ErrorText.OVER_LIMIT()

    def number_out_of_range(self, name: str, low: int, high: int) -> SqsError:
        """A numeric queue attribute that is not a number from `low` to `high`."""
        return ErrorText.ATTRIBUTE_VALUE_INVALID(name=name)

    def integer_value(self, text: str) -> int | None:
        """A numeric queue attribute's text as the flavor reads it, or None if it cannot."""
        try:
            return integer_text(text)
        except ValueError:
            return None

    def boolean_value(self, name: str, text: str) -> bool:
        """A true/false queue attribute as the flavor reads it: AWS takes any case ("True" is
        what CDK sends, moto#4830), refusing anything else."""
        if text.lower() not in ("true", "false"):
            raise ErrorText.ATTRIBUTE_VALUE_INVALID(name=name)
        return text.lower() == "true"

    def check_fifo_kept(self, text: str) -> None:
        """SetQueueAttributes' FifoQueue on a FIFO queue: only true keeps the queue's type."""
        if text.lower() != "true":
            raise ErrorText.MODIFYING_QUEUE_TYPE()

    def absent_action(self, action: str, ctx: RequestContext) -> SqsError:
        """What the flavor answers for one of its absent_actions."""
        return ErrorText.INVALID_ACTION(action=action)
