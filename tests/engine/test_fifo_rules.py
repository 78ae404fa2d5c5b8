"""Tier 1: FIFO group rules, ReceiveRequestAttemptId replays, dedup, receipts (no botocore)."""

from __future__ import annotations

import pytest

from pytest_fakesqs.engine import (
    DEDUP_WINDOW,
    Broker,
    Clock,
    Outgoing,
    Queue,
    QueueSettings,
    RedriveTarget,
    StaleReceiptHandle,
    State,
)


def make(**settings: object) -> tuple[Broker, Queue]:
    broker = Broker(Clock())
    queue = broker.create_queue(("r", "1", "q.fifo"), QueueSettings(fifo=True, **settings))  # type: ignore[arg-type]
    return broker, queue


def send(broker: Broker, queue: Queue, body: str, group: str, dedup: str | None = None) -> str:
    outgoing = Outgoing(body=body, size=len(body), group_id=group, dedup_id=dedup or body)
    return broker.send(queue, outgoing).message.message_id


def bodies(broker: Broker, queue: Queue, count: int = 10, **kwargs: object) -> list[str]:
    return [d.message.body for d in broker.receive(queue, count, **kwargs)]  # type: ignore[arg-type]


def test_a_group_is_served_up_to_its_first_invisible_message() -> None:
    broker, queue = make(visibility_timeout=10)
    for body in ("foo", "bar", "baz"):
        send(broker, queue, body, "g")
    got = broker.receive(queue, 10)
    broker.change_visibility(queue, got[1].receipt_handle, 30)  # "bar" stays invisible
    broker.clock.advance(12)
    assert bodies(broker, queue) == ["foo"]


def test_an_earlier_message_made_visible_is_served_while_later_ones_are_in_flight() -> None:
    broker, queue = make(visibility_timeout=30)
    send(broker, queue, "g1-m1", "g1")
    send(broker, queue, "g1-m2", "g1")
    send(broker, queue, "g2-m1", "g2")
    got = broker.receive(queue, 2)
    broker.change_visibility(queue, got[0].receipt_handle, 0)
    assert bodies(broker, queue, 3) == ["g2-m1", "g1-m1"]


def test_a_group_whose_head_is_dead_lettered_mid_receive_waits_for_its_next_turn() -> None:
    """Found by the model tests: the group being served lost its head to the dead-letter queue
    and was offered a turn again at once, while its next message was being delivered, so it
    came back before a group that had waited longer."""
    broker = Broker(Clock())
    dead = broker.create_queue(("r", "1", "dead.fifo"), QueueSettings(fifo=True))
    queue = broker.create_queue(
        ("r", "1", "q.fifo"),
        QueueSettings(fifo=True, visibility_timeout=30, redrive=RedriveTarget(dead.key, 2)),
    )
    send(broker, queue, "a1", "a")
    send(broker, queue, "b1", "b")
    assert bodies(broker, queue, 1) == ["a1"]
    broker.clock.advance(30)
    send(broker, queue, "a2", "a")
    assert bodies(broker, queue, 2) == ["b1", "a1"]
    broker.clock.advance(31)
    send(broker, queue, "b2", "b")
    assert bodies(broker, queue, 2) == ["a2", "b1"]  # a1 went to the dead-letter queue
    assert bodies(broker, dead) == ["a1"]
    broker.clock.advance(31)
    # b1 goes to the dead-letter queue now; b has waited longer than a (served last): b first.
    assert bodies(broker, queue, 2) == ["b2", "a2"]


def test_groups_served_go_to_the_back_of_the_line() -> None:
    broker, queue = make()
    for body, group in (("g1-m1", "1"), ("g2-m1", "2"), ("g2-m2", "2"), ("g3-m1", "3")):
        send(broker, queue, body, group)
    send(broker, queue, "g1-m2", "1")
    assert bodies(broker, queue, 3, visibility_timeout=0) == ["g1-m1", "g1-m2", "g2-m1"]
    # AWS's recorded order: the untouched group first, then the groups in the order served.
    assert bodies(broker, queue, visibility_timeout=0) == [
        "g3-m1",
        "g1-m1",
        "g1-m2",
        "g2-m1",
        "g2-m2",
    ]


def test_receive_attempt_replays_the_same_handles_and_resets_visibility() -> None:
    broker, queue = make(visibility_timeout=30)
    send(broker, queue, "a", "g")
    send(broker, queue, "b", "g")
    first = broker.receive(queue, 10, attempt_id="attempt-1")
    broker.clock.advance(20)
    again = broker.receive(queue, 10, attempt_id="attempt-1")
    assert [d.receipt_handle for d in again] == [d.receipt_handle for d in first]
    assert [d.receive_count for d in again] == [1, 1]
    broker.clock.advance(20)  # 40 s after the first receive, 20 s after the replay
    assert all(m.state is State.IN_FLIGHT for m in queue.live_messages())


