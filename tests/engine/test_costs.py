"""Per-operation cost must not grow with queue depth: counted in entries touched, not timed."""

from __future__ import annotations

import threading

from pytest_fakesqs.engine import Broker, Clock, Outgoing, Queue, QueueSettings
from pytest_fakesqs.engine.storage import COMPACT_MIN_DEAD


def deep_queue(depth: int) -> tuple[Broker, Queue]:
    broker = Broker(Clock())
    queue = broker.create_queue(("r", "1", "deep"), QueueSettings())
    outgoing = Outgoing(body="x" * 100, size=100)
    for _ in range(depth):
        broker.send(queue, outgoing)
    return broker, queue


def test_receiving_ten_from_a_hundred_thousand_does_not_visit_the_queue() -> None:
    broker, queue = deep_queue(100_000)
    queue.work = 0
    got = broker.receive(queue, 10)
    assert len(got) == 10
    assert queue.work <= 10


def test_delete_and_change_visibility_touch_constant_entries() -> None:
    broker, queue = deep_queue(100_000)
    handles = [d.receipt_handle for d in broker.receive(queue, 10)]
    queue.work = 0
    broker.change_visibility(queue, handles[0], 60)
    broker.delete(queue, handles[1])
    assert queue.work == 0


def test_compaction_is_amortised_and_keeps_order() -> None:
    broker, queue = deep_queue(3000)
    deliveries = broker.receive(queue, 10)
    while len(deliveries) < 2100:
        deliveries += broker.receive(queue, 10)
    for delivery in deliveries:
        broker.delete(queue, delivery.receipt_handle)
    assert queue.store.compactions == 1  # dead > 1024 and dead > live happened once
    assert queue.store.dead < COMPACT_MIN_DEAD
    remaining = [m for m in queue.live_messages()]
    assert len(remaining) == 900
    assert all(queue.store.slots[m.slot] is m for m in remaining)
    assert [m.sequence for m in remaining] == sorted(m.sequence for m in remaining)


def test_lock_is_released_after_receive_on_empty_and_all_deleted_queue() -> None:
    broker, queue = deep_queue(0)
    assert broker.receive(queue, 10) == []
    broker.send(queue, Outgoing(body="x", size=1))
    handle = broker.receive(queue)[0].receipt_handle
    broker.delete(queue, handle)
    assert broker.receive(queue, 10) == []  # all deleted: the early-return path
    finished = threading.Event()

    def other_thread() -> None:
        broker.send(queue, Outgoing(body="y", size=1))
        broker.receive(queue)
        finished.set()

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join(timeout=5)
    assert finished.is_set(), "another thread could not take the queue lock"
    assert not queue.lock.locked()
