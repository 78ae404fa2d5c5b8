"""Tier 1: the engine alone, no botocore."""

from __future__ import annotations

import pytest

from pytest_fakesqs.engine import (
    Broker,
    Clock,
    Event,
    MalformedReceiptHandle,
    Outgoing,
    Queue,
    QueueNotFound,
    QueueSettings,
    RedriveTarget,
    StaleReceiptHandle,
    State,
    VisibilityLimitExceeded,
)


def make(settings: QueueSettings | None = None, name: str = "q") -> tuple[Broker, Queue]:
    broker = Broker(Clock())
    return broker, broker.create_queue(("r", "1", name), settings or QueueSettings())


def send(broker: Broker, queue: Queue, body: str, **kwargs: object) -> str:
    return broker.send(queue, Outgoing(body=body, size=len(body), **kwargs)).message.message_id  # type: ignore[arg-type]


def counters(queue: Queue) -> tuple[int, int, int]:
    return queue.visible, queue.in_flight, queue.delayed


def test_send_receive_delete_keeps_counters_exact() -> None:
    broker, queue = make()
    for body in "abc":
        send(broker, queue, body)
    assert counters(queue) == (3, 0, 0)
    got = broker.receive(queue, 2)
    assert [d.message.body for d in got] == ["a", "b"]
    assert counters(queue) == (1, 2, 0)
    broker.delete(queue, got[0].receipt_handle)
    assert counters(queue) == (1, 1, 0)
    assert queue.bytes == 2


def test_visibility_timeout_returns_the_message_with_a_higher_count() -> None:
    broker, queue = make(QueueSettings(visibility_timeout=30))
    send(broker, queue, "x")
    first = broker.receive(queue)[0]
    assert broker.receive(queue) == []
    broker.clock.advance(29.9)
    assert broker.receive(queue) == []
    broker.clock.advance(0.1)
    again = broker.receive(queue)[0]
    assert again.receive_count == 2
    assert again.receipt_handle != first.receipt_handle
    events = [event for _, event, _ in again.message.timeline()]
    assert events == [Event.SENT, Event.RECEIVED, Event.VISIBLE_AGAIN, Event.RECEIVED]


def test_delay_hides_a_message_until_it_ends() -> None:
    broker, queue = make()
    send(broker, queue, "later", delay=10.0)
    assert counters(queue) == (0, 0, 1)
    assert broker.receive(queue) == []
    broker.clock.advance(10)
    assert [d.message.body for d in broker.receive(queue)] == ["later"]


def test_queue_delay_applies_when_the_message_names_none() -> None:
    broker, queue = make(QueueSettings(delay=5))
    send(broker, queue, "a")
    assert broker.refresh(queue).delayed == 1
    broker.clock.advance(5)
    assert broker.refresh(queue).visible == 1


def test_change_visibility_zero_makes_it_visible_at_once() -> None:
    broker, queue = make()
    send(broker, queue, "x")
    handle = broker.receive(queue)[0].receipt_handle
    broker.change_visibility(queue, handle, 0)
    assert counters(queue) == (1, 0, 0)
    assert broker.receive(queue)[0].receive_count == 2


def test_change_visibility_extends_and_is_not_remembered() -> None:
    broker, queue = make(QueueSettings(visibility_timeout=30))
    send(broker, queue, "x")
    handle = broker.receive(queue)[0].receipt_handle
    broker.change_visibility(queue, handle, 100)
    broker.clock.advance(99)
    assert broker.receive(queue) == []
    broker.clock.advance(1)
    broker.receive(queue)
    broker.clock.advance(30)  # the next receive uses the queue's 30 s again
    assert broker.receive(queue)[0].receive_count == 3


def test_visibility_is_capped_at_twelve_hours_from_receive() -> None:
    broker, queue = make()
    send(broker, queue, "x")
    handle = broker.receive(queue, 1, visibility_timeout=600)[0].receipt_handle
    broker.clock.advance(100)
    with pytest.raises(VisibilityLimitExceeded):
        broker.change_visibility(queue, handle, 43200 - 99)
    broker.change_visibility(queue, handle, 43200 - 100)


def test_stale_and_malformed_handles_are_told_apart() -> None:
    broker, queue = make(QueueSettings(visibility_timeout=1))
    send(broker, queue, "x")
    handle = broker.receive(queue)[0].receipt_handle
    broker.clock.advance(1)
    broker.receive(queue)  # received again: the first handle is no longer the latest
    broker.clock.advance(1)  # and visible again: no handle names it in flight
    with pytest.raises(StaleReceiptHandle) as stale:
        broker.change_visibility(queue, handle, 5)
    assert stale.value.message_exists
    with pytest.raises(MalformedReceiptHandle):
        broker.delete(queue, "garbage")
    other_broker, other = make(name="other")
    send(other_broker, other, "y")
    foreign = other_broker.receive(other)[0].receipt_handle
    with pytest.raises(MalformedReceiptHandle):
        broker.delete(queue, foreign)


