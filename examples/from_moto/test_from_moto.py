"""Moving a suite from moto's `mock_aws` to pytest-fakesqs: the boto3 code stays the same.

A moto test of a retry waits for real (moto has no clock to move):

    @mock_aws
    def test_retry():
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})[...]
        sqs.send_message(QueueUrl=url, MessageBody="job")
        sqs.receive_message(QueueUrl=url)
        time.sleep(31)  # real-time: moto's version, quoted for contrast (half a minute per run)
        assert sqs.receive_message(QueueUrl=url)["Messages"]

The three changes: `@mock_aws` becomes `@pytest.mark.fakesqs` (or `@fake_sqs()` outside
pytest), the sleep becomes `fakesqs.advance(31)`, and peeking into moto's backend
(`sqs_backends[account][region].queues[...]`) becomes `fakesqs.queue(name)`.
"""

from __future__ import annotations

import unittest

import boto3
import pytest

from pytest_fakesqs import FakeSQS, fake_sqs


@pytest.mark.fakesqs
def test_retry(fakesqs: FakeSQS) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="job")
    sqs.receive_message(QueueUrl=url)
    fakesqs.advance(31)  # was a real 31-second sleep under moto
    assert sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"] == "job"


@pytest.mark.fakesqs_only  # peeks at delayed messages: only the fake can
def test_peeking_replaces_the_moto_backend(fakesqs: FakeSQS) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="a")
    sqs.send_message(QueueUrl=url, MessageBody="b", DelaySeconds=60)
    # was: [m.body for m in sqs_backends[ACCOUNT_ID]["us-east-1"].queues["jobs"].messages]
    jobs = fakesqs.queue("jobs")
    assert jobs.bodies() == ["a", "b"]
    assert [m.state for m in jobs.messages()] == ["visible", "delayed"]


@pytest.mark.fakesqs_only  # virtual seconds: a real endpoint really waits 20 s
def test_an_empty_long_poll_does_not_wait(fakesqs: FakeSQS) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    before = fakesqs.now()
    # Under moto this call takes the full 20 seconds of real time.
    assert "Messages" not in sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
    assert (fakesqs.now() - before).total_seconds() == 20


class RetryTest(unittest.TestCase):
    """unittest suites: `@fake_sqs()` where they had `@mock_aws`."""

    @fake_sqs()
    def test_retry(self) -> None:
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="job")
        self.assertEqual(len(sqs.receive_message(QueueUrl=url)["Messages"]), 1)

    def test_time_travel_in_a_with_block(self) -> None:
        with fake_sqs() as fake:
            sqs = boto3.client("sqs", region_name="us-east-1")
            url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
            sqs.send_message(QueueUrl=url, MessageBody="job")
            sqs.receive_message(QueueUrl=url)
            fake.advance(31)
            self.assertEqual(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "job")
