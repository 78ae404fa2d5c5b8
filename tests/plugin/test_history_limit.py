"""history_limit: finished messages and calls beyond it are forgotten, oldest first."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, fake_sqs


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def send_and_finish(sqs: Any, url: str, count: int) -> list[str]:
    """Send `count` messages, then receive and delete each; their ids in the order sent."""
    ids = [sqs.send_message(QueueUrl=url, MessageBody=f"m{i}")["MessageId"] for i in range(count)]
    for _ in range(count):
        message = sqs.receive_message(QueueUrl=url)["Messages"][0]
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return ids


def test_unlimited_by_default(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]

    ids = send_and_finish(sqs, url, 30)

    assert fakesqs.options.history_limit is None
    assert all(fakesqs.history(i)[-1].event == "deleted" for i in ids)
    assert len(fakesqs.calls()) == 1 + 30 * 3


@pytest.mark.fakesqs(history_limit=3)
def test_the_oldest_finished_messages_and_calls_are_forgotten(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]

    ids = send_and_finish(sqs, url, 5)

    assert [fakesqs.history(i)[-1].event for i in ids[2:]] == ["deleted"] * 3
    for forgotten in ids[:2]:
        with pytest.raises(LookupError, match=r"forgotten: history_limit=3 .* 2 were forgotten"):
            fakesqs.history(forgotten)
    assert [c.action for c in fakesqs.calls()] == [
        "DeleteMessage",
        "ReceiveMessage",
        "DeleteMessage",
    ]


@pytest.mark.fakesqs(history_limit=1)
def test_messages_still_in_a_queue_are_never_forgotten(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    waiting = sqs.send_message(QueueUrl=url, MessageBody="waits")["MessageId"]
    other = sqs.create_queue(QueueName="other")["QueueUrl"]

    send_and_finish(sqs, other, 4)

    assert [e.event for e in fakesqs.history(waiting)] == ["sent"]


@pytest.mark.fakesqs(history_limit=2, queues={"jobs": {"MessageRetentionPeriod": 60}})
def test_expired_and_purged_messages_count_as_finished(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = fakesqs.queue("jobs").url
    expired = [sqs.send_message(QueueUrl=url, MessageBody="e")["MessageId"] for _ in range(2)]
    fakesqs.advance(61)
    fakesqs.queue("jobs").backlog()  # expiry is applied on access
    purged = [sqs.send_message(QueueUrl=url, MessageBody="p")["MessageId"] for _ in range(2)]

    sqs.purge_queue(QueueUrl=url)

    assert [fakesqs.history(i)[-1].event for i in purged] == ["purged", "purged"]
    for message_id in expired:
        with pytest.raises(LookupError):
            fakesqs.history(message_id)


@pytest.mark.fakesqs(
    history_limit=2,
    queues={"jobs": {"dlq": "jobs-dlq", "max_receive_count": 1}, "jobs-dlq": {}},
)
def test_dead_letters_keep_the_latest_within_the_limit(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = fakesqs.queue("jobs").url
    for i in range(4):
        sqs.send_message(QueueUrl=url, MessageBody=f"dead {i}")
        sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)
        sqs.receive_message(QueueUrl=url)  # over maxReceiveCount: moved

    letters = fakesqs.dead_letters()

    assert [d.body for d in letters] == ["dead 2", "dead 3"]
    assert len(fakesqs.assert_dead_lettered(count=2)) == 2


def test_fake_sqs_takes_the_option_and_refuses_a_negative_one() -> None:
    with fake_sqs(history_limit=0) as fake:
        sqs = client()
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        (message_id,) = send_and_finish(sqs, url, 1)
        with pytest.raises(LookupError):
            fake.history(message_id)
        assert fake.calls() == []
    with pytest.raises(ValueError, match=r"^history_limit must be >= 0"):
        fake_sqs(history_limit=-1)


def test_the_ini_option_sets_it_for_every_test(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_history_limit = 5\n")
    pytester.makepyfile(
        """
        def test_configured(fakesqs):
            assert fakesqs.options.history_limit == 5
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
