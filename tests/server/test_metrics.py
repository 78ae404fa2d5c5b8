"""`GET /metrics`: Prometheus' text format, per queue, named after SQS's CloudWatch metrics."""

from __future__ import annotations

import http.client
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.server import metrics


def scrape(server: FakeSQSServer, method: str = "GET") -> tuple[int, str, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, "/metrics")
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read().decode()
    finally:
        connection.close()


def samples(text: str) -> dict[str, float]:
    """`name{labels}` -> value, for every sample line."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


def _queue(name: str, account: str = "123456789012", region: str = "us-east-1") -> str:
    return f'{{account="{account}",queue="{name}",region="{region}"}}'


@pytest.fixture
def sqs(fakesqs_server: FakeSQSServer) -> Any:
    return fakesqs_server.client()


def test_metrics_count_what_cloudwatch_counts_per_queue(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]
    sqs.create_queue(QueueName="idle")
    sqs.send_message(QueueUrl=url, MessageBody="a")
    entries = [{"Id": str(i), "MessageBody": f"b{i}"} for i in range(3)]
    sqs.send_message_batch(QueueUrl=url, Entries=entries)
    sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=60)
    received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2)["Messages"]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=received[0]["ReceiptHandle"])
    fakesqs.advance(10)
    sqs.receive_message(QueueUrl=f"{url[: -len('orders')]}idle")  # an empty receive

    status, content_type, text = scrape(fakesqs_server)

    assert status == 200
    assert content_type.startswith("text/plain; version=0.0.4")
    found = samples(text)
    orders, idle = _queue("orders"), _queue("idle")
    assert found[f"fakesqs_approximate_number_of_messages_visible{orders}"] == 2
    assert found[f"fakesqs_approximate_number_of_messages_not_visible{orders}"] == 1
    assert found[f"fakesqs_approximate_number_of_messages_delayed{orders}"] == 1
    assert found[f"fakesqs_approximate_age_of_oldest_message_seconds{orders}"] == 10
    assert found[f"fakesqs_number_of_messages_sent_total{orders}"] == 5
    assert found[f"fakesqs_number_of_messages_received_total{orders}"] == 2
    assert found[f"fakesqs_number_of_messages_deleted_total{orders}"] == 1
    assert found[f"fakesqs_number_of_empty_receives_total{orders}"] == 0
    assert found[f"fakesqs_number_of_empty_receives_total{idle}"] == 1
    assert found[f"fakesqs_approximate_number_of_messages_visible{idle}"] == 0
    assert "# TYPE fakesqs_number_of_messages_sent_total counter" in text
    assert "# TYPE fakesqs_approximate_number_of_messages_visible gauge" in text


def test_requests_are_counted_by_action_and_error_code(
    fakesqs_server: FakeSQSServer, sqs: Any
) -> None:
    sqs.list_queues()
    sqs.list_queues()
    with pytest.raises(sqs.exceptions.QueueDoesNotExist):
        sqs.get_queue_url(QueueName="missing")

    found = samples(scrape(fakesqs_server)[2])

    assert found['fakesqs_requests_total{action="ListQueues",error_code=""}'] == 2
    assert (
        found[
            'fakesqs_requests_total{action="GetQueueUrl",'
            'error_code="AWS.SimpleQueueService.NonExistentQueue"}'
        ]
        == 1
    )


def test_calls_made_in_process_count_too(fakesqs: FakeSQS, fakesqs_server: FakeSQSServer) -> None:
    import boto3

    local = boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s"
    )
    url = local.create_queue(QueueName="jobs")["QueueUrl"]
    local.send_message(QueueUrl=url, MessageBody="x")

    found = samples(scrape(fakesqs_server)[2])

    assert found[f"fakesqs_number_of_messages_sent_total{_queue('jobs')}"] == 1


def test_every_metric_the_issue_names_is_declared() -> None:
    names = {f"fakesqs_{name}" for name, _ in metrics.GAUGES} | {
        f"fakesqs_{name}_total" for name, _ in metrics.COUNTERS
    }
    assert names == {
        "fakesqs_approximate_number_of_messages_visible",
        "fakesqs_approximate_number_of_messages_not_visible",
        "fakesqs_approximate_number_of_messages_delayed",
        "fakesqs_approximate_age_of_oldest_message_seconds",
        "fakesqs_number_of_messages_sent_total",
        "fakesqs_number_of_messages_received_total",
        "fakesqs_number_of_messages_deleted_total",
        "fakesqs_number_of_empty_receives_total",
    }
    assert metrics.QUEUE_LABELS == ("queue", "account", "region")


def test_metrics_take_get_only(fakesqs_server: FakeSQSServer) -> None:
    status, _, text = scrape(fakesqs_server, method="POST")

    assert status == 405
    assert "POST is not allowed on /metrics; use GET" in text
