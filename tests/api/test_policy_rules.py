"""Tier 2: each rule of the policy evaluator over the wire, through JSON and query clients: a
statement that allows a cross-account SendMessage, and the same statement as a Deny."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .policy_helpers import (
    ALICE_KEY,
    ENFORCING,
    OTHER,
    OWNER,
    REGION,
    Connect,
    denied,
    make_connect,
    refusal,
    set_policy,
)


@pytest.fixture(params=["json", "query"])
def connect(request: pytest.FixtureRequest, tmp_path: Path, fakesqs: FakeSQS) -> Connect:
    """A client signing with the given access key id, in the wire protocol of the param."""
    return make_connect(request.param, tmp_path)


ALICE_ARN = f"arn:aws:iam::{OTHER}:user/{ALICE_KEY}"
QUEUE = f"arn:aws:sqs:{REGION}:{OWNER}:rules"
# (statement elements beyond Effect Allow, whether alice's SendMessage is allowed)
RULES: list[tuple[str, dict[str, Any], bool]] = [
    ("principal star", {"Principal": "*"}, True),
    ("principal AWS star", {"Principal": {"AWS": "*"}}, True),
    ("principal account id", {"Principal": {"AWS": OTHER}}, True),
    ("principal root arn", {"Principal": {"AWS": f"arn:aws:iam::{OTHER}:root"}}, True),
    ("principal user arn", {"Principal": {"AWS": ALICE_ARN}}, True),
    ("principal another user", {"Principal": {"AWS": f"arn:aws:iam::{OTHER}:user/bob"}}, False),
    ("principal another account", {"Principal": {"AWS": OWNER}}, False),
    ("principal service", {"Principal": {"Service": "sns.amazonaws.com"}}, False),
    ("not principal", {"NotPrincipal": {"AWS": OWNER}}, True),
    ("action wildcard", {"Action": "SQS:send*"}, True),
    ("other action", {"Action": "sqs:ReceiveMessage"}, False),
    ("not action", {"NotAction": "sqs:ReceiveMessage"}, True),
    ("not action of send", {"NotAction": "sqs:SendMessage"}, False),
    ("resource wildcard", {"Resource": f"arn:aws:sqs:*:{OWNER}:ru*"}, True),
    ("other resource", {"Resource": f"arn:aws:sqs:*:{OWNER}:other"}, False),
    ("not resource", {"NotResource": f"arn:aws:sqs:*:{OWNER}:other"}, True),
    (
        "StringEquals aws:PrincipalAccount",
        {"Condition": {"StringEquals": {"aws:PrincipalAccount": OTHER}}},
        True,
    ),
    (
        "StringNotEquals aws:PrincipalAccount",
        {"Condition": {"StringNotEquals": {"aws:PrincipalAccount": OTHER}}},
        False,
    ),
    (
        "StringLike aws:PrincipalAccount",
        {"Condition": {"StringLike": {"aws:PrincipalAccount": "2222*"}}},
        True,
    ),
    ("Bool aws:SecureTransport", {"Condition": {"Bool": {"aws:SecureTransport": "true"}}}, True),
    (
        "ArnEquals aws:SourceArn, absent",
        {"Condition": {"ArnEquals": {"aws:SourceArn": QUEUE}}},
        False,
    ),
    (
        "ArnLike aws:SourceArn, absent",
        {"Condition": {"ArnLike": {"aws:SourceArn": "arn:*"}}},
        False,
    ),
]


@ENFORCING
@pytest.mark.parametrize(("elements", "allowed"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_policy_rule_over_the_wire(
    connect: Connect, elements: dict[str, Any], allowed: bool
) -> None:
    owner, alice = connect(OWNER), connect(ALICE_KEY)
    url = owner.create_queue(QueueName="rules")["QueueUrl"]
    statement: dict[str, Any] = {"Effect": "Allow", "Principal": "*", "Action": "sqs:*"}
    if "NotPrincipal" in elements:
        del statement["Principal"]
    if "NotAction" in elements:
        del statement["Action"]
    set_policy(owner, url, {**statement, **elements})
    if allowed:
        alice.send_message(QueueUrl=url, MessageBody="allowed")
        assert connect(OWNER).receive_message(QueueUrl=url)["Messages"][0]["Body"] == "allowed"
    else:
        assert refusal(alice.send_message, QueueUrl=url, MessageBody="x") == denied(
            "SendMessage", ALICE_ARN, QUEUE
        )
    # The same statement as a Deny refuses exactly what it allowed, even for the owner's account.
    set_policy(owner, url, {**statement, **elements, "Effect": "Deny"})
    with pytest.raises(ClientError) as caught:
        alice.send_message(QueueUrl=url, MessageBody="x")
    assert caught.value.response["Error"]["Message"].endswith(
        "with an explicit deny in a resource-based policy"
        if allowed
        else "because no resource-based policy allows the sqs:sendmessage action"
    )
