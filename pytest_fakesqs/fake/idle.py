"""`fakesqs.run_until_idle(step)`: the poll-and-jump loop done right, so no test writes it.

It drains before it jumps (a step while a watched queue has a message to receive), jumps only to
moments a message becomes receivable (never to a retention expiry), and stops when nothing in
the watched queues is visible or scheduled. Watched queues are the ones `step()` receives from,
so the dead-letter queue the failures went to neither keeps it running nor counts as left
untouched. A consumer that never settles ends it with an error that names the message.
"""

from __future__ import annotations

import inspect
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ..engine import Broker, Delivery, Event, Message, Queue
from .text import abridge, plural
from .trigger import Handler, TriggerDriver

if TYPE_CHECKING:
    from .directory import QueueDirectory

Step = Callable[[], Any]
DEFAULT_MAX_STEPS = 10_000
# Steps in a row that leave a watched queue's receivable messages alone before that is an error.
UNTOUCHED_LIMIT = 100


class NeverIdle(AssertionError, RuntimeError):
    """`run_until_idle` could not reach idle: a message keeps coming back, or `step()` leaves a
    watched queue's messages alone. An assertion about the code under test (as the fake's
    `assert_*` helpers raise) and a loop that could not finish (for code catching that)."""


@dataclass(frozen=True, kw_only=True)
class IdleReport:
    """What `fakesqs.run_until_idle(step)` did, counted over every queue while it ran."""

    steps: int  # calls of step()
    elapsed: float  # virtual seconds, the run's own jumps and the step's long polls alike
    received: int  # deliveries, redeliveries included
    deleted: int
    dead_lettered: int  # moved to a dead-letter queue by a redrive policy
    queues: tuple[str, ...] = field(default=())  # the queues it watched

    def __str__(self) -> str:
        return (
            f"{plural(self.steps, 'step')} over {self.elapsed:g} virtual seconds: "
            f"{self.received} received, {self.deleted} deleted, "
            f"{self.dead_lettered} dead-lettered (watching {', '.join(self.queues) or 'nothing'})"
        )


