"""Tier 2: real boto3 clients against the fake, as a user's code would make them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS


def make_client(region: str = "us-east-1", endpoint_url: str | None = None) -> Any:
    return boto3.client(
        "sqs",
        region_name=region,
        endpoint_url=endpoint_url,
        aws_access_key_id="AKIAFAKE",
        aws_secret_access_key="fake-secret",
    )


@pytest.fixture
def sqs(fakesqs: FakeSQS) -> Iterator[Any]:
    yield make_client()


@pytest.fixture
def queue_url(sqs: Any) -> str:
    url: str = sqs.create_queue(QueueName="work")["QueueUrl"]
    return url


@pytest.fixture
def fifo_url(sqs: Any) -> str:
    url: str = sqs.create_queue(
        QueueName="work.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    return url