def test_receive_attempt_after_a_modification_receives_afresh() -> None:
    broker, queue = make(visibility_timeout=30)
    send(broker, queue, "a", "g")
    send(broker, queue, "b", "g")
    first = broker.receive(queue, 10, attempt_id="attempt-1")
    broker.delete(queue, first[0].receipt_handle)
    assert broker.receive(queue, 10, attempt_id="attempt-1") == []  # "b" is still in flight
    broker.change_visibility(queue, first[1].receipt_handle, 0)
    again = broker.receive(queue, 10, attempt_id="attempt-1")
    assert [d.message.body for d in again] == ["b"]
    assert again[0].receipt_handle != first[1].receipt_handle


def test_receive_attempt_is_forgotten_after_five_minutes() -> None:
    broker, queue = make(visibility_timeout=1000)
    send(broker, queue, "a", "g")
    first = broker.receive(queue, 1, attempt_id="x")
    broker.clock.advance(DEDUP_WINDOW)
    assert broker.receive(queue, 1, attempt_id="x") == []  # a fresh receive: "a" is in flight
    broker.change_visibility(queue, first[0].receipt_handle, 0)
    assert broker.receive(queue, 1, attempt_id="x")[0].receipt_handle != first[0].receipt_handle


def test_standard_queues_ignore_the_attempt_id() -> None:
    broker = Broker(Clock())
    queue = broker.create_queue(("r", "1", "std"), QueueSettings())
    broker.send(queue, Outgoing(body="a", size=1))
    broker.send(queue, Outgoing(body="b", size=1))
    assert [d.message.body for d in broker.receive(queue, 1, attempt_id="x")] == ["a"]
    assert [d.message.body for d in broker.receive(queue, 1, attempt_id="x")] == ["b"]


def test_dedup_outlives_delete_and_a_purge_forgets_it() -> None:
    broker, queue = make()
    original = send(broker, queue, "a", "g", "d")
    broker.delete(queue, broker.receive(queue)[0].receipt_handle)
    duplicate = broker.send(queue, Outgoing(body="a2", size=2, group_id="g", dedup_id="d"))
    assert duplicate.duplicate and duplicate.message.message_id == original
    broker.purge(queue)
    assert not broker.send(queue, Outgoing(body="a3", size=2, group_id="g", dedup_id="d")).duplicate


def test_message_group_scope_dedups_per_group() -> None:
    broker, queue = make(dedup_scope="messageGroup")
    send(broker, queue, "a", "g1", "same")
    send(broker, queue, "b", "g2", "same")
    assert sorted(bodies(broker, queue)) == ["a", "b"]


def test_standard_queue_expired_and_older_handles_still_delete() -> None:
    """Verified against AWS (moto PR #4655, 2021): any handle of the message deletes it."""
    broker = Broker(Clock())
    queue = broker.create_queue(("r", "1", "std"), QueueSettings(visibility_timeout=1))
    broker.send(queue, Outgoing(body="a", size=1))
    handle = broker.receive(queue)[0].receipt_handle
    broker.clock.advance(2)
    broker.delete(queue, handle)
    assert queue.visible == 0 and queue.in_flight == 0
    broker.send(queue, Outgoing(body="b", size=1))
    old = broker.receive(queue)[0].receipt_handle
    broker.clock.advance(2)
    broker.receive(queue)  # received again: the old handle still deletes
    broker.delete(queue, old)
    assert queue.in_flight == 0 and len(queue.store) == 0


def test_a_trigger_deletes_by_the_current_handle_only() -> None:
    broker = Broker(Clock())
    queue = broker.create_queue(("r", "1", "std"), QueueSettings(visibility_timeout=1))
    broker.send(queue, Outgoing(body="a", size=1))
    old = broker.receive(queue)[0].receipt_handle
    broker.clock.advance(2)
    broker.receive(queue)
    with pytest.raises(StaleReceiptHandle):
        broker.delete(queue, old, in_flight_only=True)
    assert queue.in_flight == 1


def test_fifo_older_handles_are_refused() -> None:
    broker, queue = make()
    send(broker, queue, "a", "g", "d")
    queue.settings.visibility_timeout = 1
    old = broker.receive(queue)[0].receipt_handle
    broker.clock.advance(2)
    broker.receive(queue)
    with pytest.raises(StaleReceiptHandle):
        broker.change_visibility(queue, old, 0)
    with pytest.raises(StaleReceiptHandle):
        broker.delete(queue, old)
    assert queue.in_flight == 1
