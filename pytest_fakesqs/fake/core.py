"""The parts of one fake, built together from its options: clock, engine, api, wire handler and
the logs the façade reads. `FakeSQS` holds one privately and `renew` builds a fresh one; what
the report, the pictures and the server read of it goes through `Inspection`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ..api import RequestContext, SqsService
from ..api.principals import Identities
from ..engine import Broker, Clock, Delivery, Message, Queue, QueueKey, State
from ..engine.move_tasks import MoveTaskRunner
from ..protocol import WireHandler, WireRequest
from ..protocol.sigv4 import SignatureVerifier
from ..transport.moto_identity import issued_principal
from .calls import CallLog
from .dead_letters import DeadLetterBook
from .deliveries import RefusedDeliveries
from .directory import QueueDirectory
from .faults import FaultInjector
from .history import MessageLog
from .options import Options
from .sleep_hint import SleepWatch


class FakeCore:
    """One fake's engine and everything around it; every part gets what it needs when built."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.clock = Clock(
            options.clock, start=options.start, autojump_threshold=options.autojump_threshold
        )
        self.started_at = self.clock.now()
        # One seed for every random choice, message ids included, so a pinned seed repeats a run.
        seed = options.seed if options.seed is not None else FaultInjector.fresh_seed()
        self.broker = Broker(self.clock, seed=seed)
        self.service = SqsService(
            self.broker, flavor=options.flavor, enforce_policies=options.enforce_policies
        )
        self.handler = WireHandler(
            self.service,
            region=options.region,
            account_id=options.account_id,
            ymq_json=options.ymq_json,
            identities=Identities(options.account_id, options.accounts, [issued_principal]),
            authenticate=(
                SignatureVerifier(options.credentials) if options.verify_signatures else None
            ),
        )
        self.directory = QueueDirectory(
            self.broker, self.service, region=options.region, account_id=options.account_id
        )
        limit = options.history_limit
        self.message_log = MessageLog(self.broker, limit=limit)
        self.faults = FaultInjector(
            self.directory, self.handler, self.message_log, options, seed=seed
        )
        self.dead_letters = DeadLetterBook(
            self.directory, self.message_log, self.started_at, limit=limit
        )
        self.calls = CallLog(self.handler, self.service, limit=limit)
        self.refused = RefusedDeliveries(self.handler, enforce_policies=options.enforce_policies)
        self.sleep_watch = SleepWatch(self.handler, self.clock)  # time.sleep on a frozen clock


class Inspection:
    """What the report, the pictures' snapshot and the server's pages read of a fake: its queues
    and their messages, its clock, its logs, and the handler an HTTP server serves. It reads
    the fake's current core on every call, so it stays right across `renew`. Only `purge`
    (LocalStack's peek API has it) changes anything."""

    def __init__(self, core: Callable[[], FakeCore]) -> None:
        self._core = core

    @property
    def options(self) -> Options:
        return self._core().options

    @property
    def started_at(self) -> float:
        return self._core().started_at

    def now(self) -> float:
        return self._core().clock.now()

    @property
    def handler(self) -> WireHandler:
        return self._core().handler

    @property
    def message_log(self) -> MessageLog:
        return self._core().message_log

    @property
    def sleep_hint(self) -> str | None:
        """One line when the test slept in real time while the frozen clock stood still."""
        return self._core().sleep_watch.hint

    @property
    def calls(self) -> CallLog:
        return self._core().calls

    @property
    def dead_letters(self) -> DeadLetterBook:
        return self._core().dead_letters

    # -- queues --------------------------------------------------------------------------------

    def queues(self) -> list[Queue]:
        return self._core().broker.queues()

    def find(self, key: QueueKey) -> Queue | None:
        return self._core().broker.find(key)

    def refresh(self, queue: Queue) -> None:
        """Apply what the clock says is due (visibility lapses, delays, expiry) before reading."""
        self._core().broker.refresh(queue)

    def states(self, queue: Queue) -> dict[State, list[Message]]:
        return self._core().broker.states(queue)

    def purge(self, queue: Queue) -> None:
        self._core().broker.purge(queue)

    def url(self, queue: Queue, *, base_url: str | None = None) -> str:
        """The queue's URL, as the fake's own region and account see it (at `base_url`)."""
        core = self._core()
        ctx = core.directory.context()
        if base_url is not None:
            ctx = dataclasses.replace(ctx, base_url=base_url)
        return core.service.queue_url(ctx, queue)

    def attributes(self, queue: Queue) -> dict[str, str]:
        """Every attribute, as GetQueueAttributes with All answers."""
        core = self._core()
        return core.service.describe_queue(queue, core.directory.context())

    def key_from_url(self, request: WireRequest, url: str) -> QueueKey | None:
        """The queue a URL names, read as a request to the fake would read it."""
        core = self._core()
        return core.service.addressing.key_from_url(core.handler.context(request, "query"), url)

    def key_in(self, ctx: RequestContext, url: str) -> QueueKey | None:
        """The queue a URL names for a caller in `ctx` (a call record's context)."""
        return self._core().service.addressing.key_from_url(ctx, url)

    def render_delivery(self, delivery: Delivery) -> dict[str, Any]:
        """A message as ReceiveMessage renders it, with every attribute."""
        return self._core().service.render_delivery(delivery, {"All"}, ["All"])


class ServerAccess(Inspection):
    """What `fakesqs serve` changes of a fake beyond what Inspection reads: for its state file,
    the SQS calls that describe and re-create queues, the clock (a frozen one is restored to the
    moment saved) and the move tasks; for a reset, deleting the queues of the engine it is
    about to drop (their waiting long polls answer at once)."""

    def call(self, action: str, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
        """An SQS call made as the fake's own helper (no call record, no listener hears it)."""
        return self._core().service.call(action, params, ctx)

    def queue_url_in(self, ctx: RequestContext, queue: Queue) -> str:
        return self._core().service.queue_url(ctx, queue)

    @property
    def clock(self) -> Clock:
        return self._core().clock

    @property
    def move_tasks(self) -> MoveTaskRunner:
        return self._core().broker.move_tasks

    def last_modified_at(self, queue: Queue) -> float:
        return self._core().service.records[queue].last_modified_at

    def restore_last_modified_at(self, queue: Queue, moment: float) -> None:
        """The saved LastModifiedTimestamp, which re-creating the queue set to now."""
        self._core().service.records[queue].last_modified_at = moment

    def delete_queue(self, queue: Queue) -> None:
        self._core().broker.delete_queue(queue.key)
