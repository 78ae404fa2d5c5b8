"""Tier 1: message move tasks on the engine alone: the rate is kept on the virtual clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.engine import (
    DEFAULT_RATE,
    Broker,
    Clock,
    Event,
    MoveFailure,
    MoveStatus,
    Outgoing,
    Queue,
    QueueSettings,
    RedriveTarget,
    State,
    TaskAlreadyRunning,
    TaskNotRunning,
)
from pytest_fakesqs.engine.move_tasks import CANCEL_TAKES, DELETION_NOTICED_AFTER


def dead_letter_pipe(count: int, *, fifo: bool = False) -> tuple[Broker, Queue, Queue, Queue]:
    """source -> dlq (holding `count` dead letters) and an empty destination."""
    broker = Broker(Clock())
    dlq = broker.create_queue(("r", "1", "dlq"), QueueSettings(fifo=fifo))
    source = broker.create_queue(
        ("r", "1", "src"),
        QueueSettings(fifo=fifo, visibility_timeout=0, redrive=RedriveTarget(dlq.key, 1)),
    )
    destination = broker.create_queue(("r", "1", "dest"), QueueSettings(fifo=fifo))
    for index in range(count):
        body = f"m{index}"
        broker.send(
            source,
            Outgoing(body=body, size=len(body), group_id="g" if fifo else None),
        )
    for _ in range(2 * count):
        broker.receive(source, visibility_timeout=0)
    assert broker.refresh(dlq).visible == count
    return broker, source, dlq, destination


def bodies(broker: Broker, queue: Queue) -> list[str]:
    return [m.body for m in broker.states(queue)[State.VISIBLE]]


def test_rate_is_kept_on_the_clock() -> None:
    broker, _, dlq, destination = dead_letter_pipe(4)
    task = broker.move_tasks.start(dlq, destination.key, rate=1)
    # The first message moves at once, then one per second of virtual time.
    assert (task.moved, task.status) == (1, MoveStatus.RUNNING)
    broker.clock.advance(0.999)
    assert broker.refresh(destination).visible == 1
    broker.clock.advance(0.001)
    assert broker.refresh(destination).visible == 2
    broker.clock.advance(10)
    assert bodies(broker, destination) == ["m0", "m1", "m2", "m3"]
    assert (task.moved, task.to_move, task.status) == (4, 4, MoveStatus.COMPLETED)
    assert task.ended_at == task.started_at + 3  # the last move, not the moment we looked
    assert broker.refresh(dlq).visible == 0


def test_without_a_rate_the_default_rate_applies() -> None:
    broker, _, dlq, destination = dead_letter_pipe(3)
    task = broker.move_tasks.start(dlq, destination.key, rate=None)
    assert task.rate == DEFAULT_RATE
    assert task.moved == 1
    broker.clock.advance(2 / DEFAULT_RATE)
    broker.refresh(destination)
    assert task.status is MoveStatus.COMPLETED


def test_default_destination_is_each_messages_origin() -> None:
    broker, source, dlq, _ = dead_letter_pipe(2)
    task = broker.move_tasks.start(dlq, None, rate=None)
    broker.clock.advance(1)
    assert bodies(broker, source) == ["m0", "m1"]
    assert task.status is MoveStatus.COMPLETED
    message = broker.states(source)[State.VISIBLE][0]
    # A redriven message starts afresh: no receives, no dead-letter source.
    assert message.receive_count == 0
    assert "dead_letter_source" not in (message.system or {})
    assert [event for _, event, _ in message.timeline()][-2:] == [
        Event.MOVED_BACK,
        Event.ARRIVED_FROM,
    ]


def test_a_message_sent_straight_to_the_dead_letter_queue_has_no_origin_to_go_back_to() -> None:
    # Without a DestinationArn the task stops at it (a guess: AWS documents no such case) and
    # nothing is lost: it and every message behind it stay in the dead-letter queue.
    broker, source, dlq, _ = dead_letter_pipe(1)
    broker.send(dlq, Outgoing(body="sent here", size=9))
    task = broker.move_tasks.start(dlq, None, rate=1)
    assert bodies(broker, source) == ["m0"]
    broker.clock.advance(5)
    broker.refresh(dlq)
    assert (task.moved, task.status, task.failure) == (
        1,
        MoveStatus.FAILED,
        MoveFailure.QUEUE_MISSING,
    )
    assert bodies(broker, dlq) == ["sent here"]


def test_one_active_task_per_source() -> None:
    broker, _, dlq, destination = dead_letter_pipe(3)
    broker.move_tasks.start(dlq, destination.key, rate=1)
    with pytest.raises(TaskAlreadyRunning):
        broker.move_tasks.start(dlq, destination.key, rate=1)
    broker.clock.advance(5)
    second = broker.move_tasks.start(dlq, destination.key, rate=1)  # the first has completed
    assert second.status is MoveStatus.COMPLETED  # nothing was left to move
    assert broker.move_tasks.for_source(dlq.key)[0] is second


def test_a_cancelled_task_goes_on_moving_for_a_while_then_reads_cancelled() -> None:
    broker, _, dlq, destination = dead_letter_pipe(10)
    task = broker.move_tasks.start(dlq, destination.key, rate=1)
    broker.clock.advance(1)
    broker.move_tasks.cancel(task.task_id)
    assert (task.status, task.moved) == (MoveStatus.CANCELLING, 2)
    with pytest.raises(TaskNotRunning):
        broker.move_tasks.cancel(task.task_id)
    broker.clock.advance(CANCEL_TAKES - 1)
    broker.refresh(dlq)
    assert (task.status, task.moved) == (MoveStatus.CANCELLING, 7)
    broker.clock.advance(1)
    broker.refresh(dlq)
    assert (task.status, task.moved) == (MoveStatus.CANCELLED, 8)
    broker.clock.advance(10)
    assert broker.refresh(dlq).visible == 2  # moved messages are not reverted, the rest stay
    assert broker.refresh(destination).visible == 8


def test_a_task_that_runs_out_while_cancelling_completes() -> None:
    broker, _, dlq, destination = dead_letter_pipe(3)
    task = broker.move_tasks.start(dlq, destination.key, rate=1)
    broker.move_tasks.cancel(task.task_id)
    broker.clock.advance(CANCEL_TAKES)
    broker.refresh(dlq)
    assert (task.status, task.moved) == (MoveStatus.COMPLETED, 3)


def test_a_destination_deleted_mid_task_takes_moves_until_noticed_then_fails_it() -> None:
    broker, _, dlq, destination = dead_letter_pipe(10)
    task = broker.move_tasks.start(dlq, destination.key, rate=1)
    broker.clock.advance(2)
    broker.delete_queue(destination.key)  # 3 moved by now
    broker.clock.advance(DELETION_NOTICED_AFTER - 1)
    broker.refresh(dlq)
    assert (task.status, task.moved) == (MoveStatus.RUNNING, 5)  # lost with the queue
    broker.clock.advance(5)
    broker.refresh(dlq)
    assert (task.status, task.failure, task.moved) == (
        MoveStatus.FAILED,
        MoveFailure.QUEUE_MISSING,
        5,
    )
    assert broker.refresh(dlq).visible == 5


def test_long_poll_on_the_destination_wakes_at_the_next_move() -> None:
    broker, _, dlq, destination = dead_letter_pipe(2)
    broker.move_tasks.start(dlq, destination.key, rate=1)
    assert [d.message.body for d in broker.receive(destination)] == ["m0"]
    started = broker.clock.now()
    deliveries = broker.receive(destination, wait_seconds=20)
    assert [d.message.body for d in deliveries] == ["m1"]
    assert broker.clock.now() == started + 1  # not the poll's 20 s deadline


def test_fifo_dead_letters_move_in_group_order() -> None:
    broker, _, dlq, destination = dead_letter_pipe(3, fifo=True)
    broker.move_tasks.start(dlq, destination.key, rate=None)
    broker.clock.advance(1)
    assert bodies(broker, destination) == ["m0", "m1", "m2"]


def test_cost_per_move_does_not_grow_with_the_backlog() -> None:
    def work_for(depth: int) -> int:
        broker, _, dlq, destination = dead_letter_pipe(depth)
        broker.move_tasks.start(dlq, destination.key, rate=1)
        before = dlq.work
        broker.clock.advance(9)
        broker.refresh(dlq)
        return dlq.work - before

    assert work_for(20) == work_for(200) > 0


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=0, max_value=12),
    rate=st.one_of(st.none(), st.integers(min_value=1, max_value=500)),
    # Steps in 1/64 s are exact at epoch magnitudes, so the check below has no rounding to argue.
    steps=st.lists(st.integers(min_value=0, max_value=192).map(lambda n: n / 64), max_size=12),
)
def test_moves_follow_the_rate_whatever_the_steps(
    count: int, rate: int | None, steps: list[float]
) -> None:
    """Property: after any sequence of clock steps, exactly the moves due by now have happened
    (message k at start + k / rate), nothing is lost or duplicated, and status follows."""
    broker, _, dlq, destination = dead_letter_pipe(count)
    task = broker.move_tasks.start(dlq, destination.key, rate=rate)
    for step in steps:
        broker.clock.advance(step)
        broker.refresh(dlq)
        elapsed = broker.clock.now() - task.started_at
        due = min(count, int(elapsed * task.rate) + 1)
        assert task.moved == due
        assert broker.refresh(destination).visible == due
        assert broker.refresh(dlq).visible == count - due
        expected = MoveStatus.COMPLETED if due == count else MoveStatus.RUNNING
        assert task.status is expected
