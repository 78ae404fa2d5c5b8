"""moto side by side with enforce_policies: SNS, S3 and EventBridge deliver as their service
principal, and moto's STS and IAM keys belong to the accounts moto issued them for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, fake_sqs

moto = pytest.importorskip("moto")

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's and the fake's default account


def client(service: str, **credentials: str) -> Any:
    return boto3.client(service, region_name=REGION, **credentials)


@pytest.fixture
def fake() -> Iterator[FakeSQS]:
    with moto.mock_aws(), fake_sqs(enforce_policies=True) as served:
        yield served


def queue_arn(sqs: Any, url: str) -> str:
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
    arn: str = attributes["Attributes"]["QueueArn"]
    return arn


def allow_service(sqs: Any, url: str, service: str, source_arn: str) -> None:
    """The SNS → SQS recipe of docs/policies.md (the same shape for S3 and EventBridge)."""
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "AllowDeliveries",
                "Effect": "Allow",
                "Principal": {"Service": service},
                "Action": "sqs:SendMessage",
                "Resource": queue_arn(sqs, url),
                "Condition": {"ArnEquals": {"aws:SourceArn": source_arn}},
            }
        ],
    }
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(policy)})


def subscribed(sqs: Any, sns: Any, topic: str = "orders") -> tuple[str, str]:
    url = sqs.create_queue(QueueName=f"{topic}-queue")["QueueUrl"]
    topic_arn = sns.create_topic(Name=topic)["TopicArn"]
    sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=queue_arn(sqs, url))
    return url, topic_arn


def test_sns_without_a_queue_policy_is_refused_and_the_message_dropped(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url, topic_arn = subscribed(sqs, sns)
    sns.publish(TopicArn=topic_arn, Message="lost")  # the publisher is not told, as on AWS
    assert fake.queue(url).bodies() == []
    (refused,) = fake.refused_deliveries()
    assert (refused.service, refused.source_arn, refused.queue, refused.body) == (
        "sns.amazonaws.com",
        topic_arn,
        "orders-queue",
        refused.body,
    )
    assert refused.reason == f"no statement allows sns.amazonaws.com from {topic_arn}"
    assert json.loads(refused.body)["Message"] == "lost"
    (call,) = fake.calls("SendMessage")
    assert call.error_code == "AccessDenied"
    assert call.error_message == f"Access to the resource {url} is denied."


def test_sns_with_the_recipe_delivers(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url, topic_arn = subscribed(sqs, sns)
    allow_service(sqs, url, "sns.amazonaws.com", topic_arn)
    sns.publish(TopicArn=topic_arn, Message="arrives")
    assert json.loads(fake.queue(url).bodies()[0])["Message"] == "arrives"
    assert fake.refused_deliveries() == []


def test_a_policy_for_another_topic_refuses_this_one(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url, topic_arn = subscribed(sqs, sns)
    allow_service(sqs, url, "sns.amazonaws.com", topic_arn.replace(":orders", ":other"))
    sns.publish(TopicArn=topic_arn, Message="lost")
    assert fake.queue(url).bodies() == []
    assert [r.reason for r in fake.refused_deliveries()] == [
        f"no statement allows sns.amazonaws.com from {topic_arn}"
    ]


def test_an_explicit_deny_names_its_statement(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url, topic_arn = subscribed(sqs, sns)
    policy = {
        "Statement": [
            {"Sid": "NoSns", "Effect": "Deny", "Principal": "*", "Action": "sqs:*"},
        ]
    }
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(policy)})
    sns.publish(TopicArn=topic_arn, Message="lost")
    assert [r.reason for r in fake.refused_deliveries()] == [
        f"statement 'NoSns' denies sns.amazonaws.com from {topic_arn}"
    ]


def test_the_source_account_condition(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url, topic_arn = subscribed(sqs, sns)
    policy = {
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": "sns.amazonaws.com"},
                "Action": "sqs:SendMessage",
                "Condition": {"StringEquals": {"aws:SourceAccount": ACCOUNT}},
            }
        ]
    }
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(policy)})
    sns.publish(TopicArn=topic_arn, Message="arrives")
    assert len(fake.queue(url).bodies()) == 1


def test_without_enforcement_sns_delivers_without_a_policy() -> None:
    with moto.mock_aws(), fake_sqs() as fake:
        sqs, sns = client("sqs"), client("sns")
        url, topic_arn = subscribed(sqs, sns)
        sns.publish(TopicArn=topic_arn, Message="arrives")
        assert len(fake.queue(url).bodies()) == 1


def test_s3_notifications_need_the_bucket_allowed(fake: FakeSQS) -> None:
    sqs, s3 = client("sqs"), client("s3")
    url = sqs.create_queue(QueueName="uploads")["QueueUrl"]
    s3.create_bucket(Bucket="inbox")
    s3.put_bucket_notification_configuration(
        Bucket="inbox",
        NotificationConfiguration={
            "QueueConfigurations": [
                {"QueueArn": queue_arn(sqs, url), "Events": ["s3:ObjectCreated:*"]}
            ]
        },
    )
    before = len(fake.queue(url).bodies())  # moto's s3:TestEvent, if it got through
    s3.put_object(Bucket="inbox", Key="a.csv", Body=b"a")
    assert len(fake.queue(url).bodies()) == before == 0
    assert {r.source_arn for r in fake.refused_deliveries()} == {"arn:aws:s3:::inbox"}
    allow_service(sqs, url, "s3.amazonaws.com", "arn:aws:s3:::inbox")
    s3.put_object(Bucket="inbox", Key="b.csv", Body=b"b")
    (body,) = fake.queue(url).bodies()
    assert json.loads(body)["Records"][0]["s3"]["object"]["key"] == "b.csv"


def test_eventbridge_targets_need_the_rule_allowed(fake: FakeSQS) -> None:
    sqs, events = client("sqs"), client("events")
    url = sqs.create_queue(QueueName="placed")["QueueUrl"]
    rule_arn = events.put_rule(Name="orders", EventPattern=json.dumps({"source": ["shop"]}))[
        "RuleArn"
    ]
    events.put_targets(Rule="orders", Targets=[{"Id": "q", "Arn": queue_arn(sqs, url)}])
    entry = {"Source": "shop", "DetailType": "placed", "Detail": "{}"}
    events.put_events(Entries=[entry])
    assert fake.queue(url).bodies() == []
    assert [r.reason for r in fake.refused_deliveries()] == [
        f"no statement allows events.amazonaws.com from {rule_arn}"
    ]
    allow_service(sqs, url, "events.amazonaws.com", rule_arn)
    events.put_events(Entries=[entry])
    assert len(fake.queue(url).bodies()) == 1


def test_keys_from_moto_sts_belong_to_the_role_account(fake: FakeSQS) -> None:
    other = "210987654321"
    owner_sqs = client("sqs")
    url = owner_sqs.create_queue(QueueName="shared")["QueueUrl"]
    credentials = client("sts").assume_role(
        RoleArn=f"arn:aws:iam::{other}:role/consumer", RoleSessionName="worker-1"
    )["Credentials"]
    assumed = client(
        "sqs",
        aws_access_key_id=credentials["AccessKeyId"],
        aws_secret_access_key=credentials["SecretAccessKey"],
        aws_session_token=credentials["SessionToken"],
    )
    own = assumed.create_queue(QueueName="mine")["QueueUrl"]
    assert own == f"https://sqs.{REGION}.amazonaws.com/{other}/mine"
    assert assumed.list_queues()["QueueUrls"] == [own]
    with pytest.raises(assumed.exceptions.ClientError) as caught:
        assumed.send_message(QueueUrl=url, MessageBody="x")
    assert caught.value.response["Error"]["Message"].startswith(
        f"User: arn:aws:sts::{other}:assumed-role/consumer/worker-1 is not authorized"
    )
    owner_sqs.add_permission(
        QueueUrl=url, Label="consumer", AWSAccountIds=[other], Actions=["SendMessage"]
    )
    assumed.send_message(QueueUrl=url, MessageBody="allowed")
    message = owner_sqs.receive_message(QueueUrl=url, AttributeNames=["SenderId"])["Messages"][0]
    assert message["Attributes"]["SenderId"].startswith("AROA")
    assert message["Attributes"]["SenderId"].endswith(":worker-1")


def test_keys_of_moto_iam_users_belong_to_their_account(fake: FakeSQS) -> None:
    iam = client("iam")
    iam.create_user(UserName="bob")
    key = iam.create_access_key(UserName="bob")["AccessKey"]
    sqs = client(
        "sqs", aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"]
    )
    url = sqs.create_queue(QueueName="bobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="hi")
    message = sqs.receive_message(QueueUrl=url, AttributeNames=["SenderId"])["Messages"][0]
    sender = message["Attributes"]["SenderId"]
    assert url.endswith(f"/{ACCOUNT}/bobs")
    assert sender.startswith("AIDA") and len(sender) == 21
