"""Message move tasks (dead-letter redrive) at a rate on the clock: lazily, with no thread.

Message k of a task (k = 0, 1, ...) moves at `started_at + k / rate`. Every broker operation
first catches the tasks up to now, so the state a test observes always matches the clock.

A task notices late, as AWS's does (LocalStack's AWS-validated test_move_task_cancel and
test_move_task_delete_destination_queue_while_running, recorded at one message per second): a
cancelled task reads CANCELLING and goes on moving for CANCEL_TAKES seconds (2 moved when
cancelled, 8 once CANCELLED), and a destination deleted less than DELETION_NOTICED_AFTER
seconds before a move still takes it, and loses it with the queue (deleted right after the
start: 3 moved, then FAILED). Both durations are guesses fitted to those two recordings.
"""

from __future__ import annotations

import enum
import threading
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .errors import EngineError
from .message import Event, Message
from .settings import QueueKey

if TYPE_CHECKING:
    from .clock import Clock
    from .queue import Queue


class MovingBroker(Protocol):
    """What a move task uses of its broker (engine.broker.Broker, which owns the runner)."""

    clock: Clock

    def find(self, key: QueueKey) -> Queue | None: ...

    def refresh(self, queue: Queue) -> Queue: ...

    def deleted_at(self, key: QueueKey) -> float | None: ...

    def notify_removed(self, messages: list[Message]) -> None: ...

    def transfer(
        self,
        source: Queue,
        target: Queue,
        message: Message,
        *,
        keep_enqueue_time: bool,
        event: Event = ...,
        dead_letter: bool = ...,
    ) -> Message: ...


# AWS picks a rate itself when none is given ("the system will optimize the rate"); the fake
# moves at the documented maximum, still on the clock, so tests advance time to see progress.
DEFAULT_RATE = 500
CANCEL_TAKES = 6.0  # seconds a cancelled task goes on moving (a guess: see the docstring)
DELETION_NOTICED_AFTER = 3.0  # seconds a deleted destination still takes moves (a guess)


class MoveStatus(enum.Enum):
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    CANCELLING = "CANCELLING"
    CANCELLED = "CANCELLED"
    FAILED = "FAILED"


class MoveFailure(enum.Enum):
    """Why a task failed; the api layer turns it into AWS's FailureReason."""

    QUEUE_MISSING = "queue missing"  # the source, destination or a message's origin is gone


class TaskAlreadyRunning(EngineError):
    def __init__(self, source: QueueKey) -> None:
        super().__init__(f"a move task is already active for {source[2]!r}")
        self.source = source


class TaskNotRunning(EngineError):
    def __init__(self, task_id: str) -> None:
        super().__init__(f"move task {task_id!r} is not running")
        self.task_id = task_id


@dataclass(eq=False)
class MoveTask:
    task_id: str
    source: QueueKey
    destination: QueueKey | None  # None: each message back to the queue it was dead-lettered from
    requested_rate: int | None  # MaxNumberOfMessagesPerSecond as given
    started_at: float
    to_move: int
    moved: int = 0
    status: MoveStatus = MoveStatus.RUNNING
    failure: MoveFailure | None = None
    cancel_requested_at: float | None = None
    ended_at: float | None = None

    @property
    def rate(self) -> int:
        return self.requested_rate or DEFAULT_RATE

    @property
    def active(self) -> bool:
        return self.status in (MoveStatus.RUNNING, MoveStatus.CANCELLING)

    @property
    def stops_at(self) -> float | None:
        """When a cancelled task stops moving and reads CANCELLED."""
        if self.cancel_requested_at is None:
            return None
        return self.cancel_requested_at + CANCEL_TAKES

    def next_move_at(self) -> float | None:
        if not self.active:
            return None
        moment = self.started_at + self.moved / self.rate
        stops_at = self.stops_at
        if stops_at is not None and moment > stops_at:
            return None
        return moment


