"""Backlog alerts driven by the virtual clock: no waiting five minutes for a page."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS

from .alerts import Alert, Thresholds, evaluate


@pytest.fixture
def sqs(fakesqs: FakeSQS) -> Any:
    return boto3.client("sqs", region_name="us-east-1")


def test_an_idle_queue_is_ok(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("matches")
    assert evaluate("matches", fakesqs.queue("matches").backlog()) == Alert(
        "ok", "matches: 0 messages, 0 bytes, oldest waiting 0s"
    )


def test_oldest_age_escalates_from_warn_to_page_and_clears(fakesqs: FakeSQS, sqs: Any) -> None:
    url = fakesqs.create_queue("matches")
    for player in ("ann", "bob", "cid"):
        sqs.send_message(QueueUrl=url, MessageBody=f"match-request:{player}")  # 17 bytes each
    queue = fakesqs.queue("matches")

    fakesqs.advance(59)
    assert evaluate("matches", queue.backlog()).level == "ok"
    fakesqs.advance(1)
    assert evaluate("matches", queue.backlog()) == Alert(
        "warn", "matches: 3 messages, 51 bytes, oldest waiting 60s"
    )
    fakesqs.advance(240)
    assert evaluate("matches", queue.backlog()).level == "page"

    while messages := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
        for message in messages:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    assert evaluate("matches", queue.backlog()).level == "ok"


def test_in_flight_messages_still_count_as_waiting(fakesqs: FakeSQS, sqs: Any) -> None:
    """A consumer that received but has not finished does not make the players' wait shorter."""
    url = fakesqs.create_queue("matches", VisibilityTimeout=600)
    sqs.send_message(QueueUrl=url, MessageBody="match-request:ann")
    sqs.receive_message(QueueUrl=url)  # a consumer took it and is stuck
    fakesqs.advance(120)
    backlog = fakesqs.queue("matches").backlog()
    assert (backlog.count, backlog.in_flight) == (1, 1)
    assert evaluate("matches", backlog).level == "warn"


def test_a_consumer_at_half_the_arrival_rate_pages_after_ten_minutes(
    fakesqs: FakeSQS, sqs: Any
) -> None:
    """One request a second, one handled every two seconds: the oldest request has waited
    about half the elapsed time, so the warning comes at ~2 minutes and the page at ~10."""
    url = fakesqs.create_queue("matches")
    first_seen: dict[str, int] = {}
    for second in range(700):
        sqs.send_message(QueueUrl=url, MessageBody=f"match-request:{second}")
        if second % 2 == 1:
            message = sqs.receive_message(QueueUrl=url)["Messages"][0]
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        level = evaluate("matches", fakesqs.queue("matches").backlog(), Thresholds()).level
        first_seen.setdefault(level, second)
        fakesqs.advance(1)
    assert first_seen == {"ok": 0, "warn": 120, "page": 600}
