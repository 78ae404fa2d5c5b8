"""Per-operation cost must not grow with queue depth: counted in entries touched, not timed."""

from __future__ import annotations

import threading

from pytest_fakesqs.engine import Broker, Clock, Outgoing, Queue, QueueSettings
from pytest_fakesqs.engine.schedule import STALE_SLACK
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
    # The delete drops the entries at the front of the in-flight order that no longer count
    # (the first message's old visibility deadline, the deleted one's): each entry once, as it
    # comes to the front, whatever the depth.
    assert queue.work == 2


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


def test_finished_messages_leave_no_heap_entries_behind() -> None:
    """Deleted messages' heap entries would otherwise wait for their visibility timeout and
    retention period to pass (never, on a frozen clock), keeping every message alive."""
    broker, queue = deep_queue(20_000)
    queue.work = 0
    operations = 0
    while deliveries := broker.receive(queue, 10):
        for delivery in deliveries:
            broker.change_visibility(queue, delivery.receipt_handle, 60)
            broker.delete(queue, delivery.receipt_handle)
        operations += 1 + 2 * len(deliveries)
    sizes = queue.schedule.sizes()
    for order in ("in_flight", "retained", "delayed"):
        assert sizes[order] <= 2 * STALE_SLACK
    # Deleted in the order received, the in-flight entries leave from the front as they go
    # stale: none waits for a rebuild (the next test leaves some behind a live one).
    assert sizes["in_flight"] <= 2 * 10
    assert sizes["ready"] == 0
    assert queue.work / operations < 3  # rebuilds are amortised: a few entries per operation


def test_entries_left_behind_a_live_one_are_rebuilt_away() -> None:
    """Deleted newest first, the stale entries sit behind the oldest live one: rebuilds drop
    them, amortised, so the heaps stay bounded by the live messages plus the slack (a look
    every STALE_SLACK removals, while up to that many more live messages may have left)."""
    broker, queue = deep_queue(6_000)
    deliveries = []
    while batch := broker.receive(queue, 10):
        deliveries += batch
    queue.work = 0
    operations = 0
    for delivery in reversed(deliveries[1:]):
        broker.delete(queue, delivery.receipt_handle)
        operations += 1
        sizes = queue.schedule.sizes()
        assert sizes["in_flight"] <= 2 * queue.in_flight + 3 * STALE_SLACK
        assert sizes["retained"] <= 2 * len(queue.store) + 3 * STALE_SLACK
    assert queue.pruned > 0
    assert queue.work / operations < 3  # rebuilds are amortised: a few entries per operation


def test_rebuilding_a_heap_keeps_what_is_due_and_when() -> None:
    broker, queue = deep_queue(0)
    queue.schedule.stale_slack = 1  # rebuild at every chance
    broker.send(queue, Outgoing(body="late", size=4, delay=30.0))
    broker.send(queue, Outgoing(body="anchor", size=6))
    broker.send(queue, Outgoing(body="kept", size=4))
    anchor, kept = broker.receive(queue, 2)
    broker.change_visibility(queue, anchor.receipt_handle, 5)  # live, and first in line
    for _ in range(5):  # each reschedule leaves a stale entry behind the anchor's
        broker.change_visibility(queue, kept.receipt_handle, 10)
    broker.send(queue, Outgoing(body="gone", size=4))
    broker.delete(queue, broker.receive(queue, 1)[0].receipt_handle)
    assert queue.pruned > 0
    assert queue.schedule.sizes()["in_flight"] <= 2 * queue.in_flight + queue.schedule.stale_slack
    broker.clock.advance(5)
    assert [d.message.body for d in broker.receive(queue, 10)] == ["anchor"]
    broker.clock.advance(5)
    assert [d.message.body for d in broker.receive(queue, 10)] == ["kept"]
    broker.clock.advance(20)
    assert [d.message.body for d in broker.receive(queue, 10)] == ["late"]


def test_a_message_visible_again_goes_first_in_logarithmic_work() -> None:
    """Receive order is send order: a returned message re-enters it by a heap push, not a
    scan, however many later messages are waiting."""
    broker, queue = deep_queue(100_000)
    first = broker.receive(queue, 1)[0]
    broker.change_visibility(queue, first.receipt_handle, 0)
    queue.work = 0
    again = broker.receive(queue, 1)[0]
    assert again.message is first.message
    assert queue.work <= 2


def test_moving_poison_messages_to_the_back_keeps_the_oldest_age_cheap() -> None:
    """Each message received three times leaves the oldest-age order once: the next oldest
    age costs what was skipped, amortised O(1) per message, not the depth."""
    from pytest_fakesqs.engine.settings import MOVED_BACK_AFTER

    broker, queue = deep_queue(20_000)
    poison = broker.receive(queue, 10)
    for _ in range(MOVED_BACK_AFTER - 1):
        for delivery in poison:
            broker.change_visibility(queue, delivery.receipt_handle, 0)
        poison = broker.receive(queue, 10)
    for delivery in poison:
        broker.change_visibility(queue, delivery.receipt_handle, 0)
    with queue.lock:
        oldest = queue.schedule.oldest_enqueued_at()
        assert oldest is not None
        assert queue.schedule.oldest_enqueued_at() == oldest
        assert (
            queue.schedule.moved_back_skipped == 10
        )  # each of the ten left the oldest-age order once
    # The ten moved back are now behind the 19,990 others: a receive gets first receives.
    queue.work = 0
    assert [d.message.receives_here for d in broker.receive(queue, 10)] == [1] * 10
    assert queue.work <= 10
