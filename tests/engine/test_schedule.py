"""Tier 1: a queue's Schedule and the broker's questions about it (what is next, and when),
and the fault seam (engine.injected.FaultDecisions) driven by a hand-written plan."""

from __future__ import annotations

from pytest_fakesqs.engine import Broker, Clock, Event, Message, Outgoing, Queue, QueueSettings
from pytest_fakesqs.engine.settings import DEDUP_WINDOW, QueueKey

START = 1_000.0


def make(
    *names: str, visibility_timeout: float = 30.0, retention: float = 345_600.0
) -> tuple[Broker, list[Queue]]:
    broker = Broker(Clock(start=START))
    queues = [
        broker.create_queue(
            ("r", "1", name),
            QueueSettings(
                fifo=name.endswith(".fifo"),
                visibility_timeout=visibility_timeout,
                retention=retention,
            ),
        )
        for name in names
    ]
    return broker, queues


def send(broker: Broker, queue: Queue, body: str, **kwargs: object) -> Message:
    return broker.send(queue, Outgoing(body=body, size=len(body), **kwargs)).message  # type: ignore[arg-type]


def test_nothing_scheduled_means_no_next_event() -> None:
    broker, (queue,) = make("q")
    assert broker.next_visible_at(queue) is None
    assert broker.next_event_at(queue) is None
    assert broker.next_event_at(queue, include_expiry=True) is None
    send(broker, queue, "visible now")
    assert broker.next_visible_at(queue) is None  # visible already: nothing becomes visible
    assert broker.next_event_at(queue, include_expiry=True) == START + 345_600


def test_the_next_visible_moment_is_the_earliest_delay_or_visibility_lapse() -> None:
    broker, (queue,) = make("q", visibility_timeout=30.0)
    send(broker, queue, "late", delay=50.0)
    send(broker, queue, "now")
    broker.receive(queue)
    assert broker.next_visible_at(queue) == START + 30
    assert broker.next_event_at(queue) == START + 30
    broker.clock.advance(30)
    assert broker.next_visible_at(queue) == START + 50


def test_a_superseded_visibility_deadline_is_not_an_event() -> None:
    """The first deadline's entry stays in the schedule, stale: it must not be reported."""
    broker, (queue,) = make("q", visibility_timeout=30.0)
    send(broker, queue, "x")
    handle = broker.receive(queue)[0].receipt_handle
    broker.change_visibility(queue, handle, 300)
    assert broker.next_visible_at(queue) == START + 300
    broker.delete(queue, handle)
    assert broker.next_visible_at(queue) is None


def test_expiry_counts_only_when_asked_and_includes_deduplication_windows() -> None:
    broker, (queue,) = make("q.fifo", retention=600.0)
    message = send(broker, queue, "x", group_id="g", dedup_id="d")
    broker.delete(queue, broker.receive(queue)[0].receipt_handle)
    assert message.state.name == "GONE"
    assert broker.next_event_at(queue) is None
    # The message is gone, its deduplication id is remembered for five minutes.
    assert broker.next_event_at(queue, include_expiry=True) == START + DEDUP_WINDOW
    broker.clock.advance(DEDUP_WINDOW)
    assert broker.next_event_at(queue, include_expiry=True) is None


def test_retention_is_the_queue_setting_in_force() -> None:
    broker, (queue,) = make("q", retention=600.0)
    send(broker, queue, "x")
    assert broker.next_event_at(queue, include_expiry=True) == START + 600
    with queue.lock:
        queue.reconfigure(QueueSettings(retention=60.0))
    assert broker.next_event_at(queue, include_expiry=True) == START + 60
    broker.clock.advance(60)
    assert (queue.visible, queue.in_flight, queue.delayed) == (1, 0, 0)  # applied lazily...
    broker.refresh(queue)
    assert queue.visible == 0  # ...on the next access


def test_every_queue_and_move_tasks_count_when_no_queue_is_named() -> None:
    broker, (first, second) = make("first", "second", visibility_timeout=40.0)
    send(broker, first, "a", delay=20.0)
    send(broker, second, "b", delay=10.0)
    assert broker.next_event_at() == START + 10
    assert broker.next_event_at(first) == START + 20


def test_a_move_out_of_a_queue_is_its_event_but_makes_nothing_visible_there() -> None:
    broker, (dlq, destination) = make("dlq", "destination")
    for body in "ab":
        send(broker, dlq, body)
    broker.move_tasks.start(dlq, destination.key, rate=1)  # moves "a" now, "b" a second later
    assert broker.next_event_at(dlq) == START + 1
    assert broker.next_visible_at(dlq) is None
    assert broker.next_visible_at(destination) == START + 1


