"""`FakeSQS`: one engine and clock, served to botocore while active, with test helpers."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import warnings
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from ..api import RequestContext
from ..engine import Queue
from ..engine.errors import FakeSQSWarning
from ..engine.settings import QueueKey
from ..transport.serving import activate, deactivate
from .core import FakeCore, Inspection, ServerAccess
from .dead_letters import DeadLetterQuery, Matcher
from .declare import DirectoryCreator, declare_queues
from .fault_schedule import FaultSchedule
from .idle import (
    DEFAULT_MAX_STEPS,
    IdleReport,
    IdleRun,
    Step,
    handler_step,
    needs_an_event,
    watched_queues,
)
from .options import Options, make_options
from .queues_from import configured_queues
from .records import PRIVATE, Call, DeadLetter, HistoryEvent, RefusedDelivery
from .time_travel import advance_to_next_event
from .trigger import Handler, Shape, TriggerDriver, TriggerReport
from .views import QueueView

F = TypeVar("F", bound=Callable[..., Any])
_PRIVATE = object()


class FakeSQS:
    """The fake SQS of one test. Get it from the `fakesqs` fixture or `fake_sqs()`."""

    def __init__(self, options: Options, *, _token: object = None) -> None:
        if _token is not _PRIVATE:
            raise TypeError("use the `fakesqs` fixture or `fake_sqs()` to get a FakeSQS")
        self._core = FakeCore(options)  # swapped whole by renew()
        # Failure messages show whole bodies and timelines when pytest runs with -v.
        self.verbose = False
        self._active = False
        self._env_set: list[str] = []

    @property
    def options(self) -> Options:
        """The options this fake was made with (marker > ini > defaults)."""
        return self._core.options

    @property
    def started_at(self) -> float:
        """When the fake started, on its own clock (seconds since the epoch)."""
        return self._core.started_at

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self, *, in_process: bool = True) -> FakeSQS:
        """Declare the configured queues and, unless `in_process=False` (a fake served only over
        HTTP), serve this process's botocore clients."""
        if not self._active:
            self._core.clock.claim()  # frozen: this thread's long polls jump at once, others wait
            if in_process:
                activate(self._core.handler)
                self._provide_credentials()
            self._active = True
            try:
                self._declare_queues()
            except BaseException:
                self.stop()  # a declaration refused: botocore must not stay patched
                raise
        return self

    def stop(self) -> None:
        if self._active:
            deactivate(self._core.handler)
            self._active = False
            self._core.faults.finish()
            for name in self._env_set:
                os.environ.pop(name, None)
            self._env_set.clear()

    def renew(self, options: Options | None = None) -> None:
        """Forget every queue, message and call, as moto's reset does: a fresh engine and clock
        in this same object (with `options`, if given), serving again if it was."""
        serving = self._active
        self.stop()
        self._core = FakeCore(options or self.options)
        if serving:
            self.start()

    def _provide_credentials(self) -> None:
        # Code under test often relies on ambient credentials; botocore signs before it sends,
        # so without any it fails before the fake is reached. Real ones are never replaced.
        if "AWS_ACCESS_KEY_ID" in os.environ or "AWS_PROFILE" in os.environ:
            return
        for name, value in (
            ("AWS_ACCESS_KEY_ID", "fakesqs-testing"),
            ("AWS_SECRET_ACCESS_KEY", "fakesqs-testing"),
        ):
            if name not in os.environ:
                os.environ[name] = value
                self._env_set.append(name)

    def _declare_queues(self) -> None:
        directory = self._core.directory
        declare_queues(DirectoryCreator(directory), configured_queues(directory, self.options))

    # -- time ----------------------------------------------------------------------------------

    def now(self) -> datetime:
        return self._core.clock.now_datetime()

    def advance(self, amount: float | timedelta) -> datetime:
        """Move the clock forward by seconds or a timedelta; returns the new now()."""
        self._core.clock.advance(amount)
        return self.now()

    def advance_to_next_event(
        self, queue: str | None = None, *, include_expiry: bool = False
    ) -> list[HistoryEvent]:
        """Jump to the next moment a message becomes visible (visible again, delay over, a move
        task's move); with `include_expiry=True`, also to a moment messages only expire.

        With `queue`, the next moment that queue changes. Returns what changed, in every queue;
        `[]` (and the clock stays) when nothing is scheduled.
        """
        watched = None if queue is None else self._find(queue)
        return advance_to_next_event(self._core.broker, watched, include_expiry=include_expiry)

    def run_until_idle(
        self,
        step: Step | Handler,
        *,
        queues: str | Iterable[str] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> IdleReport:
        """Call `step()` (one poll of the consumer under test) until nothing is left to do.

        Drains first: `step()` runs while a watched queue has a message to receive. Then the
        clock jumps to the next moment one becomes receivable (a visibility timeout lapses, a
        delay ends, a move task moves one; never a retention expiry) and it drains again, until
        nothing in the watched queues is visible or scheduled. Watched are the queues `step()`
        receives from (or `queues`), so a dead-letter queue nobody consumes stays as it is.

        Raises (an AssertionError) when a message keeps coming back for `max_steps` steps, when
        one that `step()` received expires, and when `step()` receives nothing from a watched
        queue holding visible messages 100 times running. Returns what happened.

        A trigger-style `handler(event[, context])` in place of `step`, with `queues`, is
        invoked as `trigger(queue, handler, max_invocations=1)` would, once per step.
        """
        __tracebackhide__ = True
        directory = self._core.directory
        watched = watched_queues(directory, queues)
        if needs_an_event(step):  # a trigger-style handler: one invocation per step
            step = handler_step(directory, step, watched)
        return IdleRun(directory, step, queues=watched, max_steps=max_steps).run()

    # -- queues --------------------------------------------------------------------------------

    def context(self) -> RequestContext:
        return self._core.directory.context()

    def key(self, name: str) -> QueueKey:
        return self._core.directory.key(name)

    def create_queue(self, name: str, **attributes: Any) -> str:
        """Create a queue (attributes as in CreateQueue, values may be ints/bools); its URL."""
        return self._core.directory.create(name, **attributes)

    def _find(self, name_or_url: str) -> Queue:
        return self._core.directory.find(name_or_url)

    def queue(self, name_or_url: str) -> QueueView:
        """A read-only view of a queue, by name or URL."""
        return QueueView(self._core.directory, self._find(name_or_url), _token=PRIVATE)

    def queues(self) -> list[QueueView]:
        """A read-only view of every queue the fake holds (any region or account), by name."""
        directory = self._core.directory
        found = sorted(directory.broker.queues(), key=lambda queue: (queue.name, queue.key))
        return [QueueView(directory, queue, _token=PRIVATE) for queue in found]

    # -- fault injection -----------------------------------------------------------------------

    @property
    def uses_randomness(self) -> bool:
        """Whether any seeded misbehaviour (duplicates, shuffling, empty receives) is on."""
        return self._core.faults.uses_randomness

    @property
    def seed(self) -> int:
        """The seed of every random choice this fake makes; reuse it to reproduce a run."""
        return self._core.faults.seed

    def fail_next(
        self,
        action: str,
        code: str = "RequestThrottled",
        *,
        times: int = 1,
        queue: str | None = None,
    ) -> None:
        """Make the next `times` calls of `action` (on `queue`, if given) fail with AWS's `code`.

        The error goes out in its exact wire shape and status, so the client's own retry logic
        runs: botocore retries throttling and 5xx errors; on a frozen clock its back-off
        advances the fake's clock instead of sleeping.
        """
        self._core.faults.fail_next(action, code, times, queue)

    def duplicate_next(self, queue: str, times: int = 1) -> None:
        """Deliver the next `times` messages received from a standard `queue` once more later."""
        self._core.faults.duplicate_next(queue, times)

    def use_faults(self, schedule: FaultSchedule) -> None:
        """Start afresh with `schedule` deciding every fault: queues, messages, calls and the
        clock are forgotten (as `renew()` does) and the configured queues declared again, so
        each example of a Hypothesis test starts from the same state and replays exactly."""
        __tracebackhide__ = True
        self.renew(dataclasses.replace(self.options, faults=schedule))

    def fired_faults(self) -> list[str]:
        """The faults injected so far, in order, as short sentences ("duplicate of message 1
        (order-1), visible again at +0s"), whoever decided them: a schedule, the seeded
        options, fail_next or duplicate_next."""
        return self._core.faults.fired()

    # -- triggers ------------------------------------------------------------------------------

    def trigger(
        self,
        queue: str,
        handler: Handler,
        *,
        shape: Shape = "lambda",
        batch_size: int = 10,
        batch_window: float = 0,
        report_batch_item_failures: bool = False,
        max_invocations: int | None = None,
        idle_limit: float = 43_200.0,
    ) -> TriggerReport:
        """Drive `handler(event, context)` (or `handler(event)`) as Lambda's SQS event source
        (`shape="lambda"`) or a Cloud Functions YMQ trigger (`shape="ymq"`) does, on this
        fake's clock.

        Runs until the queue is drained, what is left stays invisible longer than `idle_limit`
        seconds, or `max_invocations` is reached; returns what happened.
        """
        return TriggerDriver(
            self._core.directory,
            self._find(queue),
            handler,
            shape=shape,
            batch_size=batch_size,
            batch_window=batch_window,
            report_batch_item_failures=report_batch_item_failures,
            max_invocations=max_invocations,
            idle_limit=idle_limit,
        ).run()

    def queue_url(self, queue: Queue) -> str:
        return self._core.directory.url(queue)

    def queue_name(self, name_or_url: str) -> str:
        return self._core.directory.name(name_or_url)

    # -- dead letters, histories, calls --------------------------------------------------------

    def dead_letters(self, queue: str | None = None) -> list[DeadLetter]:
        """Messages that reached a dead-letter queue (`queue`: the DLQ or its source)."""
        return self._core.dead_letters.dead_letters(queue)

    def assert_dead_lettered(
        self,
        queue: str | None = None,
        *,
        body: str | None = None,
        match: Matcher | None = None,
        count: int | None = None,
        info: str | None = None,
    ) -> list[DeadLetter]:
        """Assert messages were dead-lettered; returns them. `count=None`: at least one.

        `match` is a regex searched in the body, or a callable taking the `DeadLetter`.
        """
        __tracebackhide__ = True
        return self._core.dead_letters.assert_dead_lettered(
            DeadLetterQuery(queue, body, match, count, info, self.verbose)
        )

    def assert_no_dead_letters(self, queue: str | None = None) -> None:
        __tracebackhide__ = True
        self._core.dead_letters.assert_no_dead_letters(queue, self.verbose)

    def history(self, message_id: str) -> list[HistoryEvent]:
        """Everything that happened to one message, on the fake's clock, across queues."""
        return self._core.message_log.events(message_id)

    def calls(self, action: str | None = None) -> list[Call]:
        """The SQS calls the code under test made, oldest first (only `action`'s, if given)."""
        return self._core.calls.calls(action)

    def refused_deliveries(self) -> list[RefusedDelivery]:
        """SNS / S3 / EventBridge deliveries a queue's Policy refused (enforce_policies=True);
        each was dropped, as on AWS, and says which statement was missing or denied it."""
        return self._core.refused.refused()

    def teardown_warnings(self, configured: set[str] | None = None) -> list[str]:
        """The faults the test configured but never observed, one sentence each (issued as
        FakeSQSWarning at teardown). `configured`: the options the test itself set (None:
        every option; ini-wide faults are left out by the fixture)."""
        return self._core.faults.never_happened(configured)

    def teardown_problems(self) -> list[str]:
        """Texts for the checks the options turned on (assert_dlq_empty, ...) that fail."""
        problems = []
        if self.options.assert_dlq_empty:
            problems.append(self._core.dead_letters.unasserted_report(self.verbose))
        if self.options.assert_no_client_errors:
            problems.append(self._core.calls.swallowed_errors_report(self.started_at))
        return [p for p in problems if p is not None]

    def __repr__(self) -> str:
        return f"<FakeSQS clock={self.options.clock} now={self.now().isoformat()} queues={len(self._core.broker.queues())}>"


def new_fake(options: Options) -> FakeSQS:
    return FakeSQS(options, _token=_PRIVATE)


def inspection(fake: FakeSQS) -> Inspection:
    """What the report, the pictures and the server read of `fake` (see core.Inspection)."""
    return Inspection(lambda: fake._core)


def server_access(fake: FakeSQS) -> ServerAccess:
    """What `fakesqs serve` changes of `fake`: its state file, its reset (core.ServerAccess)."""
    return ServerAccess(lambda: fake._core)


def core_of(fake: FakeSQS) -> FakeCore:
    """The parts `fake` is made of now, for white-box tests; `renew` replaces them."""
    return fake._core


class fake_sqs(contextlib.ContextDecorator):
    """Activate a fake SQS outside pytest fixtures: `with fake_sqs(clock="system") as sqs:`.

    Also a decorator; the decorated function runs with the fake active.
    """

    def __init__(self, **options: Any) -> None:
        __tracebackhide__ = True  # a bad option is the caller's line, not this one
        self._options = make_options(**options)
        self._fakes: list[FakeSQS] = []

    def __enter__(self) -> FakeSQS:
        fake = new_fake(self._options).start()
        self._fakes.append(fake)
        return fake

    def __exit__(self, exc_type: object, *exc_info: object) -> None:
        __tracebackhide__ = True
        fake = self._fakes.pop()
        try:
            # The checks the options turned on, as the fixture's teardown runs them; never over
            # an exception already on its way out (it is the real failure).
            problems = fake.teardown_problems() if exc_type is None else []
            if problems:
                raise AssertionError("\n\n".join(problems))
            for text in fake.teardown_warnings() if exc_type is None else ():
                warnings.warn(FakeSQSWarning(text), stacklevel=2)
        finally:
            fake.stop()

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]
