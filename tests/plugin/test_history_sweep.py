"""The message log turns each message deleted for good into a plain Story (so the garbage
collector stops scanning it): histories, the report and the dead-letter book read the same."""

from __future__ import annotations

import gc
from typing import Any

import boto3
import pytest

from pytest_fakesqs import _history, fake_sqs


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def test_a_swept_message_tells_the_same_story(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_history, "SWEEP_EVERY", 4)  # sweep at the fourth send
    with fake_sqs() as fake:
        sqs = client()
        url = fake.create_queue("work")
        dlq = fake.create_queue("dlq")
        ids = [sqs.send_message(QueueUrl=url, MessageBody=b)["MessageId"] for b in "abc"]
        got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        by_body = {m["Body"]: m for m in got}
        sqs.delete_message(QueueUrl=url, ReceiptHandle=by_body["a"]["ReceiptHandle"])
        before = [(e.event, e.detail) for e in fake.history(ids[0])]
        sqs.send_message(QueueUrl=dlq, MessageBody="d")  # the fourth: sweeps

        log = fake.message_log
        assert log.not_deleted() == [*ids[1:], log.message_ids()[-1]]
        story = log._first[ids[0]]
        assert isinstance(story, tuple)
        for _ in range(3):  # a pass untracks a tuple once its members are: a level a pass
            gc.collect()
        assert not gc.is_tracked(story)  # nothing in it for the collector to follow
        assert [(e.event, e.detail) for e in fake.history(ids[0])] == before
        assert [e.event for e in fake.history(ids[0])] == ["sent", "received", "deleted"]
        with pytest.raises(LookupError, match="was deleted"):
            log.latest(ids[0])
        assert log.latest(ids[1])[0] == "work"  # still in flight: still a message

        # A message deleted after the sweep is swept by a later one.
        sqs.delete_message(QueueUrl=url, ReceiptHandle=by_body["b"]["ReceiptHandle"])
        for body in "efgh":
            sqs.send_message(QueueUrl=dlq, MessageBody=body)
        assert isinstance(log._first[ids[1]], tuple)
        assert ids[1] not in log.not_deleted()
        assert ids[2] in log.not_deleted()
