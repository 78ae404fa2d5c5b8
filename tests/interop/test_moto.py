"""moto's mock_aws side by side: SQS goes to the fake, every other service to moto."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.fake.facade import core_of

moto = pytest.importorskip("moto")

REGION = "us-east-1"


def client(service: str) -> Any:
    return boto3.client(service, region_name=REGION)


@pytest.fixture
def moto_then_fake() -> Iterator[FakeSQS]:
    with moto.mock_aws(), fake_sqs() as fake:
        yield fake


@pytest.fixture
def fake_then_moto() -> Iterator[FakeSQS]:
    with fake_sqs() as fake, moto.mock_aws():
        yield fake


@pytest.fixture(params=["moto_then_fake", "fake_then_moto"])
def fake(request: pytest.FixtureRequest) -> FakeSQS:
    served: FakeSQS = request.getfixturevalue(request.param)
    return served


def queue_arn(sqs: Any, url: str) -> str:
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
    arn: str = attributes["Attributes"]["QueueArn"]
    return arn


def test_sqs_goes_to_the_fake_and_other_services_to_moto(fake: FakeSQS) -> None:
    sqs = client("sqs")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="hello")
    s3 = client("s3")
    s3.create_bucket(Bucket="reports")

    assert fake.queue("jobs").bodies() == ["hello"]
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == ["reports"]
    from moto.sqs.models import sqs_backends

    assert sqs_backends["123456789012"][REGION].queues == {}


def test_sns_delivers_into_the_fake_with_the_envelope(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url = sqs.create_queue(QueueName="events")["QueueUrl"]
    topic = sns.create_topic(Name="orders")["TopicArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=queue_arn(sqs, url))

    sns.publish(TopicArn=topic, Message="order placed", Subject="new")

    envelope = json.loads(fake.queue("events").bodies()[0])
    assert envelope["Type"] == "Notification"
    assert envelope["TopicArn"] == topic
    assert envelope["Message"] == "order placed"
    assert envelope["Subject"] == "new"
    received = sqs.receive_message(QueueUrl=url)["Messages"]
    assert json.loads(received[0]["Body"])["Message"] == "order placed"


def test_sns_raw_delivery_keeps_body_and_attributes(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url = sqs.create_queue(QueueName="raw")["QueueUrl"]
    topic = sns.create_topic(Name="orders")["TopicArn"]
    sns.subscribe(
        TopicArn=topic,
        Protocol="sqs",
        Endpoint=queue_arn(sqs, url),
        Attributes={"RawMessageDelivery": "true"},
    )

    sns.publish(
        TopicArn=topic,
        Message="raw body",
        MessageAttributes={"kind": {"DataType": "String", "StringValue": "order"}},
    )

    received = sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"])["Messages"]
    assert received[0]["Body"] == "raw body"
    assert received[0]["MessageAttributes"] == {
        "kind": {"DataType": "String", "StringValue": "order"}
    }


def test_raw_delivery_attributes_read_in_either_of_motos_spellings() -> None:
    # moto 5.0.0 to 5.1.15 hand SNS's raw delivery attributes to SQS in snake case (the oldest
    # venv runs moto 5.0.0 through the test above); the bridge reads both spellings alike.
    from pytest_fakesqs.transport.moto_bridge import _wire_attributes

    wire = {"kind": {"DataType": "String", "StringValue": "order"}}
    assert _wire_attributes({"kind": {"data_type": "String", "string_value": "order"}}) == wire
    assert _wire_attributes(wire) == wire
    assert _wire_attributes({"b": {"data_type": "Binary", "binary_value": b"\x00"}}) == {
        "b": {"DataType": "Binary", "BinaryValue": "AA=="}
    }


def test_sns_fifo_topic_delivers_into_a_fake_fifo_queue(fake: FakeSQS) -> None:
    sqs, sns = client("sqs"), client("sns")
    url = fake.create_queue("orders.fifo", ContentBasedDeduplication=True)
    topic = sns.create_topic(
        Name="orders.fifo",
        Attributes={"FifoTopic": "true", "ContentBasedDeduplication": "true"},
    )["TopicArn"]
    sns.subscribe(
        TopicArn=topic,
        Protocol="sqs",
        Endpoint=queue_arn(sqs, url),
        Attributes={"RawMessageDelivery": "true"},
    )

    for body in ("first", "second"):
        sns.publish(TopicArn=topic, Message=body, MessageGroupId="customer-1")

    assert fake.queue("orders.fifo").bodies() == ["first", "second"]


def test_s3_event_notifications_deliver_into_the_fake(fake: FakeSQS) -> None:
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

    s3.put_object(Bucket="inbox", Key="report.csv", Body=b"a,b")

    bodies = [json.loads(body) for body in fake.queue("uploads").bodies()]
    records = [r for body in bodies for r in body.get("Records", [])]
    assert [r["s3"]["object"]["key"] for r in records] == ["report.csv"]
    assert records[0]["eventName"] == "ObjectCreated:Put"


def test_eventbridge_targets_deliver_into_the_fake(fake: FakeSQS) -> None:
    sqs, events = client("sqs"), client("events")
    url = sqs.create_queue(QueueName="bus")["QueueUrl"]
    events.put_rule(Name="orders", EventPattern=json.dumps({"source": ["shop"]}))
    events.put_targets(Rule="orders", Targets=[{"Id": "q", "Arn": queue_arn(sqs, url)}])

    events.put_events(
        Entries=[{"Source": "shop", "DetailType": "placed", "Detail": json.dumps({"id": 7})}]
    )

    event = json.loads(fake.queue("bus").bodies()[0])
    assert event["source"] == "shop"
    assert event["detail-type"] == "placed"
    assert event["detail"] == {"id": 7}


def test_eventbridge_fifo_target_reads_the_fake_queues_attributes(fake: FakeSQS) -> None:
    sqs, events = client("sqs"), client("events")
    url = fake.create_queue("bus.fifo", ContentBasedDeduplication=True)
    events.put_rule(Name="orders", EventPattern=json.dumps({"source": ["shop"]}))
    events.put_targets(
        Rule="orders",
        Targets=[
            {"Id": "q", "Arn": queue_arn(sqs, url), "SqsParameters": {"MessageGroupId": "g1"}}
        ],
    )

    events.put_events(Entries=[{"Source": "shop", "DetailType": "placed", "Detail": "{}"}])

    assert len(fake.queue("bus.fifo").bodies()) == 1


def test_moto_keeps_queues_the_fake_does_not_have(fake: FakeSQS) -> None:
    from moto.sqs.models import sqs_backends

    backend = sqs_backends["123456789012"][REGION]
    backend.create_queue("moto-only")
    backend.send_message("moto-only", "kept by moto")

    assert [m.body for m in backend.get_queue("moto-only")._messages] == ["kept by moto"]
    assert [q.name for q in core_of(fake).broker.queues()] == []


def test_without_a_fake_moto_serves_sqs_again() -> None:
    with moto.mock_aws():
        with fake_sqs():
            pass
        sqs = client("sqs")
        sqs.create_queue(QueueName="moto-queue")
        from moto.sqs.models import sqs_backends

        assert list(sqs_backends["123456789012"][REGION].queues) == ["moto-queue"]


def _moto_attributes() -> list[object]:
    from moto.core.botocore_stubber import BotocoreStubber
    from moto.core.models import MockAWS
    from moto.sqs.models import SQSBackend

    return [
        BotocoreStubber.__dict__["__call__"],
        SQSBackend.__dict__["send_message"],
        SQSBackend.__dict__["get_queue_attributes"],
        MockAWS.__dict__["_enable_patching"],
    ]


def test_moto_is_patched_only_while_its_mock_and_a_fake_are_both_on() -> None:
    originals = _moto_attributes()
    with fake_sqs(), fake_sqs():  # nested: only the outermost stop puts moto back
        # moto's stubber does nothing while its mock is off: nothing of moto's is wrapped
        # but the start of its mock (no per-request work on every send).
        assert _moto_attributes()[:3] == originals[:3]
        with moto.mock_aws():
            patched = _moto_attributes()
        after_mock = _moto_attributes()
    assert all(p is not o for p, o in zip(patched, originals, strict=True))
    assert after_mock[:3] == originals[:3]
    assert _moto_attributes() == originals
    with moto.mock_aws():
        assert _moto_attributes() == originals  # moto alone: the fake patches nothing of it
        with fake_sqs():
            assert all(p is not o for p, o in zip(_moto_attributes(), originals, strict=True))
        assert _moto_attributes() == originals


def test_deliveries_by_moto_need_no_user_signature_when_signatures_are_verified() -> None:
    keys = {"aws_access_key_id": "AKIDTEAM", "aws_secret_access_key": "team-secret"}
    with (
        moto.mock_aws(),
        fake_sqs(verify_signatures=True, credentials={"AKIDTEAM": "team-secret"}) as fake,
    ):
        sqs = boto3.client("sqs", region_name=REGION, **keys)
        sns = client("sns")
        url = sqs.create_queue(QueueName="signed")["QueueUrl"]
        topic = sns.create_topic(Name="orders")["TopicArn"]
        sns.subscribe(
            TopicArn=topic,
            Protocol="sqs",
            Endpoint=queue_arn(sqs, url),
            Attributes={"RawMessageDelivery": "true"},
        )

        sns.publish(TopicArn=topic, Message="delivered by SNS")

        assert fake.queue("signed").bodies() == ["delivered by SNS"]
        with pytest.raises(sqs.exceptions.ClientError) as refused:
            client("sqs").send_message(QueueUrl=url, MessageBody="moto's own keys")
        assert refused.value.response["Error"]["Code"] == "InvalidClientTokenId"
