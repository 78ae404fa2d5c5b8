"""Tier 2: TagQueue / UntagQueue / ListQueueTags and CreateQueue's `tags`."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS


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
    assert error_of(sqs.tag_queue, QueueUrl=queue_url, Tags={}) == {
        "Code": "MissingParameter",
        "Message": "The request must contain the parameter Tags.",
        "Type": "Sender",
        "QueryErrorCode": "MissingRequiredParameterException",
    }
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
