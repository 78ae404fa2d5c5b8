"""The chat broadcast worker on the YMQ flavor, driven by a YMQ trigger on the virtual clock."""

from __future__ import annotations

import json

import pytest

from pytest_fakesqs import FakeSQS

from .chat import Broadcaster, publish, ymq_client

pytestmark = pytest.mark.fakesqs(flavor="ymq")

ROOMS = {"general": ["conn-ann", "conn-bob"], "random": ["conn-bob"]}


def create_queues(visibility_timeout: int = 30) -> str:
    """The queue and its dead-letter queue, as the deployment creates them."""
    ymq = ymq_client()
    dlq_url = ymq.create_queue(QueueName="chat-dlq")["QueueUrl"]
    dlq_arn = ymq.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    policy = {"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 5}
    url: str = ymq.create_queue(
        QueueName="chat",
        Attributes={
            "VisibilityTimeout": str(visibility_timeout),
            "RedrivePolicy": json.dumps(policy),
        },
    )["QueueUrl"]
    return url


def test_messages_reach_every_member_of_the_room(fakesqs: FakeSQS) -> None:
    url = create_queues()
    publish(url, request_id="r1", room="general", author="ann", text="hi all")
    publish(url, request_id="r2", room="random", author="bob", text="anyone?")
    worker = Broadcaster(ROOMS)

    report = fakesqs.trigger(url, worker.handler, shape="ymq")

    assert worker.sent == {
        "conn-ann": ["ann: hi all"],
        "conn-bob": ["ann: hi all", "bob: anyone?"],
    }
    assert (report.invocations, report.messages_processed, report.stopped) == (1, 2, "drained")


def test_a_redelivered_request_is_broadcast_once(fakesqs: FakeSQS) -> None:
    url = create_queues()
    publish(url, request_id="r1", room="general", author="ann", text="hi")
    publish(url, request_id="r1", room="general", author="ann", text="hi")  # the API retried
    worker = Broadcaster(ROOMS)

    fakesqs.trigger(url, worker.handler, shape="ymq")

    assert worker.runs == 2
    assert worker.sent["conn-ann"] == ["ann: hi"]


def test_a_poison_message_reaches_the_dlq_after_five_receives(fakesqs: FakeSQS) -> None:
    url = create_queues(visibility_timeout=30)
    publish(url, request_id="r1", room="no-such-room", author="eve", text="boom")
    publish(url, request_id="r2", room="general", author="ann", text="still works")
    worker = Broadcaster(ROOMS)

    report = fakesqs.trigger(url, worker.handler, shape="ymq", batch_size=1)

    assert worker.sent["conn-ann"] == ["ann: still works"]
    assert report.dead_lettered == 1
    assert report.failed_invocations == 5  # received 5 times; the 6th receive moves it
    assert report.errors[0] == "invocation 1: UnknownRoom('no-such-room')"
    (dead,) = fakesqs.queue("chat-dlq").messages()
    assert json.loads(dead.body)["room"] == "no-such-room"
    assert dead.receive_count == 5


@pytest.mark.parametrize(("visibility_timeout", "runs"), [(1, 2), (30, 1)])
def test_visibility_timeout_shorter_than_the_job_means_a_second_delivery(
    fakesqs: FakeSQS, visibility_timeout: int, runs: int
) -> None:
    """A 2-second job under a 1-second visibility timeout is delivered again while (here:
    after) it runs; idempotency keeps the broadcast single. With 30 seconds it runs once."""
    url = create_queues(visibility_timeout=visibility_timeout)
    publish(url, request_id="r1", room="random", author="bob", text="slow one")
    worker = Broadcaster(ROOMS, work=fakesqs.advance, job_seconds=2)

    report = fakesqs.trigger(url, worker.handler, shape="ymq")

    assert worker.runs == runs
    assert report.retries == runs - 1
    assert worker.sent["conn-bob"] == ["bob: slow one"]
    assert len(fakesqs.queue(url)) == 0
