"""Tier 1: a standard queue's receive order, the oldest age, and message ids (issue 15)."""

from __future__ import annotations

import uuid

from pytest_fakesqs.engine import Broker, Clock, Outgoing, Queue, QueueSettings, RedriveTarget
from pytest_fakesqs.engine.handles import MessageIds
from pytest_fakesqs.engine.settings import MOVED_BACK_AFTER


def make(settings: QueueSettings | None = None, name: str = "q") -> tuple[Broker, Queue]:
    broker = Broker(Clock(start=1_000.0))
    return broker, broker.create_queue(("r", "1", name), settings or QueueSettings())


def send(broker: Broker, queue: Queue, body: str, delay: float | None = None) -> None:
    broker.send(queue, Outgoing(body=body, size=len(body), delay=delay))


def received(broker: Broker, queue: Queue, count: int = 1, visibility: float = 30) -> list[str]:
    return [d.message.body for d in broker.receive(queue, count, visibility_timeout=visibility)]


def test_a_message_whose_visibility_lapsed_goes_before_later_sent_ones() -> None:
    # LocalStack's AWS-validated test_inflight_message_requeue, on the virtual clock.
    broker, queue = make()
    send(broker, queue, "m1")
    assert received(broker, queue, visibility=3) == ["m1"]
    broker.clock.advance(1.5)
    send(broker, queue, "m2")
    broker.clock.advance(3)
    assert received(broker, queue) == ["m1"]
    assert received(broker, queue) == ["m2"]


def test_a_delayed_message_keeps_its_place_in_send_order() -> None:
    broker, queue = make()
    send(broker, queue, "early", delay=5)
    send(broker, queue, "late")
    broker.clock.advance(5)
    assert received(broker, queue, 10) == ["early", "late"]


def test_a_message_received_three_times_moves_to_the_back() -> None:
    broker, queue = make()
    for body in ("poison", "a", "b"):
        send(broker, queue, body)
    for _ in range(MOVED_BACK_AFTER - 1):
        assert received(broker, queue, visibility=0) == ["poison"]
    assert received(broker, queue, visibility=0) == ["poison"]  # the third receive
    assert received(broker, queue, 10, visibility=0) == ["a", "b", "poison"]
    send(broker, queue, "c")  # and back again, behind what is in the queue now
    assert received(broker, queue, 10) == ["a", "b", "poison", "c"]


def test_the_oldest_age_skips_messages_received_three_times() -> None:
    broker, queue = make()
    send(broker, queue, "poison")
    broker.clock.advance(10)
    send(broker, queue, "next")
    with queue.lock:
        assert queue.schedule.oldest_enqueued_at() == 1_000.0
    for _ in range(MOVED_BACK_AFTER):
        assert received(broker, queue, visibility=0) == ["poison"]
    with queue.lock:
        assert (
            queue.schedule.oldest_enqueued_at() == 1_010.0
        )  # the oldest received fewer than 3 times
    assert received(broker, queue, 10) == ["next", "poison"]
    for delivery in broker.receive(queue, 10) or []:
        broker.delete(queue, delivery.receipt_handle)
    broker.clock.advance(30)
    for _ in range(2):
        for delivery in broker.receive(queue, 10):
            broker.delete(queue, delivery.receipt_handle)
    with queue.lock:
        assert queue.schedule.oldest_enqueued_at() is None


def test_the_oldest_age_skips_them_even_with_a_redrive_policy_and_counts_them_in_the_dlq() -> None:
    broker = Broker(Clock(start=1_000.0))
    dlq = broker.create_queue(("r", "1", "dlq"), QueueSettings())
    source = broker.create_queue(
        ("r", "1", "source"), QueueSettings(redrive=RedriveTarget(dlq.key, 5))
    )
    send(broker, source, "poison")
    broker.clock.advance(10)
    send(broker, source, "next")
    for _ in range(MOVED_BACK_AFTER):
        broker.receive(source, 1, visibility_timeout=0)
    with source.lock:
        assert source.schedule.oldest_enqueued_at() == 1_010.0
    for _ in range(3):
        broker.receive(source, 10, visibility_timeout=0)  # the sixth receive moves it
    assert [m.body for m in dlq.live_messages()] == ["poison"]
    with dlq.lock:
        # Received in its own queue fewer than three times: counted, by its enqueue time.
        assert dlq.schedule.oldest_enqueued_at() == 1_000.0


def test_retention_still_expires_a_message_moved_to_the_back() -> None:
    broker, queue = make(QueueSettings(retention=60))
    send(broker, queue, "poison")
    for _ in range(MOVED_BACK_AFTER):
        broker.receive(queue, 1, visibility_timeout=0)
    broker.clock.advance(61)
    assert received(broker, queue) == []
    assert len(queue.store) == 0


def test_message_ids_look_like_random_uuid4_and_repeat_with_the_seed() -> None:
    ids = MessageIds(seed=7)
    first = [ids() for _ in range(1000)]
    assert len(set(first)) == 1000
    assert all(uuid.UUID(i).version == 4 and str(uuid.UUID(i)) == i for i in first)
    # No shared tail (the counter-based ids shared their last 28 characters).
    assert len({i[-12:] for i in first}) == 1000
    assert len({i[:8] for i in first}) == 1000  # reports show the first eight
    again = MessageIds(seed=7)
    assert [again() for _ in range(1000)] == first
    assert MessageIds(seed=8)() != first[0]


def test_a_broker_draws_message_ids_from_its_seed() -> None:
    def ids(seed: int) -> list[str]:
        broker = Broker(Clock(), seed=seed)
        queue = broker.create_queue(("r", "1", "q"), QueueSettings())
        return [broker.send(queue, Outgoing(body="x", size=1)).message.message_id for _ in "abc"]

    assert ids(1) == ids(1)
    assert ids(1) != ids(2)