class IdleRun:
    """One `run_until_idle`. Use `FakeSQS.run_until_idle`, which builds and runs it."""

    def __init__(
        self,
        directory: QueueDirectory,
        step: Step,
        *,
        queues: list[Queue] | None,
        max_steps: int,
    ) -> None:
        if not callable(step):
            raise TypeError(f"step must be a callable taking no arguments; got {step!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer; got {max_steps!r}")
        self.directory = directory
        self.broker = directory.broker
        self.step = step
        self.max_steps = max_steps
        self.explicit = queues is not None
        self.watched: list[Queue] = list(queues or [])
        self.steps = 0
        self._lock = threading.Lock()  # listeners run in whichever thread received or deleted
        self._stepping = False
        self._received = 0
        self._deleted = 0
        self._dead_lettered = 0
        self._touched: set[str] = set()  # uids of the queues this step received or moved from
        self._untouched: Counter[str] = Counter()  # uid -> steps in a row that left it alone
        self._deliveries: Counter[tuple[str, str]] = Counter()  # (queue uid, message key)
        self._delivered: dict[tuple[str, str], tuple[Queue, Message]] = {}
        self._started = directory.clock.now()  # built right before it runs
        self._expired: list[tuple[Queue, Message]] = []  # received in this run, then expired

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> IdleReport:
        __tracebackhide__ = True  # a failure is the test's: point at its run_until_idle line
        broker, clock = self.broker, self.directory.clock
        broker.received_listeners.append(self._heard_receive)
        broker.deleted_listeners.append(self._heard_delete)
        broker.dead_letter_listeners.append(self._heard_dead_letter)
        broker.removed_listeners.append(self._heard_removal)
        try:
            ready = self._receivable(self.watched)
            while True:
                self._run_step(ready)
                ready = self._receivable(self.watched)
                self._check_expiries()
                if not ready and self._next_receivable_at() is None:
                    return self._report(clock.now() - self._started)
                if self.steps >= self.max_steps:  # before the clock moves on: as step() left it
                    raise NeverIdle(self._still_busy_text())
                # Nothing to receive: jump to the next moment a message becomes receivable.
                while not ready:
                    target = self._next_receivable_at()
                    if target is None:
                        return self._report(clock.now() - self._started)
                    clock.advance_to(max(target, clock.now()))
                    ready = self._receivable(self.watched)  # applies what fell due, expiries too
                    self._check_expiries()
        finally:
            broker.received_listeners.remove(self._heard_receive)
            broker.deleted_listeners.remove(self._heard_delete)
            broker.dead_letter_listeners.remove(self._heard_dead_letter)
            broker.removed_listeners.remove(self._heard_removal)

    def _run_step(self, ready: list[Queue]) -> None:
        __tracebackhide__ = True
        with self._lock:
            self._touched.clear()
            self._stepping = True
        try:
            outcome = self.step()
        finally:
            with self._lock:
                self._stepping = False
        if inspect.isawaitable(outcome):
            if inspect.iscoroutine(outcome):
                outcome.close()  # never awaited: say so here, not in a RuntimeWarning later
            raise TypeError(
                "run_until_idle: step() returned an awaitable, which nothing here awaits; pass "
                "a plain function (for an async consumer, one that runs a poll to completion)"
            )
        self.steps += 1
        if not self.watched:
            raise NeverIdle(
                "run_until_idle: step() received from no queue of this fake, so there is "
                "nothing to watch; pass queues=[...] to name the queues step() consumes"
            )
        self._check_untouched(ready)

    def _report(self, elapsed: float) -> IdleReport:
        with self._lock:
            return IdleReport(
                steps=self.steps,
                elapsed=elapsed,
                received=self._received,
                deleted=self._deleted,
                dead_lettered=self._dead_lettered,
                queues=tuple(queue.name for queue in self.watched),
            )

    # -- what the queues say -------------------------------------------------------------------

    def _receivable(self, queues: list[Queue]) -> list[Queue]:
        return receivable(self.broker, queues)

    def _next_receivable_at(self) -> float | None:
        """The next visibility lapse, delay end or move-task move into a watched queue."""
        moments = [self.broker.next_visible_at(queue) for queue in list(self.watched)]
        return min((m for m in moments if m is not None), default=None)

    # -- listeners -----------------------------------------------------------------------------

    def _heard_receive(self, queue: Queue, deliveries: list[Delivery]) -> None:
        with self._lock:
            self._received += len(deliveries)
            for delivery in deliveries:
                key = (queue.uid, delivery.message.key)
                self._deliveries[key] += 1
                self._delivered[key] = (queue, delivery.message)
            if not self._stepping:
                return
            if deliveries:
                self._touched.add(queue.uid)
            if not self.explicit and all(queue is not known for known in self.watched):
                self.watched.append(queue)  # seen in step()'s calls: watched from now on

    def _heard_delete(self, messages: list[Message]) -> None:
        with self._lock:
            self._deleted += len(messages)

    def _heard_dead_letter(self, source: Queue, _target: Queue, _message: Message) -> None:
        with self._lock:
            self._dead_lettered += 1
            if self._stepping:
                self._touched.add(source.uid)

    def _heard_removal(self, messages: list[Message]) -> None:
        # Told under the queue's lock as an expiry happens: only note it here.
        with self._lock:
            uids = {queue.name: queue.uid for queue in self.watched}
            for message in messages:
                found = self._delivered.get((uids.get(message.queue_name, ""), message.key))
                if (
                    found is not None
                    and found[1] is message
                    and message.timeline()[-1][1] is Event.EXPIRED
                ):
                    self._expired.append(found)

    # -- errors --------------------------------------------------------------------------------

    def _check_untouched(self, ready: list[Queue]) -> None:
        __tracebackhide__ = True
        with self._lock:
            touched = set(self._touched)
        for queue in self.watched:
            if queue in ready and queue.uid not in touched:
                self._untouched[queue.uid] += 1
            else:
                self._untouched[queue.uid] = 0
            if self._untouched[queue.uid] >= UNTOUCHED_LIMIT:
                raise NeverIdle(self._untouched_text(queue))

    def _check_expiries(self) -> None:
        __tracebackhide__ = True
        with self._lock:
            expired = self._expired[:1]
        if expired:
            queue, message = expired[0]
            received = self._deliveries[(queue.uid, message.key)]
            raise NeverIdle(
                f"run_until_idle: message {message.message_id} expired in {queue.name} "
                f"(its {_duration(queue.settings.retention)} retention period ended) after "
                f"step() received it {plural(received, 'time')} without deleting it, "
                f"body {abridge(message.body, verbose=False)}\n" + self._cure(queue)
            )

    def _still_busy_text(self) -> str:
        lines = [
            f"run_until_idle: not idle after max_steps={self.max_steps} steps "
            f"({_duration(self.directory.clock.now() - self._started)} on the virtual "
            "clock)"
        ]
        with self._lock:
            busiest = self._deliveries.most_common(1)
        if not busiest or busiest[0][1] < 2:
            lines.append(
                "no message came back more than once: step() keeps finding new messages "
                f"({self._received} received so far); run_until_idle ends when the watched "
                f"queues ({', '.join(q.name for q in self.watched)}) have nothing left to receive"
            )
            return "\n".join(lines)
        queue, message = self._delivered[busiest[0][0]]
        lines.append(
            f"the message that keeps coming back: {message.message_id} in {queue.name}, "
            f"received {busiest[0][1]} times by step() and never deleted, "
            f"body {abridge(message.body, verbose=False)}"
        )
        lines.append(self._cure(queue))
        return "\n".join(lines)

    def _cure(self, queue: Queue) -> str:
        redrive = queue.settings.redrive
        if redrive is None:
            declared = json.dumps(
                {
                    queue.name: {"dlq": f"{queue.name}-dlq", "max_receive_count": 5},
                    f"{queue.name}-dlq": {},
                }
            )
            return (
                f"{queue.name} has no redrive policy, so nothing takes the message away: give it "
                f"one (e.g. @pytest.mark.fakesqs(queues={declared})), or make step() delete "
                "what it handled"
            )
        return (
            f"{queue.name}'s redrive policy moves a message to {redrive.dead_letter_queue[2]} "
            f"only after {plural(redrive.max_receive_count, 'receive')}: lower maxReceiveCount "
            "or raise max_steps"
        )

    def _untouched_text(self, queue: Queue) -> str:
        how = "named in queues=" if self.explicit else "seen in step()'s receives"
        return (
            f"run_until_idle: step() received nothing from {queue.name} {UNTOUCHED_LIMIT} times "
            f"running while it held visible messages ({queue.visible} now); {queue.name} is "
            f"watched ({how}), so run_until_idle keeps calling step() until it is drained. "
            "Make step() receive from it, or pass queues=[...] naming only the queues step() "
            "consumes"
        )


