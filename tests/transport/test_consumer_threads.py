"""The default frozen clock with a consumer thread: its empty long polls wait before jumping."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from ..api.conftest import make_client, system_attribute_names

# Real seconds a consumer thread's empty poll waits before time jumps; a poll wakes at once on a
# send, so the test never waits it out. 30 such polls pass the 30 s visibility timeout: 15 real
# seconds, far more than the test's thread is busy (BUSY), on a loaded machine too.
THRESHOLD = 0.5  # real-time: bounds the consumer's waits, never the test's path
BUSY = 0.2  # real-time: the test's thread doing something else while the consumer polls


def start_consumer(
    url: str, handled: list[tuple[str, str]], failed: threading.Event, stop: threading.Event
) -> Any:
    """A consumer as user code writes one: 1-second long polls, the handler fails on "flaky"."""
    sqs = make_client()  # made here: creating boto3 clients is not thread-safe

    def consume() -> None:
        while not stop.is_set():
            reply = sqs.receive_message(
                QueueUrl=url, WaitTimeSeconds=1, **system_attribute_names("ApproximateReceiveCount")
            )
            for message in reply.get("Messages", []):
                handled.append((message["Body"], message["Attributes"]["ApproximateReceiveCount"]))
                if message["Body"] == "stop":
                    stop.set()
                if message["Body"] == "flaky":  # the failing handler leaves it to come back
                    failed.set()
                else:
                    sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    return thread


@pytest.mark.fakesqs(autojump_threshold=THRESHOLD)
def test_a_consumer_thread_does_not_race_the_default_clock_ahead(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs", VisibilityTimeout=30)
    sqs = make_client()
    handled: list[tuple[str, str]] = []
    failed, stop = threading.Event(), threading.Event()
    before = fakesqs.now()
    sqs.send_message(QueueUrl=url, MessageBody="flaky")
    consumer = start_consumer(url, handled, failed, stop)

    assert failed.wait(timeout=30)  # real-time: a bounded wait for the consumer's first receive
    time.sleep(BUSY)  # real-time: frozen-instant's consumer would redeliver "flaky" ~100 times
    sqs.send_message(QueueUrl=url, MessageBody="stop")
    consumer.join(timeout=60)  # real-time: a bounded join

    # On frozen-instant the consumer's empty polls would jump past the 30 s visibility timeout
    # again and again before "stop" arrived; here they wait, so "flaky" is received just once.
    assert not consumer.is_alive()
    assert handled == [("flaky", "1"), ("stop", "1")]
    assert (fakesqs.now() - before).total_seconds() < 30


@pytest.mark.fakesqs(autojump_threshold=0.01)  # real-time: the consumer waits 10 ms per poll
def test_a_consumer_thread_s_empty_poll_still_jumps_after_the_threshold(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()
    replies: list[dict[str, Any]] = []
    sqs = make_client()

    thread = threading.Thread(
        target=lambda: replies.append(sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)),
        daemon=True,
    )
    thread.start()
    thread.join(timeout=30)  # real-time: a bounded join

    assert "Messages" not in replies[0]
    assert (fakesqs.now() - before).total_seconds() == 20


@pytest.mark.fakesqs(autojump_threshold=3600)  # a wait of the threshold would time the test out
@pytest.mark.timeout(30)
def test_the_test_thread_s_empty_poll_jumps_at_once(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()

    assert "Messages" not in make_client().receive_message(QueueUrl=url, WaitTimeSeconds=20)
    assert (fakesqs.now() - before).total_seconds() == 20


@pytest.mark.fakesqs(clock="frozen-instant", autojump_threshold=3600)
@pytest.mark.timeout(30)
def test_frozen_instant_jumps_at_once_in_a_consumer_thread(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()
    sqs = make_client()

    thread = threading.Thread(
        target=lambda: sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20), daemon=True
    )
    thread.start()
    thread.join(timeout=20)  # real-time: a bounded join; waiting 3600 s would fail

    assert not thread.is_alive()
    assert (fakesqs.now() - before).total_seconds() == 20