class Plan:
    """A hand-written FaultDecisions: what a property-based test would draw, fixed here."""

    def __init__(self, *, copy_delay: float | None = None, reverse: bool = False) -> None:
        self.delay = copy_delay
        self.reverse = reverse
        self.empty = False
        self.noted: list[tuple[str, str | None]] = []

    def reorders(self, queue: QueueKey, visible: int) -> bool:
        return self.reverse

    def reorder(self, queue: QueueKey, window: list[Message], now: float) -> None:
        window.reverse()

    def copy_delay(self, queue: QueueKey, message: Message) -> float | None:
        return self.delay

    def duplicated(
        self, queue: QueueKey, original: Message, copy: Message, delay: float, now: float
    ) -> None:
        self.noted.append(("duplicate_delivery", original.message_id))

    def empty_receive(self, queue: QueueKey, visible: int, now: float) -> bool:
        if self.empty:
            self.noted.append(("empty_receive", None))
        return self.empty


def test_a_copy_decided_for_later_appears_then_and_is_an_event() -> None:
    broker, (queue,) = make("q", visibility_timeout=100.0)
    plan = Plan(copy_delay=5.0)
    broker.set_faults(plan)
    original = send(broker, queue, "x")
    first = broker.receive(queue)[0]
    broker.set_faults(None)
    broker.delete(queue, first.receipt_handle)
    assert plan.noted == [("duplicate_delivery", original.message_id)]
    assert broker.receive(queue) == []  # not yet
    assert broker.next_visible_at(queue) == START + 5
    with queue.lock:
        assert [m.message_id for m in queue.schedule.due_by(START + 5)] == [original.message_id]
    broker.clock.advance(5)
    again = broker.receive(queue)
    assert [d.message.message_id for d in again] == [original.message_id]
    assert again[0].receive_count == 2
    events = [(at, event) for at, event, _ in again[0].message.timeline()]
    assert (START + 5, Event.DUPLICATED) in events


def test_a_purge_forgets_copies_yet_to_appear() -> None:
    broker, (queue,) = make("q")
    broker.set_faults(Plan(copy_delay=5.0))
    send(broker, queue, "x")
    broker.receive(queue)
    broker.set_faults(None)
    broker.purge(queue)
    broker.clock.advance(5)
    assert broker.receive(queue) == []
    assert broker.next_event_at(queue, include_expiry=True) is None


def test_the_plan_chooses_which_visible_message_goes_first() -> None:
    broker, (queue,) = make("q")
    broker.set_faults(Plan(reverse=True))
    for body in "abcde":
        send(broker, queue, body)
    # A window of up to ten candidates per message asked for, in the plan's order.
    assert [d.message.body for d in broker.receive(queue, 2)] == ["e", "d"]
    assert [d.message.body for d in broker.receive(queue, 10)] == ["c", "b", "a"]


def test_the_plan_may_empty_a_short_poll_but_not_a_long_one() -> None:
    broker, (queue,) = make("q")
    plan = Plan()
    plan.empty = True
    broker.set_faults(plan)
    send(broker, queue, "x")
    assert broker.receive(queue) == []
    assert plan.noted == [("empty_receive", None)]
    assert [d.message.body for d in broker.receive(queue, wait_seconds=1)] == ["x"]


def test_quiet_until_a_delay_a_visibility_timeout_or_retention_ends_or_a_delete_waits() -> None:
    broker, (queue,) = make("q", visibility_timeout=30.0, retention=100.0)
    schedule = queue.schedule
    assert schedule.quiet(START)
    send(broker, queue, "later", delay=5.0)
    assert schedule.quiet(START + 4.9)
    assert not schedule.quiet(START + 5.0)  # the delay ends
    broker.clock.advance(5.0)
    (delivery,) = broker.receive(queue, 1)
    assert schedule.quiet(START + 34.9)
    assert not schedule.quiet(START + 35.0)  # the visibility timeout lapses
    broker.delete(queue, delivery.receipt_handle)
    assert not schedule.quiet(START + 5.0)  # the deleted message still heads retention order
    queue.apply_due(START + 5.0)
    assert schedule.quiet(START + 5.0)
    send(broker, queue, "kept")
    assert schedule.quiet(START + 104.9)
    assert not schedule.quiet(START + 105.0)  # its retention period ends


def test_quiet_until_a_deduplication_window_ends() -> None:
    broker, (queue,) = make("q.fifo", retention=10_000.0)
    send(broker, queue, "once", group_id="g", dedup_id="d")
    assert queue.schedule.quiet(START + DEDUP_WINDOW - 1)
    assert not queue.schedule.quiet(START + DEDUP_WINDOW)
