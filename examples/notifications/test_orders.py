"""Queue policies, enforced as AWS enforces them: a missing statement fails here, not in
production, where SNS drops the messages silently (docs/policies.md).

`enforce_policies=True` turns the checks on; moto serves SNS side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .orders import consume, provision, publish_order

moto = pytest.importorskip("moto")

PARTNER = "222222222222"  # a 12-digit access key id signs as that account
pytestmark = [pytest.mark.fakesqs(enforce_policies=True), pytest.mark.fakesqs_only]


@pytest.fixture
def aws() -> Iterator[tuple[Any, Any]]:
    with moto.mock_aws():
        yield (
            boto3.client("sqs", region_name="us-east-1"),
            boto3.client("sns", region_name="us-east-1"),
        )


def partner_sqs() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id=PARTNER, aws_secret_access_key="x"
    )


def test_orders_reach_the_partner(fakesqs: FakeSQS, aws: tuple[Any, Any]) -> None:
    sqs, sns = aws
    wiring = provision(sqs, sns, partner_account=PARTNER)
    publish_order(sns, wiring, {"id": 1})
    assert consume(partner_sqs(), wiring) == [{"id": 1}]
    assert fakesqs.refused_deliveries() == []


def test_a_queue_without_the_sns_statement_is_caught(
    fakesqs: FakeSQS, aws: tuple[Any, Any]
) -> None:
    sqs, sns = aws
    wiring = provision(sqs, sns, partner_account=PARTNER, allow_sns=False)  # the bug
    publish_order(sns, wiring, {"id": 1})  # SNS accepts the publish, as on AWS...
    assert consume(partner_sqs(), wiring) == []  # ...and the queue never gets it
    (refused,) = fakesqs.refused_deliveries()
    assert refused.reason == f"no statement allows sns.amazonaws.com from {wiring.topic_arn}"


def test_the_partner_is_denied_without_its_statement(
    fakesqs: FakeSQS, aws: tuple[Any, Any]
) -> None:
    sqs, sns = aws
    wiring = provision(sqs, sns)  # forgot partner_account
    with pytest.raises(ClientError) as caught:
        consume(partner_sqs(), wiring)
    error = caught.value.response["Error"]
    assert error["Code"] == "AccessDenied"
    assert error["Message"] == (
        f"User: arn:aws:iam::{PARTNER}:root is not authorized to perform: sqs:receivemessage "
        f"on resource: {wiring.queue_arn} because no resource-based policy allows the "
        "sqs:receivemessage action"
    )
