"""`verify_signatures`: real clients signing with known, unknown and wrong keys."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS, FakeSQSServer

KEYS = {"AKIDTEAM": "team-secret"}
pytestmark = pytest.mark.fakesqs(verify_signatures=True, credentials=KEYS)


def client(server: FakeSQSServer, access_key: str, secret_key: str) -> Any:
    return server.client(
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        config=Config(retries={"total_max_attempts": 1}),
    )


def test_a_client_with_configured_credentials_is_served(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = client(fakesqs_server, "AKIDTEAM", "team-secret")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="signed")

    assert fakesqs.queue("jobs").bodies() == ["signed"]


def test_an_unknown_access_key_is_refused_with_403(fakesqs_server: FakeSQSServer) -> None:
    sqs = client(fakesqs_server, "AKIDSTRANGER", "team-secret")

    with pytest.raises(ClientError) as raised:
        sqs.list_queues()

    assert raised.value.response["Error"]["Code"] == "InvalidClientTokenId"
    assert raised.value.response["Error"]["Message"] == (
        "The security token included in the request is invalid."
    )
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403


def test_a_wrong_secret_is_refused_with_403(fakesqs_server: FakeSQSServer) -> None:
    sqs = client(fakesqs_server, "AKIDTEAM", "guessed")

    with pytest.raises(ClientError) as raised:
        sqs.list_queues()

    assert raised.value.response["Error"]["Code"] == "SignatureDoesNotMatch"
    assert raised.value.response["Error"]["Message"].startswith(
        "The request signature we calculated does not match the signature you provided. "
        "Check your AWS Secret Access Key and signing method. "
        "Consult the service documentation for details.\n\n"
    )
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403


def test_in_process_clients_are_verified_too(fakesqs: FakeSQS) -> None:
    stranger = boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="AKIDX", aws_secret_access_key="s"
    )
    with pytest.raises(ClientError) as raised:
        stranger.list_queues()

    assert raised.value.response["Error"]["Code"] == "InvalidClientTokenId"


@pytest.mark.fakesqs(verify_signatures=False)
def test_verification_is_off_by_default(fakesqs_server: FakeSQSServer) -> None:
    assert (
        client(fakesqs_server, "anyone", "anything").list_queues()["ResponseMetadata"][
            "HTTPStatusCode"
        ]
        == 200
    )
