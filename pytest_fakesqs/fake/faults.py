"""Fault injection for one FakeSQS: seeded misbehaviour and targeted failures from the test."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..api import RequestContext, SqsError
from ..api.faults import find_injectable, injected_error
from ..engine import Event, FaultPlan, QueueKey
from ..protocol import DecodedRequest

if TYPE_CHECKING:
    from ..protocol import WireHandler
    from .directory import QueueDirectory


@dataclass
class PendingFailure:
    action: str
    code: str
    remaining: int
    queue: QueueKey | None


class FaultInjector:
    """Owns the fake's FaultPlan, the `fail_next` queue, and attribution of faults to calls."""

    def __init__(
        self,
        directory: QueueDirectory,
        handler: WireHandler,
        *,
        seed: int | None,
        duplicate_delivery: float = 0.0,
        standard_order: str = "fifo",
        empty_receives: float = 0.0,
    ) -> None:
        self._directory = directory
        self._handler = handler
        self.seed = seed if seed is not None else self.fresh_seed()
        self.plan = FaultPlan(
            self.seed,
            duplicate_delivery=duplicate_delivery,
            standard_order=standard_order,  # type: ignore[arg-type]
            empty_receives=empty_receives,
        )
        self.plan.listeners.append(self._attribute)
        self._lock = threading.Lock()
        self._pending: list[PendingFailure] = []
        if self.plan.active:
            directory.broker.set_faults(self.plan)
        handler.interceptors.append(self._intercept)

    @staticmethod
    def fresh_seed() -> int:
        return random.SystemRandom().randrange(2**32)

    # -- from the test -------------------------------------------------------------------------

    def fail_next(self, action: str, code: str, times: int, queue: str | None) -> None:
        actions = self._directory.service.actions
        if action not in actions:
            raise ValueError(
                f"unknown SQS action {action!r}; actions: {', '.join(sorted(actions))}"
            )
        find_injectable(code)  # refuses unknown codes with the list of valid ones
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be a positive integer; got {times!r}")
        key = None if queue is None else self._directory.find(queue).key
        with self._lock:
            self._pending.append(PendingFailure(action, code, times, key))

    def duplicate_next(self, queue: str, times: int) -> None:
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be a positive integer; got {times!r}")
        target = self._directory.find(queue)
        if target.settings.fifo:
            raise ValueError(
                f"{target.name} is a FIFO queue: SQS delivers FIFO messages exactly once, "
                "so a duplicate delivery cannot happen there"
            )
        forced = self.plan.forced_duplicates
        forced[target.key] = forced.get(target.key, 0) + times
        self._directory.broker.set_faults(self.plan)

    # -- hooks ---------------------------------------------------------------------------------

    def _intercept(self, decoded: DecodedRequest, ctx: RequestContext) -> SqsError | None:
        if not self._pending:  # nearly every call: no lock needed to see that nothing is due
            return None
        with self._lock:
            for pending in self._pending:
                if pending.action == decoded.action and self._queue_matches(pending, decoded, ctx):
                    pending.remaining -= 1
                    if pending.remaining == 0:
                        self._pending.remove(pending)
                    break
            else:
                return None
        error = injected_error(pending.code)
        self._record_in_history(decoded.params, ctx, error)
        return error

    def _queue_matches(
        self, pending: PendingFailure, decoded: DecodedRequest, ctx: RequestContext
    ) -> bool:
        if pending.queue is None:
            return True
        params = decoded.params
        url = params.get("QueueUrl")
        if isinstance(url, str):
            return self._directory.service.addressing.key_from_url(ctx, url) == pending.queue
        name = params.get("QueueName")
        return isinstance(name, str) and name == pending.queue[2]

    def _record_in_history(
        self, params: dict[str, Any], ctx: RequestContext, error: SqsError
    ) -> None:
        """A failed delete or visibility change shows up in that message's timeline."""
        url, handles = params.get("QueueUrl"), _handles(params)
        if not isinstance(url, str) or not handles:
            return
        key = self._directory.service.addressing.key_from_url(ctx, url)
        queue = None if key is None else self._directory.broker.find(key)
        if queue is None:
            return
        with queue.lock:
            for handle in handles:
                message = queue.store.by_handle.get(handle)
                if message is not None:
                    message.record(
                        self._directory.clock.now(), Event.INJECTED_ERROR, error.spec.query_code
                    )

    def _attribute(self, kind: str, queue: str, message_id: str | None, detail: str) -> None:
        record = self._handler.current_call()
        if record is not None:
            record.injected = True
            if record.extra is None:
                record.extra = {}
            record.extra.setdefault("faults", []).append(
                {"fault": kind, "queue": queue, "message_id": message_id, "detail": detail}
            )


def _handles(params: dict[str, Any]) -> list[str]:
    handles: list[str] = []
    if isinstance(params.get("ReceiptHandle"), str):
        handles.append(params["ReceiptHandle"])
    for entry in params.get("Entries") or ():
        if isinstance(entry, dict) and isinstance(entry.get("ReceiptHandle"), str):
            handles.append(entry["ReceiptHandle"])
    return handles
