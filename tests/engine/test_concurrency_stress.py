"""Concurrency stress on the real clock: 8 producers, 8 consumers, 100,000 messages.

Bounded in count and time: every wait has a timeout that fails the test, so a deadlock or a
lost message shows up as a failure with a reason, never as a hung run.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from pytest_fakesqs.engine import (
    Broker,
    Clock,
    Outgoing,
    Queue,
    QueueSettings,
    StaleReceiptHandle,
    State,
)

PRODUCERS = 8
CONSUMERS = 8
MESSAGES = 100_000
# Long enough that no visibility timeout can expire during a healthy run, so any second
# delivery of a message that a consumer still holds is a bug, not a legitimate redelivery.
VISIBILITY_TIMEOUT = 300.0
DEADLINE_SECONDS = 45.0  # real-time: past this the run is declared stuck and fails
RELEASE_EVERY = 97  # consumers hand every 97th message back (visibility 0) instead of deleting


@dataclass
class Ledger:
    """What the consumers observed, guarded by one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    holders: dict[str, int] = field(default_factory=dict)  # message id -> consumer holding it
    deleted: set[str] = field(default_factory=set)
    double_holds: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    released: int = 0
    deadline: float = 0.0  # on the broker's (real) clock


def _produce(broker: Broker, queue: Queue, producer: int, count: int, ledger: Ledger) -> None:
    try:
        for index in range(count):
            body = f"p{producer}-{index}"
            broker.send(queue, Outgoing(body=body, size=len(body)))
    except Exception as exc:  # reported by the main thread
        ledger.errors.append(f"producer {producer}: {exc!r}")


def _consume(
    broker: Broker, queue: Queue, consumer: int, ledger: Ledger, done: threading.Event
) -> None:
    clock = broker.clock
    seen = 0
    try:
        while not done.is_set():
            if clock.now() > ledger.deadline:
                ledger.errors.append(f"consumer {consumer}: deadline passed")
                return
            deliveries = broker.receive(queue, 10, VISIBILITY_TIMEOUT, wait_seconds=0.05)
            for delivery in deliveries:
                message_id = delivery.message.message_id
                with ledger.lock:
                    holder = ledger.holders.get(message_id)
                    if holder is not None:
                        ledger.double_holds.append(f"{message_id}: {holder} and {consumer}")
                    ledger.holders[message_id] = consumer
                seen += 1
                if seen % RELEASE_EVERY == 0 and delivery.receive_count == 1:
                    with ledger.lock:
                        del ledger.holders[message_id]
                        ledger.released += 1
                    broker.change_visibility(queue, delivery.receipt_handle, 0)
                    continue
                with ledger.lock:
                    del ledger.holders[message_id]
                    ledger.deleted.add(message_id)
                    if len(ledger.deleted) == MESSAGES:
                        done.set()
                broker.delete(queue, delivery.receipt_handle)
    except StaleReceiptHandle as exc:
        ledger.errors.append(f"consumer {consumer}: its own handle went stale: {exc}")
    except Exception as exc:
        ledger.errors.append(f"consumer {consumer}: {exc!r}")


def test_eight_producers_and_eight_consumers_move_100k_messages_exactly() -> None:
    broker = Broker(Clock("real"))
    queue = broker.create_queue(
        ("us-east-1", "123456789012", "stress"),
        QueueSettings(visibility_timeout=VISIBILITY_TIMEOUT, max_in_flight=None),
    )
    ledger = Ledger()
    done = threading.Event()
    ledger.deadline = broker.clock.now() + DEADLINE_SECONDS
    per_producer = MESSAGES // PRODUCERS
    threads = [
        threading.Thread(target=_produce, args=(broker, queue, p, per_producer, ledger))
        for p in range(PRODUCERS)
    ] + [
        threading.Thread(target=_consume, args=(broker, queue, c, ledger, done))
        for c in range(CONSUMERS)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    finished = done.wait(timeout=DEADLINE_SECONDS)  # real-time: threads on the real clock
    done.set()  # stop consumers whatever happened
    for thread in threads:
        # real-time: a bounded join, so a deadlocked thread fails the test instead of hanging it
        thread.join(timeout=max(1.0, DEADLINE_SECONDS - (time.monotonic() - started)))
    stuck = [thread.name for thread in threads if thread.is_alive()]

    assert not stuck, f"threads still running (deadlock?): {stuck}"
    assert ledger.errors == []
    assert finished, f"only {len(ledger.deleted)} of {MESSAGES} messages were deleted in time"
    assert ledger.double_holds == []
    assert len(ledger.deleted) == MESSAGES
    assert ledger.released > 0  # the hand-back path really ran under contention
    assert not queue.lock.locked()
    # Everything delivered was deleted, and the counters agree with the (empty) store.
    states = broker.states(queue)
    assert {state: len(messages) for state, messages in states.items()} == {
        state: 0 for state in State
    }
    assert (queue.visible, queue.in_flight, queue.delayed, queue.bytes) == (0, 0, 0, 0)
    assert queue.store.by_handle == {}
    assert len(queue.store) == 0
