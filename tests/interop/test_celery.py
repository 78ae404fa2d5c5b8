"""A Celery worker on SQS, served by the fake in-process with nothing but the fixture.

No endpoint_url, no broker URL change, no task_always_eager: `sqs://` as in production, and
Celery's own embedded test worker (`start_worker`), on the default frozen clock and on the
system clock. The worker polls through kombu's asynchronous HTTP client (tests/transport/
test_kombu_http.py); acks and sends go through boto3.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator

import boto3
import celery.contrib.testing.tasks  # noqa: F401  registers celery.ping, start_worker's check
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

from pytest_fakesqs import FakeSQS

# real-time: the longest a test waits for the worker thread to do something; never reached
DEADLINE = 30.0
CLOCKS = pytest.mark.parametrize(
    "fakesqs_clock", ["frozen", "system"], ids=["frozen clock", "system clock"]
)


@pytest.fixture
def fakesqs_clock() -> str:
    return "frozen"


@pytest.fixture
def fake(request: pytest.FixtureRequest, fakesqs_clock: str) -> FakeSQS:
    """The `fakesqs` fixture, on the clock the test is parametrized with."""
    request.applymarker(pytest.mark.fakesqs(clock=fakesqs_clock))
    fakesqs: FakeSQS = request.getfixturevalue("fakesqs")
    return fakesqs


@pytest.fixture
def app(request: pytest.FixtureRequest) -> Iterator[Celery]:
    """A Celery app as a project configures one for SQS; the result backend for `.get()`."""
    celery_app = Celery(
        request.node.name, broker="sqs://", backend="cache+memory://", set_as_current=False
    )
    if os.environ.get("FAKESQS_KOMBU_CLIENT") == "Urllib3Client":
        # kombu 5.5's client long-polls on the worker's own thread, as on SQS: on the system
        # clock a worker's exit waits its poll out, and start_worker allows 10 s for that.
        celery_app.conf.broker_transport_options = {"wait_time_seconds": 1}
    yield celery_app
    celery_app.close()


def wait_for(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, "the worker never got there"
        time.sleep(0.01)  # real-time: the worker runs in its own thread


def kombu_polls() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "fakesqs-kombu-receive"]


@CLOCKS
@pytest.mark.parametrize("pool", ["solo", "threads"])
def test_the_worker_runs_the_task_and_deletes_its_message(
    fake: FakeSQS, app: Celery, pool: str
) -> None:
    @app.task(shared=False)
    def add(x: int, y: int) -> int:
        return x + y

    with start_worker(app, pool=pool):
        assert add.delay(2, 3).get(timeout=DEADLINE) == 5

    backlog = fake.queue("celery").backlog()
    assert (backlog.count, backlog.in_flight) == (0, 0)
    receives = fake.calls("ReceiveMessage")
    assert receives, "the worker's receives are in the call log"
    assert {call.params["QueueUrl"] for call in receives} == {fake.queue("celery").url}
    assert fake.calls("DeleteMessage")


def test_visibility_timeout_and_wait_time_seconds_act_as_on_sqs(fake: FakeSQS, app: Celery) -> None:
    app.conf.broker_transport_options = {"visibility_timeout": 45, "wait_time_seconds": 3}
    app.conf.task_acks_late = True
    started, release = threading.Event(), threading.Event()

    @app.task(shared=False)
    def slow() -> None:
        started.set()
        release.wait(DEADLINE)

    with start_worker(app, pool="threads", perform_ping_check=False):
        slow.delay()
        assert started.wait(DEADLINE)
        [in_flight] = fake.queue("celery").in_flight()
        visible_again = (in_flight.visible_at - fake.now()).total_seconds()
        release.set()

    sqs = boto3.client("sqs", region_name="us-east-1")
    attributes = sqs.get_queue_attributes(
        QueueUrl=fake.queue("celery").url, AttributeNames=["VisibilityTimeout"]
    )["Attributes"]
    assert attributes == {"VisibilityTimeout": "45"}  # the queue kombu created
    assert 0 < visible_again <= 45
    assert {call.params.get("WaitTimeSeconds") for call in fake.calls("ReceiveMessage")} == {3}


@CLOCKS
@pytest.mark.fakesqs(
    queues={
        "celery": {"VisibilityTimeout": 30, "dlq": "celery-dlq", "max_receive_count": 3},
        "celery-dlq": {},
    }
)
def test_a_failing_acks_late_task_returns_after_the_visibility_timeout_then_dead_letters(
    fake: FakeSQS, app: Celery
) -> None:
    app.conf.task_acks_late = True
    app.conf.task_acks_on_failure_or_timeout = False  # a failure leaves the message to SQS
    runs: list[float] = []

    @app.task(shared=False)
    def poison() -> None:
        runs.append(fake.now().timestamp())
        raise ValueError("poison")

    with start_worker(app, pool="solo", perform_ping_check=False):
        poison.delay()
        for attempt in (1, 2, 3):
            wait_for(lambda attempt=attempt: len(runs) == attempt)  # type: ignore[misc]
            fake.advance(30)  # the visibility timeout: SQS hands the message out again
        wait_for(lambda: bool(fake.dead_letters()))

    assert len(runs) == 3
    assert runs[1] - runs[0] >= 30 and runs[2] - runs[1] >= 30
    [dead] = fake.dead_letters("celery-dlq")
    assert dead.receive_count == 3
    fake.assert_dead_lettered("celery", count=1)


@CLOCKS
def test_a_stopped_worker_leaves_no_thread_polling(fake: FakeSQS, app: Celery) -> None:
    @app.task(shared=False)
    def noop() -> None:
        return None

    with start_worker(app, pool="solo"):
        noop.delay().get(timeout=DEADLINE)
    for poll in kombu_polls():
        poll.join(DEADLINE)  # cancelled when the worker's hub closed: ends at once

    assert kombu_polls() == []
    receives = len(fake.calls("ReceiveMessage"))
    assert receives > 0
    fake.advance(60)  # on the frozen clock: time no poll of that worker will ever see
    assert len(fake.calls("ReceiveMessage")) == receives


def test_the_worker_reaches_the_fake_whatever_region_it_was_given(
    fake: FakeSQS, app: Celery
) -> None:
    app.conf.broker_transport_options = {"region": "eu-west-1"}

    @app.task(shared=False)
    def where() -> str:
        return "eu"

    with start_worker(app, pool="solo"):
        assert where.delay().get(timeout=DEADLINE) == "eu"
    [url] = {call.params["QueueUrl"] for call in fake.calls("ReceiveMessage")}
    assert url == "https://sqs.eu-west-1.amazonaws.com/123456789012/celery"
