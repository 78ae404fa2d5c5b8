"""Tier 2: accounts and queue policies over the wire, through JSON and query clients.

Callers have accounts always; with `enforce_policies=True` the queue's Policy is enforced as
AWS does: the owner's account is allowed unless explicitly denied, other accounts need an Allow,
and a refusal is AccessDenied (HTTP 403) with AWS's text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.api.principals import iam_user

from .policy_helpers import (
    ACCOUNTS,
    ALICE_KEY,
    ENFORCING,
    OTHER,
    OWNER,
    REGION,
    Connect,
    arn_of,
    denied,
    make_connect,
    refusal,
    set_policy,
)


@pytest.fixture(params=["json", "query"])
def connect(request: pytest.FixtureRequest, tmp_path: Path, fakesqs: FakeSQS) -> Connect:
    """A client signing with the given access key id, in the wire protocol of the param."""
    return make_connect(request.param, tmp_path)


# -- accounts, always ---------------------------------------------------------------------------


@ACCOUNTS
def test_each_account_lists_and_names_its_own_queues(connect: Connect) -> None:
    owner, other = connect(OWNER), connect(ALICE_KEY)
    owner_url = owner.create_queue(QueueName="orders")["QueueUrl"]
    other_url = other.create_queue(QueueName="orders")["QueueUrl"]
    assert owner_url == f"https://sqs.{REGION}.amazonaws.com/{OWNER}/orders"
    assert other_url == f"https://sqs.{REGION}.amazonaws.com/{OTHER}/orders"
    assert owner.list_queues()["QueueUrls"] == [owner_url]
    assert other.list_queues()["QueueUrls"] == [other_url]
    assert owner.get_queue_url(QueueName="orders")["QueueUrl"] == owner_url
    assert other.get_queue_url(QueueName="orders")["QueueUrl"] == other_url
    assert (
        other.get_queue_url(QueueName="orders", QueueOwnerAWSAccountId=OWNER)["QueueUrl"]
        == owner_url
    )
    assert arn_of(other, other_url) == f"arn:aws:sqs:{REGION}:{OTHER}:orders"


@ACCOUNTS
def test_the_fake_finds_another_accounts_queue_by_name(connect: Connect, fakesqs: FakeSQS) -> None:
    url = connect(ALICE_KEY).create_queue(QueueName="partner-only")["QueueUrl"]
    assert fakesqs.queue("partner-only").url == url
    assert fakesqs.queue(url).url == url


@ACCOUNTS
def test_a_name_resolves_in_the_callers_account_only(connect: Connect) -> None:
    connect(OWNER).create_queue(QueueName="only-mine")
    with pytest.raises(ClientError) as caught:
        connect(ALICE_KEY).get_queue_url(QueueName="only-mine")
    assert caught.value.response["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"


@ACCOUNTS
def test_without_enforcement_a_url_reaches_another_accounts_queue(connect: Connect) -> None:
    url = connect(OWNER).create_queue(QueueName="shared")["QueueUrl"]
    connect(ALICE_KEY).send_message(QueueUrl=url, MessageBody="from elsewhere")
    assert connect(OWNER).receive_message(QueueUrl=url)["Messages"][0]["Body"] == "from elsewhere"


@ACCOUNTS
def test_sender_id_is_the_callers_principal_id(connect: Connect, fakesqs: FakeSQS) -> None:
    owner = connect(OWNER)
    url = owner.create_queue(QueueName="senders")["QueueUrl"]
    sent = {
        key: connect(key).send_message(QueueUrl=url, MessageBody=key)["MessageId"]
        for key in (OWNER, ALICE_KEY, "AKIAUNMAPPED", ALICE_KEY + "-2")
    }
    received = owner.receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["SenderId"]
    )["Messages"]
    senders = {m["Body"]: m["Attributes"]["SenderId"] for m in received}
    assert senders[OWNER] == OWNER  # an account root: the account id
    alice = senders[ALICE_KEY]
    assert alice == iam_user(ALICE_KEY, OTHER).principal_id
    assert alice.startswith("AIDA") and len(alice) == 21 and alice[4:].isalnum()
    assert alice[4:] == alice[4:].upper()
    assert len(set(senders.values())) == 4  # different keys, different principals
    again = connect(ALICE_KEY).send_message(QueueUrl=url, MessageBody="again")["MessageId"]
    assert fakesqs.history(again)[0].detail == f"by {alice}"  # stable per key
    assert fakesqs.history(sent[OWNER])[0].detail == f"by {OWNER}"


# -- enforcement --------------------------------------------------------------------------------


@ENFORCING
def test_the_owners_account_is_allowed_and_other_accounts_are_denied(connect: Connect) -> None:
    owner, alice = connect(OWNER), connect(ALICE_KEY)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    arn = arn_of(owner, url)
    owner.send_message(QueueUrl=url, MessageBody="mine")
    alice_arn = f"arn:aws:iam::{OTHER}:user/{ALICE_KEY}"
    assert refusal(alice.send_message, QueueUrl=url, MessageBody="x") == denied(
        "SendMessage", alice_arn, arn
    )
    assert refusal(alice.receive_message, QueueUrl=url) == denied("ReceiveMessage", alice_arn, arn)
    assert refusal(alice.get_queue_url, QueueName="orders", QueueOwnerAWSAccountId=OWNER) == denied(
        "GetQueueUrl", alice_arn, arn
    )
    root_of_other = connect(OTHER)  # the other account's root is no different
    assert refusal(root_of_other.purge_queue, QueueUrl=url) == denied(
        "PurgeQueue", f"arn:aws:iam::{OTHER}:root", arn
    )


@ENFORCING
def test_batches_authorise_as_their_single_message_action(connect: Connect) -> None:
    owner, alice = connect(OWNER), connect(ALICE_KEY)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    arn = arn_of(owner, url)
    entries = [{"Id": "1", "MessageBody": "a"}]
    alice_arn = f"arn:aws:iam::{OTHER}:user/{ALICE_KEY}"
    assert refusal(alice.send_message_batch, QueueUrl=url, Entries=entries) == denied(
        "SendMessage", alice_arn, arn
    )
    set_policy(
        owner,
        url,
        {
            "Effect": "Allow",
            "Principal": {"AWS": OTHER},
            "Action": "sqs:SendMessage",
            "Resource": arn,
        },
    )
    assert alice.send_message_batch(QueueUrl=url, Entries=entries)["Successful"][0]["Id"] == "1"


@ENFORCING
def test_add_permission_lets_another_account_in(connect: Connect) -> None:
    owner, alice = connect(OWNER), connect(ALICE_KEY)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    owner.add_permission(
        QueueUrl=url, Label="consumer", AWSAccountIds=[OTHER], Actions=["ReceiveMessage"]
    )
    owner.send_message(QueueUrl=url, MessageBody="for alice")
    assert alice.receive_message(QueueUrl=url)["Messages"][0]["Body"] == "for alice"
    with pytest.raises(ClientError):  # only what was granted
        alice.send_message(QueueUrl=url, MessageBody="no")
    owner.remove_permission(QueueUrl=url, Label="consumer")
    assert refusal(alice.receive_message, QueueUrl=url)[0] == 403


@ENFORCING
def test_an_explicit_deny_refuses_even_the_owners_account(connect: Connect) -> None:
    owner = connect(OWNER)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    arn = arn_of(owner, url)
    set_policy(
        owner,
        url,
        {"Effect": "Allow", "Principal": "*", "Action": "sqs:*", "Resource": arn},
        {
            "Sid": "NoPurge",
            "Effect": "Deny",
            "Principal": "*",
            "Action": "sqs:Purge*",
            "Resource": arn,
        },
    )
    owner.send_message(QueueUrl=url, MessageBody="fine")
    assert refusal(owner.purge_queue, QueueUrl=url) == denied(
        "PurgeQueue", f"arn:aws:iam::{OWNER}:root", arn, explicit=True
    )


@ENFORCING
def test_a_role_session_from_another_account_is_allowed_by_role_arn(
    connect: Connect, fakesqs: FakeSQS
) -> None:
    owner, alice = connect(OWNER), connect(ALICE_KEY)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    arn = arn_of(owner, url)
    alice_arn = f"arn:aws:iam::{OTHER}:user/{ALICE_KEY}"
    set_policy(
        owner,
        url,
        {
            "Effect": "Allow",
            "Principal": {"AWS": alice_arn},
            "Action": "SQS:Send*",
            "Resource": arn,
        },
    )
    alice.send_message(QueueUrl=url, MessageBody="by arn")
    assert refusal(connect(OTHER).send_message, QueueUrl=url, MessageBody="root") == denied(
        "SendMessage", f"arn:aws:iam::{OTHER}:root", arn
    )


@ENFORCING
def test_malformed_policies_are_refused_as_aws_refuses_them(connect: Connect) -> None:
    owner = connect(OWNER)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    bad = json.dumps({"Statement": [{"Effect": "Allow", "Action": "sqs:*"}]})  # no Principal
    for call, kwargs in (
        (owner.set_queue_attributes, {"QueueUrl": url, "Attributes": {"Policy": bad}}),
        (owner.create_queue, {"QueueName": "other", "Attributes": {"Policy": "{not json"}}),
    ):
        assert refusal(call, **kwargs) == (
            400,
            "InvalidAttributeValue",
            "Invalid value for the parameter Policy.",
        )


@ENFORCING
def test_conditions_this_fake_cannot_evaluate_are_refused_clearly(connect: Connect) -> None:
    owner = connect(OWNER)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    statement = {
        "Effect": "Allow",
        "Principal": "*",
        "Action": "sqs:*",
        "Condition": {"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}},
    }
    with pytest.raises(ClientError) as caught:
        set_policy(owner, url, statement)
    message = caught.value.response["Error"]["Message"]
    assert message.startswith(
        "fakesqs (enforce_policies=True) does not evaluate the condition operator IpAddress;"
    )


def test_without_enforcement_any_valid_policy_is_stored(connect: Connect) -> None:
    owner = connect(OWNER)
    url = owner.create_queue(QueueName="orders")["QueueUrl"]
    statement = {
        "Effect": "Deny",
        "Principal": "*",
        "Action": "sqs:*",
        "Condition": {"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}},
    }
    set_policy(owner, url, statement)
    owner.send_message(QueueUrl=url, MessageBody="nothing is enforced")


@ENFORCING
def test_secure_transport_is_false_over_plain_http(fakesqs: FakeSQS, fakesqs_server: Any) -> None:
    in_process = boto3.client(
        "sqs", region_name=REGION, aws_access_key_id=OWNER, aws_secret_access_key="s"
    )
    url = in_process.create_queue(QueueName="tls-only")["QueueUrl"]
    arn = arn_of(in_process, url)
    set_policy(
        in_process,
        url,
        {
            "Effect": "Deny",
            "Principal": "*",
            "Action": "sqs:*",
            "Resource": arn,
            "Condition": {"Bool": {"aws:SecureTransport": "false"}},
        },
    )
    in_process.send_message(QueueUrl=url, MessageBody="over https")  # botocore's default
    over_http = boto3.client(
        "sqs",
        region_name=REGION,
        endpoint_url=fakesqs_server.endpoint_url,
        aws_access_key_id=OWNER,
        aws_secret_access_key="s",
    )
    http_url = f"{fakesqs_server.endpoint_url}/{OWNER}/tls-only"
    assert refusal(over_http.send_message, QueueUrl=http_url, MessageBody="x") == denied(
        "SendMessage", f"arn:aws:iam::{OWNER}:root", arn, explicit=True
    )


@ACCOUNTS
def test_dead_letter_records_carry_the_same_sender_id(connect: Connect, fakesqs: FakeSQS) -> None:
    alice = connect(ALICE_KEY)
    dlq = alice.create_queue(QueueName="dlq")["QueueUrl"]
    redrive = json.dumps({"deadLetterTargetArn": arn_of(alice, dlq), "maxReceiveCount": 1})
    url = alice.create_queue(
        QueueName="work", Attributes={"RedrivePolicy": redrive, "VisibilityTimeout": "0"}
    )["QueueUrl"]
    alice.send_message(QueueUrl=url, MessageBody="poison")
    alice.receive_message(QueueUrl=url)
    alice.receive_message(QueueUrl=url)
    (letter,) = fakesqs.dead_letters(dlq)
    sender = iam_user(ALICE_KEY, OTHER).principal_id
    assert letter.attributes["SenderId"] == sender
    assert letter.history[0].detail == f"by {sender}"
