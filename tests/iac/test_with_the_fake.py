"""Queues from files, made by the fake: the test's region, account and flavor in every ARN."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest
from botocore.endpoint import Endpoint

from pytest_fakesqs import fake_sqs

from .conftest import Files

YMQ = """
variable "folder" {
  default = "chat"
}

resource "yandex_message_queue" "chat_dlq" {
  name                      = "${var.folder}-dlq"
  message_retention_seconds = 1209600
}

resource "yandex_message_queue" "chat" {
  name                       = var.folder
  visibility_timeout_seconds = 30
  receive_wait_time_seconds  = 10
  region_id                  = "ru-central1"
  access_key                 = "not read"
  secret_key                 = "not read"
  redrive_policy = jsonencode({
    deadLetterTargetArn = yandex_message_queue.chat_dlq.arn
    maxReceiveCount     = 5
  })
  tags = { service = "chat" }
}
"""


def test_a_ymq_file_on_the_ymq_flavor(files: Files) -> None:
    path = files.write("ymq.tf", YMQ)

    with fake_sqs(flavor="ymq", queues_from=path) as sqs:
        chat = sqs.queue("chat").attributes
        dlq_arn = sqs.queue("chat-dlq").attributes["QueueArn"]
        assert dlq_arn.startswith("yrn:yc:ymq:ru-central1:")
        assert json.loads(chat["RedrivePolicy"]) == {
            "deadLetterTargetArn": dlq_arn,
            "maxReceiveCount": 5,
        }
        assert (chat["VisibilityTimeout"], chat["ReceiveMessageWaitTimeSeconds"]) == ("30", "10")
        ymq = boto3.client(
            "sqs",
            region_name="ru-central1",
            endpoint_url="https://message-queue.api.cloud.yandex.net",
        )
        url = ymq.get_queue_url(QueueName="chat")["QueueUrl"]
        assert ymq.list_queue_tags(QueueUrl=url)["Tags"] == {"service": "chat"}


def test_a_ymq_resource_needs_the_ymq_flavor(files: Files) -> None:
    path = files.write("ymq.tf", YMQ)

    with pytest.raises(ValueError) as caught, fake_sqs(queues_from=path):
        pass
    assert str(caught.value) == (
        "ymq.tf:5: yandex_message_queue.chat_dlq: Yandex Message Queue resources need the "
        "fakesqs option flavor='ymq'"
    )


def test_arns_in_policies_are_the_fakes_for_its_region_and_account(files: Files) -> None:
    path = files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "dlq" {
          name = "jobs-dlq"
        }

        resource "aws_sqs_queue" "jobs" {
          name = "jobs"
          redrive_policy = jsonencode({
            deadLetterTargetArn = aws_sqs_queue.dlq.arn
            maxReceiveCount     = 2
          })
          policy = jsonencode({
            Version   = "2012-10-17"
            Statement = [{ Effect = "Allow", Principal = "*", Action = "sqs:*",
                           Resource = aws_sqs_queue.jobs.arn }]
          })
        }
        """,
    )

    with fake_sqs(queues_from=[path], region="eu-north-1", account_id="210987654321") as sqs:
        jobs = sqs.queue("jobs").attributes
        assert json.loads(jobs["RedrivePolicy"])["deadLetterTargetArn"] == (
            "arn:aws:sqs:eu-north-1:210987654321:jobs-dlq"
        )
        assert json.loads(jobs["Policy"])["Statement"][0]["Resource"] == (
            "arn:aws:sqs:eu-north-1:210987654321:jobs"
        )


def test_queues_adds_to_and_overrides_the_files(files: Files) -> None:
    path = files.write("main.tf", 'resource "aws_sqs_queue" "jobs" {\n  delay_seconds = 5\n}\n')

    queues = {"jobs": {"VisibilityTimeout": "90"}, "extra": {}}
    with fake_sqs(queues_from=path, queues=queues) as sqs:
        jobs = sqs.queue("jobs").attributes
        assert (jobs["DelaySeconds"], jobs["VisibilityTimeout"]) == ("5", "90")
        assert sqs.queue("extra").attributes["VisibilityTimeout"] == "30"


def test_a_value_the_api_refuses_is_refused_as_for_queues(files: Files) -> None:
    path = files.write("main.tf", 'resource "aws_sqs_queue" "jobs" {\n  delay_seconds = 9000\n}\n')
    send_step = Endpoint.__dict__["_send"]  # this run's real-SQS guard may have wrapped it
    with (
        pytest.raises(ValueError, match=r"cannot create queue 'jobs': .*DelaySeconds"),
        fake_sqs(queues_from=path),
    ):
        pass
    assert Endpoint.__dict__["_send"] is send_step  # the fake is not left serving


def test_a_poison_message_dead_letters_per_the_files_redrive(tmp_path: Path) -> None:
    path = tmp_path / "main.tf"
    path.write_text(
        'resource "aws_sqs_queue" "dlq" {}\n'
        'resource "aws_sqs_queue" "jobs" {\n'
        "  visibility_timeout_seconds = 10\n"
        "  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, "
        "maxReceiveCount = 2 })\n}\n"
    )

    with fake_sqs(queues_from=path) as sqs:
        client = boto3.client("sqs", region_name="us-east-1")
        url = client.get_queue_url(QueueName="jobs")["QueueUrl"]
        client.send_message(QueueUrl=url, MessageBody="poison")
        for _ in range(3):
            client.receive_message(QueueUrl=url)
            sqs.advance(10)
        sqs.assert_dead_lettered("jobs", body="poison", count=1)
