"""fakesqs.run_until_idle(step): drain, jump to the next receivable moment, stop when idle."""

from __future__ import annotations

import threading
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, IdleReport
from pytest_fakesqs.fake.facade import core_of

DECLARED = {
    "orders": {"VisibilityTimeout": 30, "dlq": "orders-dlq", "max_receive_count": 3},
    "orders-dlq": {},
    "results": {},
}


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


class Consumer:
    """Handles what it receives; a "poison" body raises, so it is left for SQS to redeliver."""

    def __init__(self, fakesqs: FakeSQS, queue: str = "orders", wait_seconds: int = 0) -> None:
        self.sqs = client()
        self.url = fakesqs.queue(queue).url
        self.results = fakesqs.queue("results").url if "results" in _names(fakesqs) else None
        self.wait_seconds = wait_seconds
        self.polls = 0

    def poll_once(self) -> None:
        self.polls += 1
        reply = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=10, WaitTimeSeconds=self.wait_seconds
        )
        for message in reply.get("Messages", []):
            if message["Body"] == "poison":
                continue
            if self.results is not None:
                self.sqs.send_message(QueueUrl=self.results, MessageBody=message["Body"])
            self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=message["ReceiptHandle"])


def _names(fakesqs: FakeSQS) -> set[str]:
    return {queue.name for queue in core_of(fakesqs).broker.queues()}


def send(fakesqs: FakeSQS, queue: str, *bodies: str) -> list[str]:
    sqs, url = client(), fakesqs.queue(queue).url
    return [sqs.send_message(QueueUrl=url, MessageBody=b)["MessageId"] for b in bodies]


@pytest.mark.fakesqs(queues=DECLARED)
def test_it_drains_jumps_and_stops_with_the_dead_letter_queue_intact(fakesqs: FakeSQS) -> None:
    send(fakesqs, "orders", "a", "poison", "b")
    consumer = Consumer(fakesqs)

    report = fakesqs.run_until_idle(consumer.poll_once)

    assert isinstance(report, IdleReport)
    # Receives at +0s, +30s, +60s; the fourth receive (+90s) moves the poison message.
    assert (report.steps, report.elapsed) == (4, 90)
    assert (report.received, report.deleted, report.dead_lettered) == (5, 2, 1)
    assert report.queues == ("orders",)  # results and orders-dlq: nobody receives from them
    assert str(report) == (
        "4 steps over 90 virtual seconds: 5 received, 2 deleted, 1 dead-lettered (watching orders)"
    )
    assert fakesqs.queue("orders-dlq").bodies() == ["poison"]
    assert fakesqs.queue("results").bodies() == ["a", "b"]
    assert (
        fakesqs.now() - fakesqs.history(fakesqs.dead_letters()[0].message_id)[0].at
    ).seconds == 90


@pytest.mark.fakesqs(queues=DECLARED)
def test_nothing_to_do_is_one_step_and_no_time(fakesqs: FakeSQS) -> None:
    report = fakesqs.run_until_idle(Consumer(fakesqs).poll_once)
    assert (report.steps, report.elapsed, report.received) == (1, 0, 0)


@pytest.mark.fakesqs(duplicate_delivery=1.0, seed=3)
def test_it_drains_before_it_jumps_so_an_injected_duplicate_is_received(
    fakesqs: FakeSQS,
) -> None:
    fakesqs.create_queue("orders")
    fakesqs.create_queue("results")
    send(fakesqs, "orders", "a", "b")
    consumer = Consumer(fakesqs)

    report = fakesqs.run_until_idle(consumer.poll_once)

    # Each message came once more (same id) and was received and deleted again: none expired.
    assert (report.received, report.deleted, report.elapsed) == (4, 4, 0)
    assert fakesqs.queue("results").bodies() == ["a", "b", "a", "b"]
    assert fakesqs.queue("orders").bodies() == []


