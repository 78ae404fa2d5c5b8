"""PyQS tasks, imported by name in PyQS's worker processes (test_over_http.py)."""

from __future__ import annotations

import json
import os

import boto3
from pyqs import task


@task(queue="jobs")
def add(a: int, b: int) -> None:
    """Runs in a worker process: answers on the results queue, over HTTP to the test's fake."""
    sqs = boto3.client("sqs")  # region and endpoint from the environment, as in production
    url = sqs.get_queue_url(QueueName=os.environ.get("RESULTS_QUEUE", "results"))["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody=json.dumps({"sum": a + b}))