class MoveTaskRunner:
    """All move tasks of one broker. Tasks are kept after they end, for ListMessageMoveTasks."""

    def __init__(self, broker: MovingBroker) -> None:
        self._broker = broker
        self._lock = threading.RLock()
        self._tasks: dict[str, MoveTask] = {}
        self.unfinished: list[MoveTask] = []  # not yet completed, failed or cancelled
        # Every move, in order: (the message as it arrived, source name, destination name).
        self.journal: list[tuple[Message, str, str]] = []

    def start(self, source: Queue, destination: QueueKey | None, rate: int | None) -> MoveTask:
        with self._lock:
            now = self._broker.clock.now()
            self.catch_up(now)
            if any(task.active and task.source == source.key for task in self.unfinished):
                raise TaskAlreadyRunning(source.key)
            to_move = self._broker.refresh(source).visible
            task = MoveTask(str(uuid.uuid4()), source.key, destination, rate, now, to_move)
            self._tasks[task.task_id] = task
            self.unfinished.append(task)
            self._run(task, now)
            return task

    def running(self) -> list[MoveTask]:
        """The tasks still moving messages (after catching up with the clock)."""
        with self._lock:
            self.catch_up(self._broker.clock.now())
            return [task for task in self.unfinished if task.status is MoveStatus.RUNNING]

    def adopt(self, task: MoveTask) -> None:
        """Run on a task begun elsewhere (a saved state restored): it moves from where it was."""
        with self._lock:
            self._tasks[task.task_id] = task
            self.unfinished.append(task)

    def cancel(self, task_id: str) -> MoveTask:
        """The task reads CANCELLING, goes on moving for CANCEL_TAKES seconds, then stops and
        reads CANCELLED."""
        with self._lock:
            now = self._broker.clock.now()
            self.catch_up(now)
            task = self._tasks[task_id]
            if task.status is not MoveStatus.RUNNING:
                raise TaskNotRunning(task_id)
            task.status = MoveStatus.CANCELLING
            task.cancel_requested_at = now
            return task

    def get(self, task_id: str) -> MoveTask | None:
        return self._tasks.get(task_id)

    def for_source(self, source: QueueKey) -> list[MoveTask]:
        """The source's tasks, most recently started first."""
        with self._lock:
            self.catch_up(self._broker.clock.now())
            tasks = [task for task in self._tasks.values() if task.source == source]
        return sorted(tasks, key=lambda task: task.started_at, reverse=True)

    def next_move_at(self, into: QueueKey | None = None) -> float | None:
        """The next due move (into `into`, or a task whose messages go back to their origins)."""
        if not self.unfinished:  # the usual case: no lock needed to know there is none
            return None
        with self._lock:
            moments = [
                moment
                for task in self.unfinished
                if into is None or task.destination in (None, into)
                if (moment := task.next_move_at()) is not None
            ]
        return min(moments) if moments else None

    def next_move_touching(self, keys: set[QueueKey]) -> float | None:
        """The next due move out of or into any of `keys` (origin-bound tasks may go anywhere)."""
        with self._lock:
            moments = [
                moment
                for task in self.unfinished
                if task.source in keys or task.destination is None or task.destination in keys
                if (moment := task.next_move_at()) is not None
            ]
        return min(moments) if moments else None

    def catch_up(self, now: float) -> None:
        """Apply every move due by `now`. Callers hold no queue lock."""
        if not self.unfinished:
            return
        with self._lock:
            for task in list(self.unfinished):
                self._run(task, now)
                if not task.active:
                    self.unfinished.remove(task)

    # -- one task ------------------------------------------------------------------------------

    def _run(self, task: MoveTask, now: float) -> None:
        if task.moved >= task.to_move and task.status is MoveStatus.RUNNING:
            self._end(task, MoveStatus.COMPLETED, now)
        while task.active:
            moment = task.next_move_at()
            if moment is None or moment > now:
                break
            self._move_one(task, moment)
        stops_at = task.stops_at
        if task.status is MoveStatus.CANCELLING and stops_at is not None and now >= stops_at:
            self._end(task, MoveStatus.CANCELLED, stops_at)

    def _move_one(self, task: MoveTask, moment: float) -> None:
        broker = self._broker
        source = broker.find(task.source)
        if source is None:
            self._fail(task, moment)
            return
        with source.lock:
            source.apply_due(broker.clock.now())
            message = source.peek_visible()
            if message is None:  # nothing left to move (the rest is in flight or gone)
                self._end(task, MoveStatus.COMPLETED, moment)
                return
            # A message sent to the dead-letter queue itself has no origin: the task fails at
            # it and leaves it where it is (a guess: AWS documents no such case).
            target_key = task.destination or _origin(message)
            target = None if target_key is None else broker.find(target_key)
            if target_key is None or (
                target is None and not _deleted_lately(broker, target_key, moment)
            ):
                self._fail(task, moment)
                return
            # A destination deleted lately takes the message, which goes with the queue.
            source.take_out(message, Event.MOVED_BACK, broker.clock.now(), target_key[2])
        if target is None:
            broker.notify_removed([message])
            self._count_move(task, moment)
            return
        arrived = broker.transfer(
            source,
            target,
            message,
            keep_enqueue_time=False,
            dead_letter=False,
        )
        self.journal.append((arrived, source.name, target.name))
        self._count_move(task, moment)

    def _count_move(self, task: MoveTask, moment: float) -> None:
        task.moved += 1
        if task.moved >= task.to_move:
            self._end(task, MoveStatus.COMPLETED, moment)

    def _fail(self, task: MoveTask, moment: float) -> None:
        task.failure = MoveFailure.QUEUE_MISSING
        self._end(task, MoveStatus.FAILED, moment)

    def _end(self, task: MoveTask, status: MoveStatus, moment: float) -> None:
        task.status = status
        task.ended_at = moment


def _deleted_lately(broker: MovingBroker, key: QueueKey, moment: float) -> bool:
    """Was the queue deleted too lately for a move at `moment` to notice?"""
    deleted_at = broker.deleted_at(key)
    return deleted_at is not None and moment - deleted_at < DELETION_NOTICED_AFTER


def _origin(message: Message) -> QueueKey | None:
    origin: QueueKey | None = (message.system or {}).get("dead_letter_source")
    return origin
