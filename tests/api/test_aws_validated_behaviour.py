"""Tier 2: behaviour AWS-validated suites check, through a JSON and a query client.

Each test runs twice: once with a current (JSON) boto3 client, once with a query/XML one (on a
query-era botocore both are query clients, and CI's second run covers that).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS, fake_sqs

from ..query_era import query_client
from .conftest import make_client


@pytest.fixture(params=["json", "query"])
def client(request: pytest.FixtureRequest, fakesqs: FakeSQS, tmp_path: Path) -> Any:
    return make_client() if request.param == "json" else query_client(tmp_path)


def _queue(client: Any, name: str = "work", **attributes: str) -> str:
    url: str = client.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    return url


def _bodies(client: Any, url: str, count: int = 1, **kwargs: Any) -> list[str]:
    answer = client.receive_message(QueueUrl=url, MaxNumberOfMessages=count, **kwargs)
    return [m["Body"] for m in answer.get("Messages", [])]


def _error(call: Any, **kwargs: Any) -> tuple[str, str]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    error = caught.value.response["Error"]
    return error["Code"], error["Message"]


# -- 1. older receipt handles on standard queues -------------------------------------------------


def test_a_visibility_change_by_an_older_handle_applies(client: Any) -> None:
    # LocalStack's AWS-validated sequence: VT=0, then VT=3, then the first handle's change to 0.
    url = _queue(client)
    client.send_message(QueueUrl=url, MessageBody="m")
    first = client.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"][0]
    second = client.receive_message(QueueUrl=url, VisibilityTimeout=3)["Messages"][0]
    assert first["ReceiptHandle"] != second["ReceiptHandle"]
    client.change_message_visibility(
        QueueUrl=url, ReceiptHandle=first["ReceiptHandle"], VisibilityTimeout=0
    )
    assert _bodies(client, url) == ["m"]


def test_an_older_handle_deletes_the_message(fakesqs: FakeSQS, client: Any) -> None:
    url = _queue(client, VisibilityTimeout="5")
    client.send_message(QueueUrl=url, MessageBody="m")
    older = client.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    fakesqs.advance(5)
    assert _bodies(client, url) == ["m"]  # in flight again, under a newer handle
    client.delete_message(QueueUrl=url, ReceiptHandle=older)
    fakesqs.advance(60)
    assert _bodies(client, url) == []
    assert len(fakesqs.queue("work")) == 0


def test_fifo_keeps_refusing_an_expired_handle(fakesqs: FakeSQS, client: Any) -> None:
    url = _queue(client, "work.fifo", FifoQueue="true", ContentBasedDeduplication="true")
    client.send_message(QueueUrl=url, MessageBody="m", MessageGroupId="g")
    older = client.receive_message(QueueUrl=url, VisibilityTimeout=1)["Messages"][0]
    fakesqs.advance(1)
    assert _bodies(client, url) == ["m"]
    handle = older["ReceiptHandle"]
    assert _error(client.delete_message, QueueUrl=url, ReceiptHandle=handle) == (
        "InvalidParameterValue",
        f"Value {handle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.",
    )


# -- 2. receive order follows send order ----------------------------------------------------------


def test_a_message_whose_visibility_lapsed_comes_before_later_sent_ones(
    fakesqs: FakeSQS, client: Any
) -> None:
    # LocalStack's AWS-validated test_inflight_message_requeue, on the virtual clock.
    url = _queue(client)
    client.send_message(QueueUrl=url, MessageBody="m1")
    assert _bodies(client, url, VisibilityTimeout=3) == ["m1"]
    fakesqs.advance(1.5)
    client.send_message(QueueUrl=url, MessageBody="m2")
    fakesqs.advance(3)
    assert _bodies(client, url) == ["m1"]
    assert _bodies(client, url) == ["m2"]


# -- 3. three receives move a message to the back; the oldest age skips it ------------------------


def test_a_message_received_three_times_moves_to_the_back_and_out_of_the_oldest_age(
    fakesqs: FakeSQS, client: Any
) -> None:
    dlq = _queue(client, "work-dlq")
    dlq_arn = client.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])
    policy = {"deadLetterTargetArn": dlq_arn["Attributes"]["QueueArn"], "maxReceiveCount": 10}
    url = _queue(client, RedrivePolicy=json.dumps(policy))
    client.send_message(QueueUrl=url, MessageBody="poison")
    fakesqs.advance(10)
    client.send_message(QueueUrl=url, MessageBody="next")
    fakesqs.advance(5)
    assert fakesqs.queue("work").backlog().oldest_age == 15.0
    for _ in range(3):
        assert _bodies(client, url, VisibilityTimeout=0) == ["poison"]
    # Even with a redrive policy (CloudWatch metrics page of the SQS developer guide).
    assert fakesqs.queue("work").backlog().oldest_age == 5.0
    assert _bodies(client, url, 10, VisibilityTimeout=0) == ["next", "poison"]


# -- 4. and 5. message attribute names and types --------------------------------------------------


def test_attribute_names_may_hold_unicode_letters(client: Any) -> None:
    url = _queue(client)
    attributes = {"attr.1øßä": {"StringValue": "Valida", "DataType": "String"}}
    client.send_message(QueueUrl=url, MessageBody="m", MessageAttributes=attributes)
    got = client.receive_message(QueueUrl=url, MessageAttributeNames=["All"])["Messages"][0]
    assert got["MessageAttributes"] == attributes


@pytest.mark.parametrize(
    "name",
    [
        *(f"Invalid-{char}-attr" for char in ["!", '"', "§", "(", "?"]),
        "AWS.trace",
        "amazon.x",
        "aWs.x",
        ".leading",
        "trailing.",
        "L" * 257,
    ],
)
def test_invalid_attribute_names_stay_invalid(client: Any, name: str) -> None:
    url = _queue(client)
    attributes = {name: {"StringValue": "Valid", "DataType": "String"}}
    code, _ = _error(
        client.send_message, QueueUrl=url, MessageBody="m", MessageAttributes=attributes
    )
    assert code == "InvalidParameterValue"


def test_an_invalid_data_type_has_the_current_aws_text(client: Any) -> None:
    # The AWS reply quoted in grafana/k6-jslib-aws PR #65 (2023).
    url = _queue(client)
    attributes = {"my-attribute": {"StringValue": "v", "DataType": "Invalid"}}
    assert _error(
        client.send_message, QueueUrl=url, MessageBody="m", MessageAttributes=attributes
    ) == (
        "InvalidParameterValue",
        "The type of message (user) attribute 'my-attribute' is invalid. You must use only the "
        "following supported type prefixes: Binary, Number, String.",
    )
    long_type = {"Attribute_name": {"StringValue": "Valid", "DataType": "Number." + "L" * 256}}
    code, _ = _error(
        client.send_message, QueueUrl=url, MessageBody="m", MessageAttributes=long_type
    )
    assert code == "InvalidParameterValue"


# -- 7. message ids -------------------------------------------------------------------------------


def test_message_ids_are_random_looking_uuid4(client: Any) -> None:
    url = _queue(client)
    ids = [client.send_message(QueueUrl=url, MessageBody=str(i))["MessageId"] for i in range(50)]
    assert all(uuid.UUID(i).version == 4 for i in ids)
    assert len({i[9:] for i in ids}) == 50  # no shared tail


@pytest.mark.parametrize("protocol", ["json", "query"])
def test_message_ids_repeat_with_the_seed(protocol: str, tmp_path: Path) -> None:
    def ids(seed: int) -> list[str]:
        with fake_sqs(seed=seed):
            client = make_client() if protocol == "json" else query_client(tmp_path)
            url = _queue(client)
            entries = [{"Id": str(i), "MessageBody": "m"} for i in range(3)]
            sent = client.send_message_batch(QueueUrl=url, Entries=entries)["Successful"]
            return [client.send_message(QueueUrl=url, MessageBody="m")["MessageId"]] + [
                entry["MessageId"] for entry in sent
            ]

    assert ids(11) == ids(11)
    assert ids(11) != ids(12)


# -- error texts newly sourced from quoted AWS replies (see api/error_texts.py) --------------------


def test_a_standard_queue_named_like_a_fifo_queue_gets_the_plain_name_text(client: Any) -> None:
    # boto/botocore#3058 (2023): the AWS reply to CreateQueue(QueueName="messages.fifo").
    assert _error(client.create_queue, QueueName="messages.fifo") == (
        "InvalidParameterValue",
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
    )


def test_a_visibility_change_past_twelve_hours_names_the_timeout(
    fakesqs: FakeSQS, client: Any
) -> None:
    # localstack/localstack#3956 (2021) quotes AWS's reply.
    url = _queue(client)
    client.send_message(QueueUrl=url, MessageBody="m")
    handle = client.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    fakesqs.advance(10)  # still in flight (30 s), 10 s into its 12 hours
    call = client.change_message_visibility
    assert _error(call, QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=43200) == (
        "InvalidParameterValue",
        "Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout "
        "for the message is beyond the limit [43200 seconds]",
    )


def test_a_body_with_a_control_character_names_it(client: Any) -> None:
    # asim/nitro-plugins#437 (2019) quotes AWS's reply.
    url = _queue(client)
    assert _error(client.send_message, QueueUrl=url, MessageBody="bell \x07") == (
        "InvalidMessageContents",
        "Invalid binary character '#x7' was found in the message body, the set of allowed "
        "characters is #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].",
    )


def test_batch_texts_quoted_from_aws(client: Any) -> None:
    url = _queue(client)
    # aws/aws-sdk-php#630 (2015); elixir-broadway/broadway_sqs#49 (2020).
    assert _error(client.delete_message_batch, QueueUrl=url, Entries=[]) == (
        "AWS.SimpleQueueService.EmptyBatchRequest",
        "There should be at least one DeleteMessageBatchRequestEntry in the request.",
    )
    twice = [{"Id": "same", "MessageBody": "a"}, {"Id": "same", "MessageBody": "b"}]
    assert _error(client.send_message_batch, QueueUrl=url, Entries=twice) == (
        "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
        "Id same repeated.",
    )
