"""Real clients in other processes (and kombu's own transport) against `fakesqs_server`."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

from ..query_era import QUERY_CLIENT
from .conftest import PYTHON, run, subprocess_env


def aws(server: FakeSQSServer, *args: str) -> Any:
    result = run(
        [
            PYTHON,
            "-m",
            "awscli",
            "sqs",
            *args,
            "--endpoint-url",
            server.endpoint_url,
            "--region",
            "us-east-1",
            "--output",
            "json",
        ],
        subprocess_env(server),
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout) if result.stdout.strip() else None


def test_the_aws_cli_creates_sends_receives_and_deletes(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = aws(fakesqs_server, "create-queue", "--queue-name", "jobs")["QueueUrl"]
    sent = aws(fakesqs_server, "send-message", "--queue-url", url, "--message-body", "from the cli")
    assert fakesqs.queue("jobs").bodies() == ["from the cli"]

    received = aws(fakesqs_server, "receive-message", "--queue-url", url)["Messages"]
    aws(
        fakesqs_server,
        "delete-message",
        "--queue-url",
        url,
        "--receipt-handle",
        received[0]["ReceiptHandle"],
    )

    assert url == f"{fakesqs_server.endpoint_url}/123456789012/jobs"
    assert received[0]["MessageId"] == sent["MessageId"]
    assert received[0]["Body"] == "from the cli"
    assert fakesqs.queue("jobs").backlog().count == 0
    assert fakesqs_server.requests_served == 4


def test_the_aws_cli_sees_aws_errors(fakesqs_server: FakeSQSServer) -> None:
    result = run(
        [
            PYTHON,
            "-m",
            "awscli",
            "sqs",
            "get-queue-url",
            "--queue-name",
            "missing",
            "--endpoint-url",
            fakesqs_server.endpoint_url,
            "--region",
            "us-east-1",
        ],
        subprocess_env(fakesqs_server),
    )

    assert result.returncode == 255  # aws CLI v1: the service answered an error
    assert result.stderr.strip() == (
        "An error occurred (AWS.SimpleQueueService.NonExistentQueue) when calling the "
        "GetQueueUrl operation: The specified queue does not exist."
    )


# A service's consumer as it would run in production: configured only by its environment
# (AWS_ENDPOINT_URL_SQS and friends); it deletes what it handles and leaves poison to retry.
CONSUMER = textwrap.dedent(
    """
    import boto3

    sqs = boto3.client("sqs")
    url = sqs.get_queue_url(QueueName="jobs")["QueueUrl"]
    while True:
        batch = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        if not batch.get("Messages"):
            break
        for message in batch["Messages"]:
            if message["Body"] != "poison":
                sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    """
)


@pytest.mark.fakesqs(
    queues={
        "jobs": {"VisibilityTimeout": "5", "dlq": "jobs-dlq", "max_receive_count": 3},
        "jobs-dlq": {},
    }
)
def test_a_consumer_subprocess_dead_letters_poison(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    jobs = sqs.get_queue_url(QueueName="jobs")["QueueUrl"]
    for body in ("job-1", "poison", "job-2"):
        sqs.send_message(QueueUrl=jobs, MessageBody=body)

    # Each empty long poll jumps the frozen clock to the next visibility expiry: no waiting.
    result = run([PYTHON, "-c", CONSUMER], subprocess_env(fakesqs_server))

    assert result.returncode == 0, result.stderr
    assert fakesqs.queue("jobs").backlog().count == 0
    [dead] = fakesqs.assert_dead_lettered("jobs-dlq", body="poison", count=1)
    assert dead.source_queue == "jobs"
    assert dead.attributes["ApproximateReceiveCount"] == "3"


@pytest.mark.skipif(
    QUERY_CLIENT,
    reason="kombu receives with MessageSystemAttributeNames, which botocore < 1.31.81 refuses "
    "before sending anything (kombu's requirement, not the fake's)",
)
def test_kombu_produces_and_consumes_through_the_server(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    kombu = pytest.importorskip("kombu")
    access_key, secret_key = fakesqs_server.credentials()
    broker = f"sqs://{access_key}:{secret_key}@127.0.0.1:{fakesqs_server.port}"
    options = {"region": "us-east-1", "is_secure": False, "wait_time_seconds": 20}

    with kombu.Connection(broker, transport_options=options) as connection:
        queue = connection.SimpleQueue("orders")
        queue.put({"order": 1})
        message = queue.get(block=True, timeout=30)
        payload = message.payload
        message.ack()
        queue.close()

    assert payload == {"order": 1}
    assert fakesqs.queue("orders").backlog().count == 0
    assert fakesqs_server.requests_served > 0  # kombu's calls went over HTTP