def test_retention_expires_messages_lazily() -> None:
    broker, queue = make(QueueSettings(retention=60))
    send(broker, queue, "old")
    broker.clock.advance(30)
    send(broker, queue, "new")
    broker.clock.advance(30)
    assert [d.message.body for d in broker.receive(queue, 10)] == ["new"]
    assert queue.bytes == 3


def test_purge_removes_visible_in_flight_and_delayed() -> None:
    broker, queue = make()
    send(broker, queue, "a")
    send(broker, queue, "b", delay=5.0)
    send(broker, queue, "c")
    broker.receive(queue)
    purged = broker.purge(queue)
    assert sorted(m.body for m in purged) == ["a", "b", "c"]
    assert counters(queue) == (0, 0, 0)
    assert all(m.state is State.GONE for m in purged)
    broker.clock.advance(60)
    assert broker.receive(queue) == []


def test_long_poll_on_frozen_clock_returns_at_the_next_visible_moment() -> None:
    broker, queue = make(QueueSettings(visibility_timeout=5))
    send(broker, queue, "x")
    broker.receive(queue)
    start = broker.clock.now()
    got = broker.receive(queue, wait_seconds=20)
    assert [d.receive_count for d in got] == [2]
    assert broker.clock.now() == start + 5


def test_long_poll_with_nothing_coming_ends_at_its_deadline() -> None:
    broker, queue = make()
    start = broker.clock.now()
    assert broker.receive(queue, wait_seconds=20) == []
    assert broker.clock.now() == start + 20


def test_dead_letter_move_on_the_receive_that_would_exceed_the_limit() -> None:
    broker = Broker(Clock())
    dlq = broker.create_queue(("r", "1", "dlq"), QueueSettings())
    source = broker.create_queue(
        ("r", "1", "src"),
        QueueSettings(visibility_timeout=1, redrive=RedriveTarget(dlq.key, 2)),
    )
    send(broker, source, "poison")
    for _ in range(2):
        assert len(broker.receive(source)) == 1
        broker.clock.advance(1)
    assert broker.receive(source) == []  # the third receive moves it instead
    moved = broker.receive(dlq)[0]
    assert moved.message.body == "poison"
    assert moved.receive_count == 3
    assert moved.message.system is not None
    assert moved.message.system["dead_letter_source"] == source.key


def test_deleted_queue_is_gone() -> None:
    broker, queue = make()
    broker.delete_queue(queue.key)
    with pytest.raises(QueueNotFound):
        broker.get(queue.key)
    assert broker.deleted_at(queue.key) == broker.clock.now()


def test_fifo_group_blocks_while_in_flight_and_keeps_order() -> None:
    broker, queue = make(QueueSettings(fifo=True, visibility_timeout=10))
    for body, group in [("a1", "a"), ("b1", "b"), ("a2", "a"), ("b2", "b")]:
        send(broker, queue, body, group_id=group)
    first = broker.receive(queue, 1)
    assert [d.message.body for d in first] == ["a1"]
    second = broker.receive(queue, 10)
    assert [d.message.body for d in second] == ["b1", "b2"]  # group a is blocked
    broker.delete(queue, first[0].receipt_handle)
    assert [d.message.body for d in broker.receive(queue, 10)] == ["a2"]


def test_fifo_receive_takes_a_run_of_one_group_in_order() -> None:
    broker, queue = make(QueueSettings(fifo=True))
    for index in range(5):
        send(broker, queue, f"m{index}", group_id="g")
    assert [d.message.body for d in broker.receive(queue, 3)] == ["m0", "m1", "m2"]
    assert broker.receive(queue, 10) == []


def test_fifo_dedup_returns_the_original_within_five_minutes() -> None:
    broker, queue = make(QueueSettings(fifo=True))
    first = broker.send(queue, Outgoing(body="x", size=1, group_id="g", dedup_id="d"))
    again = broker.send(queue, Outgoing(body="x", size=1, group_id="g", dedup_id="d"))
    assert again.duplicate and again.message is first.message
    assert first.message.sequence_number is not None
    broker.clock.advance(300)
    third = broker.send(queue, Outgoing(body="x", size=1, group_id="g", dedup_id="d"))
    assert not third.duplicate
    assert int(third.message.sequence_number or 0) > int(first.message.sequence_number)
