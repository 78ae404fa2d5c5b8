"""The time.sleep hint: an empty receive after real time passed on a clock that stood still.

Real time is a controllable source here (`core_of(fakesqs).sleep_watch.real_time`): the suite never
sleeps to prove that sleeping does not help.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.plugin.report import report_section


class RealTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


@pytest.fixture
def real_time(fakesqs: FakeSQS) -> RealTime:
    source = RealTime()
    core_of(fakesqs).sleep_watch.real_time = source
    return source


def retried_job(fakesqs: FakeSQS) -> tuple[Any, str]:
    sqs = client()
    url = fakesqs.create_queue("jobs", VisibilityTimeout=30)
    sqs.send_message(QueueUrl=url, MessageBody="job")
    sqs.receive_message(QueueUrl=url)  # the worker fails: no delete
    return sqs, url


def test_an_empty_receive_after_a_real_wait_on_a_still_clock_gets_a_hint(
    fakesqs: FakeSQS, real_time: RealTime
) -> None:
    sqs, url = retried_job(fakesqs)
    real_time.now += 31  # what a 31-second sleep does to real time
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    assert report_section(fakesqs, verbose=False).splitlines()[1] == (
        "hint: a receive came back empty after the test's thread spent 31.0s of real time while "
        "the fake's clock stood still: sleeping does not move the fake's clock, "
        "fakesqs.advance(...) does (here: fakesqs.advance(31))"
    )


@pytest.mark.parametrize(
    ("real_seconds", "virtual_seconds", "hinted"),
    [(0.9, 0, False), (31, 31, False), (1.1, 0, True)],
    ids=["under a second", "the clock moved", "over a second"],
)
def test_the_hint_needs_over_a_second_of_real_time_and_a_clock_that_stood_still(
    fakesqs: FakeSQS, real_time: RealTime, real_seconds: float, virtual_seconds: float, hinted: bool
) -> None:
    sqs, url = retried_job(fakesqs)
    real_time.now += real_seconds
    fakesqs.advance(virtual_seconds)
    sqs.receive_message(QueueUrl=url)
    assert (core_of(fakesqs).sleep_watch.hint is not None) is hinted


def test_a_receive_that_finds_messages_or_a_consumer_threads_wait_is_no_hint(
    fakesqs: FakeSQS, real_time: RealTime
) -> None:
    sqs = client()
    url = fakesqs.create_queue("jobs")
    sqs.send_message(QueueUrl=url, MessageBody="job")
    real_time.now += 5
    assert sqs.receive_message(QueueUrl=url)["Messages"]  # found one: nothing to hint
    elsewhere = threading.Thread(target=lambda: sqs.receive_message(QueueUrl=url))
    real_time.now += 5
    elsewhere.start()  # a consumer thread's short poll: its real time is its own business
    elsewhere.join()
    assert core_of(fakesqs).sleep_watch.hint is None


@pytest.mark.fakesqs(clock="real")
def test_on_a_wall_clock_sleeping_does_move_time_so_there_is_no_hint(
    fakesqs: FakeSQS, real_time: RealTime
) -> None:
    sqs, url = retried_job(fakesqs)
    real_time.now += 31
    sqs.receive_message(QueueUrl=url)
    assert core_of(fakesqs).sleep_watch.hint is None


def test_real_time_is_the_monotonic_clock_by_default(fakesqs: FakeSQS) -> None:
    assert core_of(fakesqs).sleep_watch.real_time is time.monotonic


def test_a_failing_test_that_slept_is_told_to_advance(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import boto3
        from pytest_fakesqs.fake.facade import core_of

        def test_retry_after_the_visibility_timeout(fakesqs):
            real = [0.0]
            core_of(fakesqs).sleep_watch.real_time = lambda: real[0]  # stands in for a 31-second sleep
            sqs = boto3.client("sqs", region_name="us-east-1",
                               aws_access_key_id="a", aws_secret_access_key="b")
            url = fakesqs.create_queue("jobs", VisibilityTimeout=30)
            sqs.send_message(QueueUrl=url, MessageBody="job")
            sqs.receive_message(QueueUrl=url)
            real[0] += 31
            sqs.receive_message(QueueUrl=url)["Messages"]
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *KeyError: 'Messages'",
            "*- fakesqs -*",
            "clock frozen at *",
            "hint: a receive came back empty after the test's thread spent 31.0s of real time "
            "while the fake's clock stood still: sleeping does not move the fake's clock, "
            "fakesqs.advance(...) does (here: fakesqs.advance(31))",
        ]
    )
