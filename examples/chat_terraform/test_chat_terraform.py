"""The chat broadcast worker against the queues its Terraform declares, on the YMQ flavor.

`queues_from` reads infra/queues.tf: the tests see the visibility timeout, the long poll and
the redrive policy production has, and a change there reaches them without a second copy.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from pytest_fakesqs import FakeSQS

from ..chat.chat import Broadcaster, publish, ymq_client  # the service of examples/chat

INFRA = Path(__file__).parent / "infra" / "queues.tf"
pytestmark = pytest.mark.fakesqs(flavor="ymq", queues_from=INFRA)

ROOMS = {"general": ["conn-ann", "conn-bob"], "random": ["conn-bob"]}


def queue_url(name: str = "chat") -> str:
    url: str = ymq_client().get_queue_url(QueueName=name)["QueueUrl"]
    return url


def test_the_queues_have_the_settings_terraform_applies(fakesqs: FakeSQS) -> None:
    chat = fakesqs.queue("chat").attributes

    assert chat["VisibilityTimeout"] == "30"
    assert chat["ReceiveMessageWaitTimeSeconds"] == "10"
    assert json.loads(chat["RedrivePolicy"]) == {
        "deadLetterTargetArn": fakesqs.queue("chat-dlq").arn,
        "maxReceiveCount": 5,
    }
    assert fakesqs.queue("chat-dlq").attributes["MessageRetentionPeriod"] == "1209600"


def test_messages_reach_every_member_of_the_room(fakesqs: FakeSQS) -> None:
    url = queue_url()
    publish(url, request_id="r1", room="general", author="ann", text="hi all")
    publish(url, request_id="r2", room="random", author="bob", text="anyone?")
    worker = Broadcaster(ROOMS)

    report = fakesqs.trigger(url, worker.handler, shape="ymq")

    assert worker.sent == {
        "conn-ann": ["ann: hi all"],
        "conn-bob": ["ann: hi all", "bob: anyone?"],
    }
    assert (report.invocations, report.messages_processed) == (1, 2)


def test_a_poison_message_is_dead_lettered_after_the_receives_terraform_allows(
    fakesqs: FakeSQS,
) -> None:
    url = queue_url()
    publish(url, request_id="r1", room="no-such-room", author="eve", text="boom")
    worker = Broadcaster(ROOMS)

    report = fakesqs.trigger(url, worker.handler, shape="ymq", batch_size=1)

    assert report.failed_invocations == 5  # maxReceiveCount = var.max_receives
    (dead,) = fakesqs.assert_dead_lettered("chat", match="no-such-room", count=1)
    assert dead.receive_count == 5


def test_an_empty_receive_long_polls_for_the_queues_10_seconds_at_once(fakesqs: FakeSQS) -> None:
    before = fakesqs.now()

    response = ymq_client().receive_message(QueueUrl=queue_url())  # no WaitTimeSeconds given

    assert response.get("Messages", []) == []
    assert fakesqs.now() - before == timedelta(seconds=10)  # the queue's long poll, no sleep


@pytest.mark.fakesqs(queues_from_vars={"environment": "staging", "max_receives": 2})
def test_variables_choose_another_environment(fakesqs: FakeSQS) -> None:
    staging = fakesqs.queue("chat-staging").attributes

    assert json.loads(staging["RedrivePolicy"]) == {
        "deadLetterTargetArn": fakesqs.queue("chat-staging-dlq").arn,
        "maxReceiveCount": 2,
    }
