"""What an action handler may use of the service, as a type: handlers depend on this, and the
service (which imports every handler through the action table) implements it, so the two never
import each other."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any, Protocol

from ..engine import Broker, Delivery, Queue, QueueKey, QueueSettings
from .addressing import Addressing
from .context import Flavor, RequestContext
from .dialect import Dialect
from .errors import SqsError
from .limits import Limits
from .queue_record import QueueAttributes, QueueRecord


class Service(Protocol):
    """One fake SQS service, as the handlers of its actions see it (see service.SqsService)."""

    broker: Broker
    dialect: Dialect  # what this flavor does differently: limits, addressing, error choices
    enforce_policies: bool  # authorise each call against the queue's Policy (authorization.py)

    @property
    def flavor(self) -> Flavor: ...

    @property
    def limits(self) -> Limits: ...

    @property
    def addressing(self) -> Addressing: ...

    def call(self, action: str, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]: ...

    def resolve_queue(self, params: dict[str, Any], ctx: RequestContext) -> Queue: ...

    def queue_does_not_exist(self) -> SqsError: ...

    def queue_url(self, ctx: RequestContext, queue: Queue) -> str: ...

    def record(self, queue: Queue) -> QueueRecord: ...

    @property
    def records(self) -> MutableMapping[Queue, QueueRecord]: ...

    def describe_queue(self, queue: Queue, ctx: RequestContext) -> dict[str, str]: ...

    def settings_for(
        self, attributes: QueueAttributes, *, fifo: bool, key: QueueKey
    ) -> QueueSettings: ...

    def render_delivery(
        self, delivery: Delivery, wanted_system: set[str], wanted_attributes: list[str]
    ) -> dict[str, Any]: ...


# An action's handler: (service, request parameters, caller) -> the answer's fields.
ActionHandler = Callable[[Service, dict[str, Any], RequestContext], dict[str, Any]]
Handler = ActionHandler  # the earlier name, kept importable
