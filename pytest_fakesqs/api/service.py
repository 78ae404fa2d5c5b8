"""SQS semantics over the engine: dispatch by the action table, shared queue helpers."""

from __future__ import annotations

import weakref
from typing import Any

from ..engine import Broker, Delivery, Queue, QueueKey, QueueSettings
from . import authorization, receiving
from . import queue_attributes as queue_rules
from .actions import ACTIONS
from .addressing import Addressing
from .context import Flavor, RequestContext
from .core import ActionHandler
from .dialect import Dialect
from .error_texts import ErrorText
from .errors import SqsError
from .limits import Limits
from .queue_record import QueueAttributes, QueueRecord
from .queues import describe_counts
from .ymq import YmqDialect

# Every flavor's dialect: adding a flavor is adding a row (and the dialect).
DIALECTS: dict[Flavor, type[Dialect]] = {"aws": Dialect, "ymq": YmqDialect}


class SqsService:
    """One fake SQS service: a broker, a flavor's dialect, the action table, and the api's
    record of each queue."""

    def __init__(
        self, broker: Broker, *, flavor: Flavor = "aws", enforce_policies: bool = False
    ) -> None:
        self.broker = broker
        self.dialect: Dialect = DIALECTS[flavor](broker)
        self.actions: dict[str, ActionHandler] = dict(ACTIONS)
        # Opt-in: authorise each call against the queue's Policy (authorization.py).
        self.enforce_policies = enforce_policies
        # Each queue's configuration, for as long as the queue object lives.
        self.records: weakref.WeakKeyDictionary[Queue, QueueRecord] = weakref.WeakKeyDictionary()

    @property
    def flavor(self) -> Flavor:
        return self.dialect.flavor

    @property
    def limits(self) -> Limits:
        return self.dialect.limits

    @property
    def addressing(self) -> Addressing:
        return self.dialect.addressing

    def call(self, action: str, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
        if action in self.dialect.absent_actions:
            raise self.dialect.absent_action(action, ctx)
        handler = self.actions.get(action)
        if handler is None:
            raise ErrorText.INVALID_ACTION(action=action)
        if self.enforce_policies:
            authorization.authorize(self, action, params, ctx)
        return handler(self, params, ctx)

    # -- queues --------------------------------------------------------------------------------

    def resolve_queue(self, params: dict[str, Any], ctx: RequestContext) -> Queue:
        url = params.get("QueueUrl")
        if url is None or url == "":
            raise ErrorText.MISSING_PARAMETER(name="QueueUrl")
        if not isinstance(url, str):
            raise ErrorText.NOT_A_STRING(name="QueueUrl", value=url)
        key = self.dialect.addressing.key_from_url(ctx, url)
        queue = None if key is None else self.broker.find(key)
        if queue is None:
            raise self.dialect.queue_does_not_exist()
        return queue

    def queue_does_not_exist(self) -> SqsError:
        return self.dialect.queue_does_not_exist()

    def queue_url(self, ctx: RequestContext, queue: Queue) -> str:
        return self.dialect.addressing.queue_url(ctx, queue.key)

    def record(self, queue: Queue) -> QueueRecord:
        """The api's record of a queue (created with it by CreateQueue)."""
        return self.records[queue]

    def describe_queue(self, queue: Queue, ctx: RequestContext) -> dict[str, str]:
        """Every attribute GetQueueAttributes("All") answers, as AWS's strings."""
        record = self.record(queue)
        attributes = record.attributes.render()
        attributes.update(describe_counts(self, queue))
        attributes["CreatedTimestamp"] = str(int(queue.created_at))
        attributes["LastModifiedTimestamp"] = str(int(record.last_modified_at))
        attributes["QueueArn"] = self.dialect.addressing.queue_arn(queue.key)
        return dict(sorted(attributes.items()))

    def settings_for(
        self, attributes: QueueAttributes, *, fifo: bool, key: QueueKey
    ) -> QueueSettings:
        redrive_target = self.dialect.redrive_target(self, attributes, fifo=fifo, key=key)
        return queue_rules.settings_from(
            attributes, fifo=fifo, dialect=self.dialect, redrive=redrive_target
        )

    def render_delivery(
        self, delivery: Delivery, wanted_system: set[str], wanted_attributes: list[str]
    ) -> dict[str, Any]:
        return receiving.render_delivery(self, delivery, wanted_system, wanted_attributes)
