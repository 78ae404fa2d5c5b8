"""Tier 2: TagQueue / UntagQueue / ListQueueTags and CreateQueue's `tags`."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import make_client, wire_error


def test_tag_untag_queue(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    """Recorded: test_tag_untag_queue[sqs]."""
    sqs.tag_queue(QueueUrl=queue_url, Tags={"tag1": "value1", "tag2": "value2", "tag3": ""})
    assert sqs.list_queue_tags(QueueUrl=queue_url)["Tags"] == {
        "tag1": "value1",
        "tag2": "value2",
        "tag3": "",
    }
    sqs.untag_queue(QueueUrl=queue_url, TagKeys=["tag1", "tag3"])
    assert sqs.list_queue_tags(QueueUrl=queue_url)["Tags"] == {"tag2": "value2"}
    sqs.untag_queue(QueueUrl=queue_url, TagKeys=["tag2"])
    after = sqs.list_queue_tags(QueueUrl=queue_url)
    assert "Tags" not in after  # AWS leaves the member out, rather than an empty map


def test_create_queue_tags_are_listed(fakesqs: FakeSQS, sqs: Any) -> None:
    url = sqs.create_queue(QueueName="tagged", tags={"team": "payments"})["QueueUrl"]
    sqs.tag_queue(QueueUrl=url, Tags={"team": "billing", "env": "test"})
    assert sqs.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "billing", "env": "test"}


def error_of(call: Any, **kwargs: Any) -> dict[str, Any]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    error: dict[str, Any] = caught.value.response["Error"]
    return error


def test_tag_errors(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    assert error_of(sqs.tag_queue, QueueUrl=queue_url, Tags={}) == wire_error(
        "MissingParameter",
        "The request must contain the parameter Tags.",
        "MissingRequiredParameterException",
    )
    sqs.tag_queue(QueueUrl=queue_url, Tags={f"key{i}": "v" for i in range(30)})
    too_many = error_of(
        sqs.tag_queue, QueueUrl=queue_url, Tags={f"more{i}": "v" for i in range(21)}
    )
    assert (too_many["Code"], too_many["Message"]) == (
        "InvalidParameterValue",
        "Too many tags added for queue work.",
    )
    assert len(sqs.list_queue_tags(QueueUrl=queue_url)["Tags"]) == 30  # nothing was applied
    empty_keys = error_of(sqs.untag_queue, QueueUrl=queue_url, TagKeys=[])
    assert (empty_keys["Code"], empty_keys["Message"]) == (
        "InvalidParameterValue",
        "Tag keys must be between 1 and 128 characters in length.",
    )
    long_key = error_of(sqs.tag_queue, QueueUrl=queue_url, Tags={"k" * 129: "v"})
    assert long_key["Message"] == "Tag keys must be between 1 and 128 characters in length."


def test_untagging_an_absent_key_is_not_an_error(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    sqs.untag_queue(QueueUrl=queue_url, TagKeys=["never-set"])
    assert "Tags" not in sqs.list_queue_tags(QueueUrl=queue_url)


def test_tags_of_a_missing_queue(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    with pytest.raises(sqs.exceptions.QueueDoesNotExist):
        sqs.list_queue_tags(QueueUrl=queue_url + "-missing")


@pytest.mark.fakesqs(flavor="ymq")
def test_ymq_tag_queue_applies_label_rules(fakesqs: FakeSQS) -> None:
    ymq = make_client("ru-central1", "https://message-queue.api.cloud.yandex.net")
    url = ymq.create_queue(QueueName="labelled")["QueueUrl"]
    ymq.tag_queue(QueueUrl=url, Tags={"team": "payments"})
    assert ymq.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "payments"}
    error = error_of(ymq.tag_queue, QueueUrl=url, Tags={"Team": "payments"})
    assert (error["Code"], error["Message"]) == (
        "InvalidParameterValue",
        "Tag key must start with a lowercase letter (a-z).",
    )
    error = error_of(ymq.tag_queue, QueueUrl=url, Tags={f"k{i}": "v" for i in range(50)})
    assert error["Message"] == "Too many tags added for queue"
    assert ymq.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "payments"}


def test_create_queue_checks_tag_keys_like_tag_queue(fakesqs: FakeSQS, sqs: Any) -> None:
    error = error_of(sqs.create_queue, QueueName="tagged", tags={"k" * 129: "v"})
    assert (error["Code"], error["Message"]) == (
        "InvalidParameterValue",
        "Tag keys must be between 1 and 128 characters in length.",
    )
