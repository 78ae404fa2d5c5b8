"""The message log turns each message deleted for good into a plain Story, as it is deleted
(so the garbage collector stops scanning it): histories, the report and the dead-letter book
read the same."""

from __future__ import annotations

import gc
from typing import Any

import boto3
import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.fake.facade import core_of


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def test_a_deleted_message_tells_the_same_story_as_a_story() -> None:
    with fake_sqs() as fake:
        sqs = client()
        url = fake.create_queue("work")
        ids = [sqs.send_message(QueueUrl=url, MessageBody=b)["MessageId"] for b in "abc"]
        got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        by_body = {m["Body"]: m for m in got}
        log = core_of(fake).message_log
        before = [(e.event, e.detail) for e in fake.history(ids[0])]
        assert not isinstance(log._first[ids[0]], tuple)  # received, not deleted: a message
        sqs.delete_message(QueueUrl=url, ReceiptHandle=by_body["a"]["ReceiptHandle"])

        assert log.not_deleted() == ids[1:]
        story = log._first[ids[0]]
        assert isinstance(story, tuple)
        for _ in range(3):  # a pass untracks a tuple once its members are: a level a pass
            gc.collect()
        assert not gc.is_tracked(story)  # nothing in it for the collector to follow
        assert [(e.event, e.detail) for e in fake.history(ids[0])][:2] == before
        assert [e.event for e in fake.history(ids[0])] == ["sent", "received", "deleted"]
        with pytest.raises(LookupError, match="was deleted"):
            log.latest(ids[0])
        assert log.latest(ids[1])[0] == "work"  # still in flight: still a message

        # A batch delete turns each of its messages into a Story too.
        sqs.delete_message_batch(
            QueueUrl=url,
            Entries=[{"Id": "b", "ReceiptHandle": by_body["b"]["ReceiptHandle"]}],
        )
        assert isinstance(log._first[ids[1]], tuple)
        assert ids[1] not in log.not_deleted()
        assert ids[2] in log.not_deleted()


def test_a_dead_lettered_message_keeps_its_copies_when_the_copy_is_deleted() -> None:
    with fake_sqs() as fake:
        sqs = client()
        dlq = fake.create_queue("dlq")
        arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        url = fake.create_queue(
            "work", RedrivePolicy=f'{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"1"}}'
        )
        message_id = sqs.send_message(QueueUrl=url, MessageBody="x")["MessageId"]
        sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)
        assert sqs.receive_message(QueueUrl=url).get("Messages") is None  # moved on this one
        copy = sqs.receive_message(QueueUrl=dlq)["Messages"][0]
        sqs.delete_message(QueueUrl=dlq, ReceiptHandle=copy["ReceiptHandle"])
        events = [(e.queue, e.event) for e in fake.history(message_id)]
        assert events[0] == ("work", "sent")
        assert events[-1] == ("dlq", "deleted")
        assert ("work", "moved to dead-letter queue") in events
