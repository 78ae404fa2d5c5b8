"""Tier 1: injected misbehaviour in the engine, seeded and reproducible."""

from __future__ import annotations

import pytest

from pytest_fakesqs.engine import Broker, Clock, Event, FaultPlan, Outgoing, Queue, QueueSettings
from pytest_fakesqs.engine.faults import FaultDecider, FaultSeam, Fired


def make(plan: FaultDecider | FaultSeam, *, fifo: bool = False) -> tuple[Broker, Queue]:
    broker = Broker(Clock())
    broker.set_faults(plan if isinstance(plan, FaultSeam) else FaultSeam(plan))
    return broker, broker.create_queue(
        ("r", "1", "q.fifo" if fifo else "q"), QueueSettings(fifo=fifo)
    )


def fill(broker: Broker, queue: Queue, count: int, group: str | None = None) -> None:
    for index in range(count):
        broker.send(queue, Outgoing(body=f"m{index}", size=2, group_id=group))


def test_duplicate_delivery_hands_a_deleted_message_out_once_more() -> None:
    broker, queue = make(FaultPlan(seed=1, duplicate_delivery=1.0))
    fill(broker, queue, 1)
    first = broker.receive(queue)[0]
    broker.delete(queue, first.receipt_handle)
    again = broker.receive(queue)
    assert [(d.message.message_id, d.message.body) for d in again] == [
        (first.message.message_id, "m0")
    ]
    assert again[0].receive_count == 2
    assert again[0].receipt_handle != first.receipt_handle
    broker.delete(queue, again[0].receipt_handle)
    assert broker.receive(queue) == []  # once more, not forever
    assert Event.DUPLICATED in [event for _, event, _ in again[0].message.timeline()]


def test_duplicates_are_never_returned_in_the_same_receive() -> None:
    broker, queue = make(FaultPlan(seed=1, duplicate_delivery=1.0))
    fill(broker, queue, 3)
    got = broker.receive(queue, 10)
    assert sorted(d.message.body for d in got) == ["m0", "m1", "m2"]
    assert sorted(d.message.body for d in broker.receive(queue, 10)) == ["m0", "m1", "m2"]


def test_forced_duplicates_count_down() -> None:
    seam = FaultSeam(FaultPlan(seed=1))
    broker, queue = make(seam)
    seam.force_duplicates(queue.key, 1, "duplicate_next('q')")
    fill(broker, queue, 2)
    broker.receive(queue, 2)
    assert queue.visible == 1  # one copy for the first delivery only
    assert seam.forced_duplicates == {}
    assert [(fired.kind, fired.source) for fired in seam.fired] == [
        ("duplicate_delivery", "duplicate_next('q')")
    ]


def test_shuffled_order_is_seeded() -> None:
    def order(seed: int) -> list[str]:
        broker, queue = make(FaultPlan(seed=seed, standard_order="shuffled"))
        fill(broker, queue, 30)
        bodies: list[str] = []
        while got := broker.receive(queue, 10):
            bodies += [d.message.body for d in got]
        return bodies

    assert order(7) == order(7)
    assert order(7) != order(8)
    assert sorted(order(7)) == sorted(f"m{i}" for i in range(30))
    assert order(7) != [f"m{i}" for i in range(30)]


def test_fifo_queues_are_never_shuffled() -> None:
    broker, queue = make(FaultPlan(seed=3, standard_order="shuffled"), fifo=True)
    fill(broker, queue, 5, group="g")
    assert [d.message.body for d in broker.receive(queue, 10)] == [f"m{i}" for i in range(5)]


def test_empty_receives_affect_short_polls_only() -> None:
    notes: list[Fired] = []
    seam = FaultSeam(FaultPlan(seed=1, empty_receives=1.0))
    seam.listeners.append(notes.append)
    broker, queue = make(seam)
    assert broker.receive(queue) == []  # an empty queue: nothing was held back
    fill(broker, queue, 1)
    assert broker.receive(queue) == []
    assert [(fired.kind, fired.source) for fired in notes] == [
        ("empty_receives", "empty_receives=1.0")
    ]
    assert len(broker.receive(queue, wait_seconds=1)) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"duplicate_delivery": 1.5}, "duplicate_delivery must be a probability between 0 and 1"),
        ({"empty_receives": -0.1}, "empty_receives must be a probability between 0 and 1"),
        (
            {"standard_order": "random"},
            "standard_order must be one of fifo, shuffled; got 'random'",
        ),
    ],
)
def test_bad_plans_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FaultPlan(seed=1, **kwargs)  # type: ignore[arg-type]
