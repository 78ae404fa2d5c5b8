"""Tier 1: a long poll gives up as soon as its caller's Cancellation is cancelled."""

from __future__ import annotations

import threading
import time

from pytest_fakesqs.engine import Broker, Clock, Outgoing, QueueSettings, cancellation
from pytest_fakesqs.engine.results import Delivery


def test_cancelling_a_waiting_long_poll_returns_it_empty_at_once() -> None:
    broker = Broker(Clock("real"))
    queue = broker.create_queue(("r", "1", "q"), QueueSettings())
    token = cancellation.Cancellation()
    outcome: list[list[Delivery]] = []

    def poll() -> None:
        cancellation.bind(token)
        try:
            outcome.append(broker.receive(queue, wait_seconds=20))
        finally:
            cancellation.bind(None)

    poller = threading.Thread(target=poll)
    poller.start()
    deadline = time.monotonic() + 10
    while queue.pollers == 0 and time.monotonic() < deadline:
        time.sleep(0.005)  # real-time: waits for the other thread to start waiting
    started = time.monotonic()

    token.cancel()
    poller.join(timeout=10)

    assert outcome == [[]]
    assert time.monotonic() - started < 5  # not the 20 s it asked for
    assert queue.pollers == 0


def test_a_cancelled_token_ends_the_next_wait_before_it_starts() -> None:
    broker = Broker(Clock("real"))
    queue = broker.create_queue(("r", "1", "q"), QueueSettings())
    token = cancellation.Cancellation()
    token.cancel()
    cancellation.bind(token)
    try:
        assert broker.receive(queue, wait_seconds=20) == []
    finally:
        cancellation.bind(None)
    token.reset()
    broker.send(queue, Outgoing(body="x", size=1))
    cancellation.bind(token)
    try:
        assert len(broker.receive(queue, wait_seconds=20)) == 1  # a reset token waits again
    finally:
        cancellation.bind(None)