def needs_an_event(step: Step) -> bool:
    """Whether `step` requires an argument: then it is a trigger-style handler (`handler(event)`
    or `handler(event, context)`), not a step of no arguments."""
    try:
        parameters = inspect.signature(step).parameters.values()
    except (TypeError, ValueError):  # some builtins and C callables have no signature
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in positional and p.default is p.empty for p in parameters)


def handler_step(directory: QueueDirectory, handler: Handler, queues: list[Queue] | None) -> Step:
    """A step that invokes `handler` once, as `fakesqs.trigger(queue, handler,
    max_invocations=1)` does with its defaults, for each of `queues` with a message to take."""
    if queues is None:
        raise TypeError(
            "run_until_idle: step takes an argument, so it is a handler (event[, context]); "
            "pass queues=[...] naming the queue that feeds it (or a step of no arguments)"
        )

    def invoke_once() -> None:
        for queue in receivable(directory.broker, queues):
            TriggerDriver(
                directory,
                queue,
                handler,
                shape="lambda",  # the trigger's own default, whatever the flavor
                batch_size=10,
                batch_window=0,
                report_batch_item_failures=False,
                max_invocations=1,
                idle_limit=0,
            ).run()

    return invoke_once


def receivable(broker: Broker, queues: list[Queue]) -> list[Queue]:
    """The queues a receive would take a message from now (a FIFO group blocked behind an
    in-flight message does not count: its visible messages cannot be received)."""
    ready = []
    for queue in list(queues):  # a step's thread may add one meanwhile
        broker.refresh(queue)
        with queue.lock:
            if queue.peek_visible() is not None:
                ready.append(queue)
    return ready


def watched_queues(
    directory: QueueDirectory, queues: str | Iterable[str] | None
) -> list[Queue] | None:
    if queues is None:
        return None
    names = [queues] if isinstance(queues, str) else list(queues)
    if not names:
        raise ValueError("queues must name at least one queue (or be None: the ones step() uses)")
    found: list[Queue] = []
    for name in names:
        queue = directory.find(name)
        if queue not in found:
            found.append(queue)
    return found


def _duration(seconds: float) -> str:
    """`90s`, `0:25:00`, `4 days`, `1 day, 2:03:04`: virtual time, readable at any size."""
    if seconds < 60:
        return f"{seconds:g}s"
    return str(timedelta(seconds=round(seconds))).removesuffix(", 0:00:00")
