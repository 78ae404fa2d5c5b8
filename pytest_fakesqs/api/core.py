"""What an action handler may use of the service, as a type: handlers depend on this, and the
service (which imports every handler through the action table) implements it, so the two never
import each other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine import Broker, Delivery, Queue, QueueKey, QueueSettings
from .addressing import Addressing
from .context import Flavor, RequestContext
from .errors import SqsError
from .limits import Limits


class Service(Protocol):
    """One fake SQS service, as the handlers of its actions see it (see service.SqsService)."""

    broker: Broker
    flavor: Flavor
    limits: Limits
    addressing: Addressing

    def call(self, action: str, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]: ...

    def resolve_queue(self, params: dict[str, Any], ctx: RequestContext) -> Queue: ...

    def queue_does_not_exist(self) -> SqsError: ...

    def queue_url(self, ctx: RequestContext, queue: Queue) -> str: ...

    def current_attributes(self, queue: Queue) -> dict[str, str]: ...

    def describe_queue(self, queue: Queue, ctx: RequestContext) -> dict[str, str]: ...

    def settings_for(
        self, attributes: dict[str, str], *, fifo: bool, key: QueueKey
    ) -> QueueSettings: ...

    def validate_fifo_settings(self, attributes: dict[str, str]) -> None: ...

    def validate_tags(
        self, tags: dict[str, Any], current: dict[str, str] | None = None
    ) -> None: ...

    def render_delivery(
        self, delivery: Delivery, wanted_system: set[str], wanted_attributes: list[str]
    ) -> dict[str, Any]: ...


# An action's handler: (service, request parameters, caller) -> the answer's fields.
Handler = Callable[[Service, dict[str, Any], RequestContext], dict[str, Any]]
