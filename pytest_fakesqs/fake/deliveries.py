"""Service deliveries a queue's Policy refused (enforce_policies): dropped, as on AWS, and kept
here so the test can see why its messages never arrived."""

from __future__ import annotations

import threading

from ..api.authorization import AccessDenied
from ..protocol import WireHandler
from ..protocol.dispatch import CallRecord
from .records import PRIVATE, RefusedDelivery, moment


class RefusedDeliveries:
    def __init__(self, handler: WireHandler, *, enforce_policies: bool) -> None:
        self._lock = threading.Lock()
        self._refused: list[RefusedDelivery] = []
        # Only a Policy refuses a service's delivery: without enforce_policies there is
        # nothing to hear, and every call skips this listener.
        if enforce_policies:
            handler.listeners.append(self._heard)

    def _heard(self, record: CallRecord) -> None:
        error = record.error
        if not isinstance(error, AccessDenied) or error.principal.service is None:
            return
        body = record.params.get("MessageBody")
        refused = RefusedDelivery(
            at=moment(record.at),
            service=error.principal.service,
            source_arn=error.principal.source_arn,
            queue=error.queue,
            reason=error.reason,
            body=body if isinstance(body, str) else "",
            _token=PRIVATE,
        )
        with self._lock:
            self._refused.append(refused)

    def refused(self) -> list[RefusedDelivery]:
        with self._lock:
            return list(self._refused)
