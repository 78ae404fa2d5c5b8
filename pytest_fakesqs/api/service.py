"""SQS semantics over the engine: dispatch by the action table, shared queue helpers."""

from __future__ import annotations

from typing import Any

from ..engine import Broker, Delivery, Queue, QueueKey, QueueSettings
from . import authorization, receiving, redrive, ymq
from . import queue_attributes as qa
from . import tags as tag_rules
from .actions import ACTIONS
from .addressing import Addressing, AwsAddressing, YmqAddressing
from .context import Flavor, RequestContext
from .core import Handler
from .error_texts import Text
from .errors import SqsError
from .limits import LIMITS, Limits
from .queues import describe_counts


class SqsService:
    """One fake SQS service: a broker, a flavor's limits and addressing, the action table."""

    def __init__(
        self, broker: Broker, *, flavor: Flavor = "aws", enforce_policies: bool = False
    ) -> None:
        self.broker = broker
        self.flavor: Flavor = flavor
        self.limits: Limits = LIMITS[flavor]
        self.addressing: Addressing = YmqAddressing(broker) if flavor == "ymq" else AwsAddressing()
        self.actions: dict[str, Handler] = dict(ACTIONS)
        # Opt-in: authorise each call against the queue's Policy (authorization.py).
        self.enforce_policies = enforce_policies

    def call(self, action: str, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
        if action in self.limits.absent_actions:
            raise ymq.absent_action(action, ctx)
        handler = self.actions.get(action)
        if handler is None:
            raise Text.INVALID_ACTION(action=action)
        if self.enforce_policies:
            authorization.authorize(self, action, params, ctx)
        return handler(self, params, ctx)

    # -- queues --------------------------------------------------------------------------------

    def resolve_queue(self, params: dict[str, Any], ctx: RequestContext) -> Queue:
        url = params.get("QueueUrl")
        if url is None or url == "":
            raise Text.MISSING_PARAMETER(name="QueueUrl")
        if not isinstance(url, str):
            raise Text.NOT_A_STRING(name="QueueUrl", value=url)
        key = self.addressing.key_from_url(ctx, url)
        queue = None if key is None else self.broker.find(key)
        if queue is None:
            raise self.queue_does_not_exist()
        return queue

    def queue_does_not_exist(self) -> SqsError:
        if self.flavor == "ymq":
            return Text.YMQ_QUEUE_DOES_NOT_EXIST()
        return Text.QUEUE_DOES_NOT_EXIST()

    def queue_url(self, ctx: RequestContext, queue: Queue) -> str:
        return self.addressing.queue_url(ctx, queue.key)

    def current_attributes(self, queue: Queue) -> dict[str, str]:
        attributes: dict[str, str] = queue.meta.get("attributes", {})
        return attributes

    def describe_queue(self, queue: Queue, ctx: RequestContext) -> dict[str, str]:
        attributes = dict(self.current_attributes(queue))
        attributes.update(describe_counts(self, queue))
        attributes["CreatedTimestamp"] = str(int(queue.created_at))
        attributes["LastModifiedTimestamp"] = str(
            int(queue.meta.get("last_modified_at", queue.created_at))
        )
        attributes["QueueArn"] = self.addressing.queue_arn(queue.key)
        if attributes.get("KmsMasterKeyId"):
            attributes.setdefault("KmsDataKeyReusePeriodSeconds", "300")
        else:  # the reuse period shows only while a KMS key is set
            attributes.pop("KmsDataKeyReusePeriodSeconds", None)
        return dict(sorted(attributes.items()))

    def settings_for(
        self, attributes: dict[str, str], *, fifo: bool, key: QueueKey
    ) -> QueueSettings:
        if self.flavor == "ymq":
            return self._ymq_settings_for(attributes, fifo=fifo, key=key)
        redrive_target = redrive.check(self, attributes, fifo=fifo, key=key)
        return qa.settings_from(attributes, fifo=fifo, limits=self.limits, redrive=redrive_target)

    def _ymq_settings_for(
        self, attributes: dict[str, str], *, fifo: bool, key: QueueKey
    ) -> QueueSettings:
        redrive = ymq.parse_redrive_policy(
            attributes.get("RedrivePolicy", ""),
            self.addressing.key_from_arn,
            self.limits.max_receive_count,
        )
        if redrive is not None:
            exists = self.broker.find(redrive.dead_letter_queue) is not None
            ymq.check_dead_letter_target(key, redrive, fifo=fifo, exists=exists)
        return qa.settings_from(attributes, fifo=fifo, limits=self.limits, redrive=redrive)

    def validate_fifo_settings(self, attributes: dict[str, str]) -> None:
        if (
            attributes.get("FifoThroughputLimit") == "perMessageGroupId"
            and attributes.get("DeduplicationScope", "queue") == "queue"
        ):
            raise Text.THROUGHPUT_NEEDS_GROUP_SCOPE()

    def validate_tags(self, tags: dict[str, Any], current: dict[str, str] | None = None) -> None:
        """Tags about to be added to a queue whose tags are `current`."""
        if self.limits.tag_rules == "ymq":
            ymq.validate_labels(tags, current or {}, self.limits.max_tags)
            return
        tag_rules.check_tags(tags)  # key and value lengths, as TagQueue checks them
        if len(tags) > self.limits.max_tags:
            raise Text.TOO_MANY_TAGS_AT_CREATE(maximum=self.limits.max_tags)

    def render_delivery(
        self, delivery: Delivery, wanted_system: set[str], wanted_attributes: list[str]
    ) -> dict[str, Any]:
        return receiving.render_delivery(self, delivery, wanted_system, wanted_attributes)
