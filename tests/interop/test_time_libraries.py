"""clock="system" follows freezegun and time-machine, and a long poll under frozen time ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from pytest_fakesqs import fake_sqs

from ..query_era import system_attribute_names

freezegun = pytest.importorskip("freezegun")
time_machine = pytest.importorskip("time_machine")

FROZEN_AT = datetime(2030, 1, 1, tzinfo=UTC)
Shift = Callable[[float], None]


@contextmanager
def frozen_with_freezegun() -> Iterator[Shift]:
    with freezegun.freeze_time(FROZEN_AT) as frozen:
        yield lambda seconds: frozen.tick(seconds)


@contextmanager
def frozen_with_time_machine() -> Iterator[Shift]:
    with time_machine.travel(FROZEN_AT, tick=False) as traveller:
        yield lambda seconds: traveller.shift(seconds)


@pytest.fixture(params=[frozen_with_freezegun, frozen_with_time_machine])
def shift(request: pytest.FixtureRequest) -> Iterator[Shift]:
    with request.param() as shift_time:
        yield shift_time


def sqs_client() -> Any:
    return boto3.client("sqs", region_name="us-east-1")


def test_the_fake_reads_the_frozen_time(shift: Shift) -> None:
    with fake_sqs(clock="system") as fake:
        assert fake.now() == FROZEN_AT
        shift(90)
        assert (fake.now() - FROZEN_AT).total_seconds() == 90


def test_visibility_timeout_follows_the_time_library(shift: Shift) -> None:
    with fake_sqs(clock="system"):
        sqs = sqs_client()
        url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="job")
        first = sqs.receive_message(QueueUrl=url, **system_attribute_names("All"))
        shift(29)
        hidden = sqs.receive_message(QueueUrl=url)
        shift(2)
        again = sqs.receive_message(QueueUrl=url, **system_attribute_names("All"))

    sent_ms = int(first["Messages"][0]["Attributes"]["SentTimestamp"])
    assert sent_ms == int(FROZEN_AT.timestamp() * 1000)
    assert "Messages" not in hidden
    assert again["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2"


@pytest.mark.timeout(10)  # a poll that waited out its 20 seconds of frozen time would hang
def test_a_long_poll_under_frozen_time_returns_empty_without_moving_time(shift: Shift) -> None:
    with fake_sqs(clock="system") as fake:
        sqs = sqs_client()
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        answer = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
        assert "Messages" not in answer
        assert fake.now() == FROZEN_AT


@pytest.mark.timeout(10)
def test_a_long_poll_under_frozen_time_returns_a_message_already_there(shift: Shift) -> None:
    with fake_sqs(clock="system"):
        sqs = sqs_client()
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="ready")
        answer = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
    assert [m["Body"] for m in answer["Messages"]] == ["ready"]


@pytest.mark.timeout(10)
def test_a_delayed_message_appears_once_the_library_moves_time(shift: Shift) -> None:
    with fake_sqs(clock="system"):
        sqs = sqs_client()
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=60)
        early = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
        shift(60)
        late = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
    assert "Messages" not in early
    assert [m["Body"] for m in late["Messages"]] == ["later"]
