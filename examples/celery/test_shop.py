"""A Celery app on SQS tested with its real worker: the `fakesqs` fixture and nothing else.

No endpoint, no broker URL change, no `task_always_eager`: `start_worker` runs Celery's own
worker in a thread, and it polls the fake through kombu exactly as it polls SQS. On the default
frozen clock nothing waits for real: the tests move time with `fakesqs.advance()`, and the
worker's empty long polls (made from its own thread) jump it too, after a 50 ms pause.

The third test is the classic production bug: a task that runs longer than the queue's
visibility timeout is handed out again while it still runs, and runs twice. Here it takes
milliseconds, and the fourth test proves the fix (a visibility timeout longer than the task).

Why not the ETA / countdown variant of that bug (`apply_async(countdown=600)` past the
visibility timeout)? The worker holds such a task on kombu's timer, which counts
`time.monotonic()`: no virtual clock can move it, so the second run would come 600 real
seconds later. The redelivery itself does show on the virtual clock; the last test stops there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_failure

from pytest_fakesqs import FakeSQS

from . import shop

# The worker runs the queue's virtual-clock semantics: a real endpoint would really wait.
pytestmark = [pytest.mark.fakesqs(queues=shop.QUEUES), pytest.mark.fakesqs_only]
SHORT_VISIBILITY = {**shop.QUEUES, shop.QUEUE: {**shop.QUEUES[shop.QUEUE], "VisibilityTimeout": 30}}


@pytest.fixture(autouse=True)
def empty_stores() -> Iterator[None]:
    shop.charged.clear()
    shop.reports.clear()
    yield


def wait_until(done: Callable[[], object]) -> None:
    """The worker is another thread: give it (real) time, but never more than 30 seconds."""
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, "the worker never got there"
        time.sleep(0.01)  # real-time: waiting for the worker thread, not for SQS


def sent_message_id(fakesqs: FakeSQS) -> str:
    [send] = fakesqs.calls("SendMessage")
    assert send.result is not None
    return str(send.result["MessageId"])


def receives_of(fakesqs: FakeSQS, message_id: str) -> int:
    return sum(event.event == "received" for event in fakesqs.history(message_id))


def test_an_order_is_charged_and_its_message_deleted(fakesqs: FakeSQS) -> None:
    with start_worker(shop.app, pool="solo", perform_ping_check=False):
        shop.charge.delay("A-1", 25)
        wait_until(lambda: shop.charged)

    assert shop.charged == [("A-1", 25)]
    assert fakesqs.queue(shop.QUEUE).backlog().count == 0  # acked: deleted from SQS


def test_a_poison_order_ends_in_the_dead_letter_queue(fakesqs: FakeSQS) -> None:
    failures: list[object] = []

    def failed(**_: Any) -> None:
        failures.append(fakesqs.now())

    task_failure.connect(failed, weak=False)
    try:
        with start_worker(shop.app, pool="solo", perform_ping_check=False):
            shop.charge.delay("B-2", -5)
            for attempt in (1, 2, 3):
                wait_until(lambda attempt=attempt: len(failures) == attempt)
                fakesqs.advance(300)  # the visibility timeout passes: no real waiting
            wait_until(fakesqs.dead_letters)
    finally:
        task_failure.disconnect(failed)

    assert shop.charged == []
    [dead] = fakesqs.dead_letters(f"{shop.QUEUE}-dlq")
    assert dead.receive_count == 3  # three tries, then the redrive policy moved it
    fakesqs.assert_dead_lettered(shop.QUEUE, count=1)


def taking(seconds: float, fakesqs: FakeSQS, step: Callable[[str], str]) -> Callable[[str], str]:
    """`step`, its first run taking `seconds` of virtual time while the worker keeps polling
    (until SQS hands the message out again, or two more polls found nothing)."""
    runs: list[str] = []

    def slow(month: str) -> str:
        runs.append(month)
        if len(runs) == 1:
            message_id = sent_message_id(fakesqs)
            polls = len(fakesqs.calls("ReceiveMessage"))
            fakesqs.advance(seconds)
            wait_until(
                lambda: (
                    receives_of(fakesqs, message_id) > 1
                    or len(fakesqs.calls("ReceiveMessage")) >= polls + 2
                )
            )
        return step(month)

    return slow


@pytest.mark.fakesqs(queues=SHORT_VISIBILITY)
def test_the_bug_a_report_outlasting_the_visibility_timeout_runs_twice(
    fakesqs: FakeSQS, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shop, "render", taking(45, fakesqs, shop.render))
    with start_worker(shop.app, pool="threads", concurrency=2, perform_ping_check=False):
        shop.monthly_report.delay("2024-01")
        wait_until(lambda: len(shop.reports) == 2)

    assert shop.reports == ["report 2024-01", "report 2024-01"]  # rendered and mailed twice
    assert receives_of(fakesqs, sent_message_id(fakesqs)) == 2  # 30 s in, SQS handed it out again


def test_the_fix_a_visibility_timeout_longer_than_the_task(
    fakesqs: FakeSQS, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shop, "render", taking(45, fakesqs, shop.render))
    with start_worker(shop.app, pool="threads", concurrency=2, perform_ping_check=False):
        shop.monthly_report.delay("2024-02")
        wait_until(lambda: shop.reports and not fakesqs.queue(shop.QUEUE).backlog().count)

    assert shop.reports == ["report 2024-02"]
    assert receives_of(fakesqs, sent_message_id(fakesqs)) == 1


@pytest.mark.fakesqs(queues=SHORT_VISIBILITY)
def test_a_countdown_past_the_visibility_timeout_is_received_twice(fakesqs: FakeSQS) -> None:
    with start_worker(shop.app, pool="solo", perform_ping_check=False):
        shop.charge.apply_async(("C-3", 10), countdown=600)
        message_id = sent_message_id(fakesqs)
        wait_until(lambda: receives_of(fakesqs, message_id) == 1)  # the worker holds it...
        fakesqs.advance(30)  # ...not acked: after the visibility timeout SQS hands it out again
        wait_until(lambda: receives_of(fakesqs, message_id) == 2)

    assert shop.charged == []  # both copies wait for the countdown on kombu's (real) timer