def test_it_never_jumps_to_a_retention_expiry(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders", VisibilityTimeout=30)
    fakesqs.create_queue("results", MessageRetentionPeriod=60)
    send(fakesqs, "orders", "a")
    report = fakesqs.run_until_idle(Consumer(fakesqs).poll_once)
    assert report.elapsed == 0
    assert fakesqs.queue("results").bodies() == ["a"]  # would expire at +60s


def test_delays_and_visibility_lapses_are_jumped_to(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("orders", VisibilityTimeout=30)
    fakesqs.create_queue("results")
    sqs = client()
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=45)
    sqs.send_message(QueueUrl=url, MessageBody="now")
    failed_once: set[str] = set()

    def step() -> None:
        for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            if m["Body"] == "now" and not failed_once:
                failed_once.add(m["MessageId"])  # fails once: back at +30s
                continue
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])

    report = fakesqs.run_until_idle(step)
    assert (report.steps, report.elapsed, report.received, report.deleted) == (3, 45, 3, 2)


def test_a_message_that_keeps_coming_back_ends_it_after_max_steps(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("jobs")
    (message_id,) = send(fakesqs, "jobs", "poison")
    sqs, url = client(), fakesqs.queue("jobs").url

    with pytest.raises(AssertionError) as raised:
        fakesqs.run_until_idle(lambda: sqs.receive_message(QueueUrl=url), max_steps=50)

    assert str(raised.value) == (
        "run_until_idle: not idle after max_steps=50 steps (0:24:30 on the virtual clock)\n"
        f"the message that keeps coming back: {message_id} in jobs, received 50 times by "
        "step() and never deleted, body 'poison'\n"
        "jobs has no redrive policy, so nothing takes the message away: give it one (e.g. "
        '@pytest.mark.fakesqs(queues={"jobs": {"dlq": "jobs-dlq", "max_receive_count": 5}, '
        '"jobs-dlq": {}})), or make step() delete what it handled'
    )
    assert isinstance(raised.value, RuntimeError)


def test_the_default_max_steps_stops_a_poison_message_well_before_retention(
    fakesqs: FakeSQS,
) -> None:
    fakesqs.create_queue("jobs")
    send(fakesqs, "jobs", "poison")

    def handler(event: dict[str, Any]) -> None:
        raise ValueError("poison")

    # A trigger-style step (no botocore round trip) keeps 10,000 steps quick.
    with pytest.raises(AssertionError) as raised:
        fakesqs.run_until_idle(lambda: fakesqs.trigger("jobs", handler, max_invocations=1))
    # 10,000 receives 30 s apart: about 3.5 of the 4 days of retention.
    assert str(raised.value).splitlines()[0] == (
        "run_until_idle: not idle after max_steps=10000 steps (3 days, 11:19:30 on the virtual "
        "clock)"
    )
    assert fakesqs.queue("jobs").bodies() == ["poison"]  # still there to look at


def test_a_redrive_policy_too_generous_for_max_steps_is_named(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("jobs-dlq")
    arn = fakesqs.queue("jobs-dlq").arn
    url = fakesqs.create_queue(
        "jobs", RedrivePolicy=f'{{"deadLetterTargetArn": "{arn}", "maxReceiveCount": 1000}}'
    )
    send(fakesqs, "jobs", "poison")
    sqs = client()
    with pytest.raises(AssertionError) as raised:
        fakesqs.run_until_idle(lambda: sqs.receive_message(QueueUrl=url), max_steps=20)
    assert str(raised.value).splitlines()[-1] == (
        "jobs's redrive policy moves a message to jobs-dlq only after 1000 receives: lower "
        "maxReceiveCount or raise max_steps"
    )


def test_a_message_step_received_and_then_saw_expire_is_an_error(fakesqs: FakeSQS) -> None:
    # 1-hour visibility timeout, 2-hour retention: it expires after 2 receives, long before
    # max_steps; the loop must not end quietly with the message gone.
    url = fakesqs.create_queue("jobs", VisibilityTimeout=3600, MessageRetentionPeriod=7200)
    (message_id,) = send(fakesqs, "jobs", "poison")
    sqs = client()
    with pytest.raises(AssertionError) as raised:
        fakesqs.run_until_idle(lambda: sqs.receive_message(QueueUrl=url))
    assert str(raised.value).splitlines()[0] == (
        f"run_until_idle: message {message_id} expired in jobs (its 2:00:00 retention period "
        "ended) after step() received it 2 times without deleting it, body 'poison'"
    )


def test_a_step_that_leaves_a_watched_queue_alone_is_an_error(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("jobs")
    send(fakesqs, "jobs", "waiting")
    calls = []
    with pytest.raises(AssertionError) as raised:
        fakesqs.run_until_idle(lambda: calls.append(1), queues=["jobs"])
    assert len(calls) == 100
    assert str(raised.value) == (
        "run_until_idle: step() received nothing from jobs 100 times running while it held "
        "visible messages (1 now); jobs is watched (named in queues=), so run_until_idle keeps "
        "calling step() until it is drained. Make step() receive from it, or pass queues=[...] "
        "naming only the queues step() consumes"
    )


def test_a_step_that_receives_from_no_queue_is_told_to_name_them(fakesqs: FakeSQS) -> None:
    with pytest.raises(AssertionError, match=r"step\(\) received from no queue of this fake"):
        fakesqs.run_until_idle(lambda: None)


def test_queues_names_the_watched_queues_and_is_checked(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders")
    fakesqs.create_queue("results")
    send(fakesqs, "orders", "a")
    consumer = Consumer(fakesqs)
    report = fakesqs.run_until_idle(consumer.poll_once, queues="orders")
    assert report.queues == ("orders",)
    with pytest.raises(LookupError, match="no queue named 'ordrs'"):
        fakesqs.run_until_idle(consumer.poll_once, queues=["ordrs"])
    with pytest.raises(ValueError, match="max_steps must be a positive integer; got 0"):
        fakesqs.run_until_idle(consumer.poll_once, max_steps=0)


def test_a_fifo_group_blocked_behind_an_in_flight_message_is_waited_for_not_polled(
    fakesqs: FakeSQS,
) -> None:
    url = fakesqs.create_queue("orders.fifo", VisibilityTimeout=30, ContentBasedDeduplication=True)
    sqs = client()
    for body in ("a1", "a2"):
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="a")
    handled: list[str] = []

    def step() -> None:  # takes one message; "a1" fails the first time
        for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1).get("Messages", []):
            if m["Body"] == "a1" and "a1 failed" not in handled:
                handled.append("a1 failed")
                continue
            handled.append(m["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])

    report = fakesqs.run_until_idle(step)
    # a2 is visible all along but blocked behind a1: the run jumps to +30s, it does not poll.
    assert handled == ["a1 failed", "a1", "a2"]
    assert (report.steps, report.elapsed) == (3, 30)


def test_long_polls_in_step_move_the_clock_and_are_counted(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders", VisibilityTimeout=30)
    fakesqs.create_queue("results")
    send(fakesqs, "orders", "a", "poison")
    consumer = Consumer(fakesqs, wait_seconds=20)
    with pytest.raises(AssertionError, match="not idle after max_steps=4 steps"):
        fakesqs.run_until_idle(consumer.poll_once, max_steps=4)
    # Each step receives at once; the run jumps +30s between them; no long poll ever waited.
    assert fakesqs.now().second == 30 and fakesqs.now().minute == 1


def test_an_empty_long_poll_jumps_the_clock_and_the_run_carries_on_from_there(
    fakesqs: FakeSQS,
) -> None:
    url = fakesqs.create_queue("orders")
    fakesqs.create_queue("results")
    client().send_message(QueueUrl=url, MessageBody="late", DelaySeconds=50)
    consumer = Consumer(fakesqs, wait_seconds=20)
    report = fakesqs.run_until_idle(consumer.poll_once)
    # Step 1's empty 20 s long poll jumps to +20s; the run jumps to the delay's end at +50s.
    assert (report.steps, report.elapsed, report.received, report.deleted) == (2, 50, 1, 1)
    assert fakesqs.queue("results").bodies() == ["late"]


def test_a_step_whose_receives_run_in_another_thread_is_watched_too(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders", VisibilityTimeout=30)
    fakesqs.create_queue("results")
    send(fakesqs, "orders", "a", "poison")
    consumer = Consumer(fakesqs)

    def step() -> None:
        worker = threading.Thread(target=consumer.poll_once)  # short polls: no real waiting
        worker.start()
        worker.join()

    with pytest.raises(AssertionError, match=r"keeps coming back: .* in orders"):
        fakesqs.run_until_idle(step, max_steps=3)
    assert fakesqs.queue("results").bodies() == ["a"]


@pytest.mark.fakesqs(queues=DECLARED)
def test_a_trigger_style_handler_runs_one_invocation_per_step(fakesqs: FakeSQS) -> None:
    send(fakesqs, "orders", "a", "poison", "b")
    handled: list[str] = []

    def handler(event: dict[str, Any], context: Any) -> None:
        for record in event["Records"]:
            if record["body"] == "poison":
                raise ValueError("poison")
            handled.append(record["body"])

    report = fakesqs.run_until_idle(
        lambda: fakesqs.trigger("orders", handler, batch_size=1, max_invocations=1)
    )
    assert handled == ["a", "b"]
    assert (report.deleted, report.dead_lettered) == (2, 1)
    assert fakesqs.queue("orders-dlq").bodies() == ["poison"]


def test_a_move_task_into_a_watched_queue_is_waited_for(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders-dlq")
    dlq = fakesqs.queue("orders-dlq")
    fakesqs.create_queue(
        "orders",
        RedrivePolicy=f'{{"deadLetterTargetArn": "{dlq.arn}", "maxReceiveCount": 1}}',
    )
    fakesqs.create_queue("results")
    send(fakesqs, "orders-dlq", "r1", "r2", "r3")
    sqs = client()
    sqs.start_message_move_task(
        SourceArn=dlq.arn,
        DestinationArn=fakesqs.queue("orders").arn,
        MaxNumberOfMessagesPerSecond=1,
    )
    report = fakesqs.run_until_idle(Consumer(fakesqs).poll_once, queues=["orders"])
    assert fakesqs.queue("results").bodies() == ["r1", "r2", "r3"]
    assert (report.received, report.elapsed) == (3, 2)  # one a second: at +0s, +1s, +2s


def test_an_async_step_is_refused_with_a_sentence(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("orders")

    async def poll() -> None:
        pass

    with pytest.raises(TypeError, match=r"step\(\) returned an awaitable, which nothing"):
        fakesqs.run_until_idle(poll, queues=["orders"])


@pytest.mark.fakesqs(queues=DECLARED)
def test_a_handler_with_its_queue_is_invoked_once_per_step(fakesqs: FakeSQS) -> None:
    send(fakesqs, "orders", "a", "poison", "b")
    events: list[list[str]] = []

    def handler(event: dict[str, Any], context: Any) -> None:
        bodies = [record["body"] for record in event["Records"]]
        events.append(bodies)
        if "poison" in bodies:
            raise ValueError("poison")

    report = fakesqs.run_until_idle(handler, queues=["orders"])

    # The whole batch fails while the poison is in it (no partial batch response, as
    # fakesqs.trigger's default): three receives, 30 s apart, then all three are dead-lettered.
    assert events == [["a", "poison", "b"]] * 3
    assert (report.steps, report.elapsed, report.dead_lettered) == (4, 90, 3)
    assert fakesqs.queue("orders-dlq").bodies() == ["a", "poison", "b"]


def test_a_handler_without_its_queue_is_refused_with_a_sentence(fakesqs: FakeSQS) -> None:
    with pytest.raises(TypeError, match=r"step takes an argument, so it is a handler"):
        fakesqs.run_until_idle(lambda event: None)
