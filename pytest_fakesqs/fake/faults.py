"""Fault injection for one FakeSQS: its decider (seeded or a schedule), the targeted faults a test
asks for (fail_next, duplicate_next), errors on the call path, and what fired, in words."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..api import RequestContext, SqsError
from ..api.faults import find_injectable, injected_error
from ..engine import Event, QueueKey
from ..engine.faults import (
    DuplicateFired,
    ErrorFired,
    FaultDecider,
    FaultPlan,
    FaultSeam,
    Fired,
    ReorderFired,
)
from ..protocol import DecodedRequest
from .fault_report import PendingFault, describe, never_happened
from .text import check_action

if TYPE_CHECKING:
    from ..protocol import WireHandler
    from ..protocol.base import WireRequest
    from .directory import QueueDirectory
    from .history import MessageLog
    from .options import Options


@dataclass
class PendingFailure:
    action: str
    code: str
    times: int
    queue: QueueKey | None
    source: str
    remaining: int = 0

    def __post_init__(self) -> None:
        self.remaining = self.times


@dataclass
class RetriedFailure:
    """A call the decider failed, while its client retries it (by its invocation id)."""

    error: ErrorFired
    remaining: int


class FaultInjector:
    """Owns the fake's fault seam and decider, the `fail_next` queue, and attribution of
    faults to calls."""

    def __init__(
        self,
        directory: QueueDirectory,
        handler: WireHandler,
        message_log: MessageLog,
        options: Options,
        *,
        seed: int,
    ) -> None:
        self._directory = directory
        self._handler = handler
        self._message_log = message_log
        self.seed = seed
        self.schedule = options.faults
        decider: FaultDecider = self.schedule or FaultPlan(
            seed,
            duplicate_delivery=options.duplicate_delivery,
            standard_order=options.standard_order,
            empty_receives=options.empty_receives,
        )
        self.plan = decider if isinstance(decider, FaultPlan) else None
        self.seam = FaultSeam(decider, limit=options.history_limit)
        self.seam.listeners.append(self._attribute)
        if self.schedule is not None:
            self.schedule.explain_with(self.fired)
        self._lock = threading.Lock()
        self._pending: list[PendingFailure] = []
        self._retried: dict[str, RetriedFailure] = {}  # invocation id -> its failing call
        self._retrying_unnamed = False  # a client that sends no invocation id: its retry
        if self.seam.engine_faults:
            directory.broker.set_faults(self.seam)
        # Calls are intercepted only once there is something to inject (a schedule, a
        # fail_next): until then every call skips the check.
        self._intercepting = False
        if self.schedule is not None:
            self._intercept_calls()

    @staticmethod
    def fresh_seed() -> int:
        return random.SystemRandom().randrange(2**32)

    @property
    def uses_randomness(self) -> bool:
        return self.plan is not None and self.plan.active

    # -- from the test -------------------------------------------------------------------------

    def fail_next(self, action: str, code: str, times: int, queue: str | None) -> None:
        check_action(action, self._directory.service.actions, lead="unknown SQS action")
        find_injectable(code)  # refuses a code it cannot inject, naming the closest one
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be a positive integer; got {times!r}")
        key = None if queue is None else self._directory.find(queue).key
        on = "" if queue is None else f", queue={queue!r}"
        source = f"fail_next({action!r}, {code!r}, times={times}{on})"
        with self._lock:
            self._pending.append(PendingFailure(action, code, times, key, source))
            self._intercept_calls()

    def duplicate_next(self, queue: str, times: int) -> None:
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be a positive integer; got {times!r}")
        target = self._directory.find(queue)
        if target.settings.fifo:
            raise ValueError(
                f"{target.name} is a FIFO queue: SQS delivers FIFO messages exactly once, "
                "so a duplicate delivery cannot happen there"
            )
        self.seam.force_duplicates(target.key, times, f"duplicate_next({target.name!r})")
        self._directory.broker.set_faults(self.seam)

    # -- what fired ----------------------------------------------------------------------------

    def fired(self) -> list[str]:
        """Every fault that took effect so far, in order, as short sentences."""
        fired = self.seam.fired_so_far()
        numbers = self._message_log.numbers()
        return [describe(each, numbers) for each in fired]

    def never_happened(self, configured: set[str] | None) -> list[str]:
        """The faults the test configured (`configured`: the options it set itself; None:
        all) that it never observed, one sentence each. A schedule is exploration: never."""
        if self.schedule is not None:
            return []
        pending = [
            PendingFault(p.source, p.times - p.remaining, p.times, self._trigger(p))
            for p in self._pending
        ]
        seam = self.seam
        for key, remaining in seam.forced_duplicates.items():
            asked = seam.forced_asked[key]
            trigger = f"delivery from {key[2]}"
            pending.append(
                PendingFault(seam.forced_sources[key], asked - remaining, asked, trigger)
            )
        return never_happened(self.seam, pending, configured=configured)

    def finish(self) -> None:
        if self.schedule is not None:
            self.schedule.finish()

    @staticmethod
    def _trigger(pending: PendingFailure) -> str:
        on = "" if pending.queue is None else f" on {pending.queue[2]}"
        return f"{pending.action} call{on}"

    # -- the call path -------------------------------------------------------------------------

    def _intercept_calls(self) -> None:
        """Put this injector first among the handler's interceptors, once. The list is
        replaced, not changed in place: a call being served goes on with the one it read."""
        if not self._intercepting:
            self._intercepting = True
            self._handler.interceptors = [self._intercept, *self._handler.interceptors]

    def _intercept(
        self, decoded: DecodedRequest, ctx: RequestContext, request: WireRequest
    ) -> SqsError | None:
        error = self._targeted(decoded, ctx)
        if error is None:
            error = self._decided(decoded, ctx, request)
        if error is not None:
            self._record_in_history(decoded.params, ctx, error)
        return error

    def _targeted(self, decoded: DecodedRequest, ctx: RequestContext) -> SqsError | None:
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
        queue = None if pending.queue is None else pending.queue[2]
        self.seam.record(
            ErrorFired(
                pending.source,
                queue,
                self._directory.clock.now(),
                decoded.action,
                error.spec.query_code,
                error.spec.status,
                call=0,
            )
        )
        return error

    def _decided(
        self, decoded: DecodedRequest, ctx: RequestContext, request: WireRequest
    ) -> SqsError | None:
        """The decider's errors, each within what the client's retries absorb: botocore says
        which attempt of which call a request is, and how many attempts it makes in all."""
        if self.schedule is None or request.from_aws_service:
            return None  # the seeded decider injects no errors; SNS and S3 retry on their own
        invocation, attempt, max_attempts = retry_state(request.headers)
        if invocation is None:
            if self._retrying_unnamed:  # most likely the retry of the one just failed
                self._retrying_unnamed = False
                return None
        elif attempt > 1:
            return self._retry(invocation, attempt, max_attempts)
        queue = self._queue_name(decoded, ctx)
        decided = self.seam.fails(decoded.action, queue)
        if decided is None or (max_attempts is not None and max_attempts < 2):
            return None  # no fault here, or a client that would not retry it
        code, times, call = decided
        error = injected_error(code)
        fired = ErrorFired(
            "faults=",
            queue,
            self._directory.clock.now(),
            decoded.action,
            error.spec.query_code,
            error.spec.status,
            call=call,
        )
        self.seam.record(fired)
        if invocation is None:
            self._retrying_unnamed = True
        elif times > 1:
            with self._lock:
                self._retried[invocation] = RetriedFailure(fired, times - 1)
        return error

    def _retry(self, invocation: str, attempt: int, max_attempts: int | None) -> SqsError | None:
        with self._lock:
            retried = self._retried.get(invocation)
            if retried is None:
                return None  # a retry of a call this decider did not fail
            if retried.remaining <= 0 or max_attempts is None or attempt >= max_attempts:
                del self._retried[invocation]  # the last attempt the client makes: it passes
                return None
            retried.remaining -= 1
            retried.error.times += 1
            if not retried.remaining:
                del self._retried[invocation]
        return injected_error(retried.error.code)

    def _queue_name(self, decoded: DecodedRequest, ctx: RequestContext) -> str | None:
        params = decoded.params
        url = params.get("QueueUrl")
        if isinstance(url, str):
            key = self._directory.service.addressing.key_from_url(ctx, url)
            return None if key is None else key[2]
        name = params.get("QueueName")
        return name if isinstance(name, str) else None

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

    def _attribute(self, fired: Fired) -> None:
        """An engine-side fault belongs to the call being served: it shows in calls()."""
        if isinstance(fired, ErrorFired):
            return  # the call's own error says so
        record = self._handler.current_call()
        if record is None:
            return
        record.injected = True
        if record.extra is None:
            record.extra = {}
        message = (
            fired.original
            if isinstance(fired, DuplicateFired)
            else fired.first
            if isinstance(fired, ReorderFired)
            else None
        )
        record.extra.setdefault("faults", []).append(
            {
                "fault": fired.kind,
                "queue": fired.queue,
                "message_id": None if message is None else message.message_id,
                "detail": describe(fired, {}),  # numbering messages costs O(messages)
            }
        )


def retry_state(headers: dict[str, str]) -> tuple[str | None, int, int | None]:
    """(invocation id, attempt, attempts in all) from botocore's `amz-sdk-invocation-id` and
    `amz-sdk-request: attempt=2; max=5` headers. `max` is missing until botocore has judged a
    retry in legacy mode (and, in older botocore, in standard mode too): None, then."""
    invocation = headers.get("amz-sdk-invocation-id") or None
    attempt, max_attempts = 1, None
    for part in headers.get("amz-sdk-request", "").split(";"):
        name, _, value = part.strip().partition("=")
        if value.isdigit():
            if name == "attempt":
                attempt = int(value)
            elif name == "max":
                max_attempts = int(value)
    return invocation, attempt, max_attempts


def _handles(params: dict[str, Any]) -> list[str]:
    handles: list[str] = []
    if isinstance(params.get("ReceiptHandle"), str):
        handles.append(params["ReceiptHandle"])
    for entry in params.get("Entries") or ():
        if isinstance(entry, dict) and isinstance(entry.get("ReceiptHandle"), str):
            handles.append(entry["ReceiptHandle"])
    return handles
