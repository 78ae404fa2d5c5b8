"""Tier 2: ListDeadLetterSourceQueues (lower-case `queueUrls`, paginated on request)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import listed
from .redrive_helpers import queue_arn, redrive_policy


def make_sources(sqs: Any, count: int) -> tuple[str, list[str]]:
    dlq = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    policy = redrive_policy(queue_arn(sqs, dlq), 3)
    urls = [
        sqs.create_queue(QueueName=f"source-{i}", Attributes={"RedrivePolicy": policy})["QueueUrl"]
        for i in range(count)
    ]
    sqs.create_queue(QueueName="unrelated")
    return dlq, urls


def test_lists_the_queues_that_redrive_into_it(fakesqs: FakeSQS, sqs: Any) -> None:
    dlq, urls = make_sources(sqs, 3)
    response = sqs.list_dead_letter_source_queues(QueueUrl=dlq)
    assert response["queueUrls"] == urls
    assert "NextToken" not in response


def test_no_sources_is_an_empty_list(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    assert listed(sqs.list_dead_letter_source_queues(QueueUrl=queue_url), "queueUrls") == []


def test_a_cleared_redrive_policy_is_no_longer_a_source(fakesqs: FakeSQS, sqs: Any) -> None:
    dlq, urls = make_sources(sqs, 2)
    sqs.set_queue_attributes(QueueUrl=urls[0], Attributes={"RedrivePolicy": ""})
    assert sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"] == urls[1:]


def test_pages_only_when_max_results_is_given(fakesqs: FakeSQS, sqs: Any) -> None:
    dlq, urls = make_sources(sqs, 5)
    first = sqs.list_dead_letter_source_queues(QueueUrl=dlq, MaxResults=2)
    assert first["queueUrls"] == urls[:2]
    second = sqs.list_dead_letter_source_queues(
        QueueUrl=dlq, MaxResults=2, NextToken=first["NextToken"]
    )
    assert second["queueUrls"] == urls[2:4]
    last = sqs.list_dead_letter_source_queues(
        QueueUrl=dlq, MaxResults=2, NextToken=second["NextToken"]
    )
    assert last["queueUrls"] == urls[4:]
    assert "NextToken" not in last
    paginator = sqs.get_paginator("list_dead_letter_source_queues")
    pages = list(paginator.paginate(QueueUrl=dlq, PaginationConfig={"PageSize": 2}))
    assert [url for page in pages for url in page["queueUrls"]] == urls


@pytest.mark.parametrize("max_results", [0, 1001])
def test_max_results_range(fakesqs: FakeSQS, sqs: Any, queue_url: str, max_results: int) -> None:
    with pytest.raises(ClientError) as caught:
        sqs.list_dead_letter_source_queues(QueueUrl=queue_url, MaxResults=max_results)
    error = caught.value.response["Error"]
    assert (error["Code"], error["Message"]) == (
        "InvalidParameterValue",
        f"Value {max_results} for parameter MaxResults is invalid. Reason: MaxResults must be an integer between 1 and 1000.",
    )
