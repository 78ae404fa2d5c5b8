"""The fake's queues by name or URL, for its own region and account: what every verb of the
façade needs first, so the helpers take this (and the broker it holds), never the façade."""

from __future__ import annotations

from typing import Any

from .._spelling import nearest
from ..api import RequestContext, SqsError, SqsService
from ..api.queue_record import attribute_text
from ..engine import Broker, Clock, Queue
from ..engine.settings import QueueKey
from .mismatch import attribute_hint


class QueueDirectory:
    """Names, URLs and ARNs of one fake's queues, and creating them as the test does."""

    def __init__(self, broker: Broker, service: SqsService, *, region: str, account_id: str):
        self.broker = broker
        self.service = service
        self.region = region
        self.account_id = account_id

    @property
    def clock(self) -> Clock:
        return self.broker.clock

    def context(self) -> RequestContext:
        return RequestContext(region=self.region, account_id=self.account_id)

    def key(self, name: str) -> QueueKey:
        return (self.region, self.account_id, name)

    def exists(self, name: str) -> bool:
        return self.broker.find(self.key(name)) is not None

    def arn(self, key: QueueKey) -> str:
        return self.service.addressing.queue_arn(key)

    def create(self, name: str, **attributes: Any) -> str:
        """Create a queue (attributes as in CreateQueue, values may be ints/bools); its URL."""
        wire = {k: attribute_text(v) for k, v in attributes.items()}
        if name.endswith(".fifo"):
            wire.setdefault("FifoQueue", "true")
        try:
            result = self.service.call(
                "CreateQueue", {"QueueName": name, "Attributes": wire}, self.context()
            )
        except SqsError as error:
            hint = attribute_hint(error, self.service.dialect)
            raise ValueError(
                f"cannot create queue {name!r}: {error.message}" + (f" ({hint})" if hint else "")
            ) from None
        url: str = result["QueueUrl"]
        return url

    def find(self, name_or_url: str) -> Queue:
        key = self.service.addressing.key_from_url(self.context(), name_or_url)
        queue = None
        if key is not None:
            queue = self.broker.find(key) or self.broker.find((self.region, key[1], key[2]))
        if queue is None and key is not None:
            # A client signing for another region than the fake's made it: unambiguous by name.
            same_name = [q for q in self.broker.queues() if q.key[1:] == key[1:]]
            queue = same_name[0] if len(same_name) == 1 else None
        if queue is None and key is not None and "://" not in name_or_url:
            # By name, another account's queue (a client signing as that account made it).
            anywhere = [q for q in self.broker.queues() if q.name == key[2]]
            queue = anywhere[0] if len(anywhere) == 1 else None
        if queue is None:
            names = (
                q.name if q.key[0] == self.region else f"{q.name} ({q.key[0]})"
                for q in self.broker.queues()
            )
            known = ", ".join(sorted(names)) or "none"
            raise LookupError(
                f"no queue named {name_or_url!r};{self._close_name(name_or_url)} queues: {known}"
            )
        return queue

    def _close_name(self, name_or_url: str) -> str:
        """` did you mean 'orders'?` for a misspelt name, or "" (a URL, a name in several
        places: the list after it says where each one is)."""
        if "://" in name_or_url:
            return ""
        names = {queue.name for queue in self.broker.queues()}
        close = None if name_or_url in names else nearest(name_or_url, sorted(names))
        return "" if close is None else f" did you mean {close!r}?"

    def url(self, queue: Queue) -> str:
        return self.service.queue_url(self.context(), queue)

    def name(self, name_or_url: str) -> str:
        return self.find(name_or_url).name
