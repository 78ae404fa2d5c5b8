"""Tier 2: real boto3 clients against the fake, as a user's code would make them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from ..query_era import NONEXISTENT_QUEUE_MESSAGE, QUERY_CLIENT, system_attribute_names

__all__ = ["NONEXISTENT_QUEUE_MESSAGE", "QUERY_CLIENT", "system_attribute_names"]


def listed(response: dict[str, Any], key: str) -> Any:
    """A list member of a response. XML has no element for an empty list, so botocore < 1.31.81
    leaves the key out (as it does with AWS over query) where JSON sends `[]`."""
    return response.get(key, []) if QUERY_CLIENT else response[key]


def wire_error(code: str, message: str, query_error_code: str) -> dict[str, Any]:
    """botocore's parsed `Error` as AWS recorded it per protocol: JSON names the shape in
    QueryErrorCode; XML (the `[sqs_query]` scenarios) carries an empty Detail instead."""
    if QUERY_CLIENT:
        return {"Code": code, "Message": message, "Type": "Sender", "Detail": None}
    return {"Code": code, "Message": message, "QueryErrorCode": query_error_code, "Type": "Sender"}


def error_class(client: Any, shape: str) -> type[Exception]:
    """The exception botocore raises for an error shape. botocore < 1.31.81 predates some shapes
    (RequestThrottled, InvalidSecurity, Kms*) and raises those as a plain ClientError."""
    if QUERY_CLIENT and not hasattr(client.exceptions, shape):
        return ClientError
    found: type[Exception] = getattr(client.exceptions, shape)
    return found


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
