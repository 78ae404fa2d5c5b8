"""Tier 2: AddPermission / RemovePermission and the Policy document AWS builds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import wire_error
from .redrive_helpers import queue_arn

OTHER_ACCOUNT = "668614515564"
OWN_ACCOUNT = "123456789012"


def policy_of(sqs: Any, url: str) -> Any:
    response = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])
    if "Attributes" not in response:
        return None
    return json.loads(response["Attributes"]["Policy"])


def statement(arn: str, sid: str, *accounts: str) -> dict[str, Any]:
    principals = [f"arn:aws:iam::{account}:root" for account in accounts]
    return {
        "Sid": sid,
        "Effect": "Allow",
        "Principal": {"AWS": principals[0] if len(principals) == 1 else principals},
        "Action": "SQS:ReceiveMessage",
        "Resource": arn,
    }


def error_of(call: Any, **kwargs: Any) -> tuple[int, dict[str, Any]]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    response = caught.value.response
    return response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]


def test_sqs_permission_lifecycle(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    """Recorded: test_sqs_permission_lifecycle[sqs], step by step."""
    arn = queue_arn(sqs, queue_url)
    sqs.add_permission(
        QueueUrl=queue_url,
        Label="crossaccountpermission",
        AWSAccountIds=[OTHER_ACCOUNT, OWN_ACCOUNT],
        Actions=["ReceiveMessage"],
    )
    assert policy_of(sqs, queue_url) == {
        "Version": "2008-10-17",
        "Id": f"{arn}/SQSDefaultPolicy",
        "Statement": [statement(arn, "crossaccountpermission", OTHER_ACCOUNT, OWN_ACCOUNT)],
    }
    sqs.remove_permission(QueueUrl=queue_url, Label="crossaccountpermission")
    assert policy_of(sqs, queue_url) is None  # the last statement takes the policy with it

    grant = {"QueueUrl": queue_url, "AWSAccountIds": [OWN_ACCOUNT], "Actions": ["ReceiveMessage"]}
    sqs.add_permission(Label="crossaccountpermission", **grant)
    assert policy_of(sqs, queue_url)["Statement"] == [
        statement(arn, "crossaccountpermission", OWN_ACCOUNT)
    ]
    status, error = error_of(sqs.add_permission, Label="crossaccountpermission", **grant)
    assert status == 400
    assert error == wire_error(
        "InvalidParameterValue",
        "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists.",
        "InvalidParameterValueException",
    )
    sqs.add_permission(Label="crossaccountpermission2", **grant)
    assert policy_of(sqs, queue_url)["Statement"] == [
        statement(arn, "crossaccountpermission", OWN_ACCOUNT),
        statement(arn, "crossaccountpermission2", OWN_ACCOUNT),
    ]
    sqs.remove_permission(QueueUrl=queue_url, Label="crossaccountpermission")
    assert policy_of(sqs, queue_url)["Statement"] == [
        statement(arn, "crossaccountpermission2", OWN_ACCOUNT)
    ]
    sqs.remove_permission(QueueUrl=queue_url, Label="crossaccountpermission2")
    assert policy_of(sqs, queue_url) is None
    status, error = error_of(
        sqs.remove_permission, QueueUrl=queue_url, Label="crossaccountpermission2"
    )
    assert status == 400
    assert error == wire_error(
        "InvalidParameterValue",
        "Value crossaccountpermission2 for parameter Label is invalid. Reason: can't find label.",
        "InvalidParameterValueException",
    )


def test_several_actions_are_listed(fakesqs: FakeSQS, sqs: Any, queue_url: str) -> None:
    sqs.add_permission(
        QueueUrl=queue_url,
        Label="workers",
        AWSAccountIds=[OTHER_ACCOUNT],
        Actions=["SendMessage", "ReceiveMessage", "*"],
    )
    assert policy_of(sqs, queue_url)["Statement"][0]["Action"] == [
        "SQS:SendMessage",
        "SQS:ReceiveMessage",
        "SQS:*",
    ]


@pytest.mark.parametrize(
    ("changes", "status", "code", "message"),
    [
        (
            {"Actions": [f"SendMessage{i}" for i in range(8)]},
            403,
            "OverLimit",
            "8 Actions were found, maximum allowed is 7.",
        ),
        (
            {"Actions": ["DeleteQueue"]},
            400,
            "InvalidParameterValue",
            "Value SQS:DeleteQueue for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.",
        ),
        (
            {"Actions": ["Frobnicate"]},
            400,
            "InvalidParameterValue",
            "Value SQS:Frobnicate for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions.",
        ),
        (
            {"Actions": []},
            400,
            "MissingParameter",
            "The request must contain the parameter Actions.",
        ),
        (
            {"AWSAccountIds": []},
            400,
            "InvalidParameterValue",
            "Value [] for parameter PrincipalId is invalid. Reason: Unable to verify principal.",
        ),
        (
            {"Label": "has space"},
            400,
            "InvalidParameterValue",
            "Value has space for parameter Label is invalid. Reason: Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.",
        ),
    ],
)
def test_add_permission_errors(
    fakesqs: FakeSQS,
    sqs: Any,
    queue_url: str,
    changes: dict[str, Any],
    status: int,
    code: str,
    message: str,
) -> None:
    request = {
        "QueueUrl": queue_url,
        "Label": "grant",
        "AWSAccountIds": [OTHER_ACCOUNT],
        "Actions": ["SendMessage"],
        **changes,
    }
    got_status, error = error_of(sqs.add_permission, **request)
    assert (got_status, error["Code"], error["Message"]) == (status, code, message)
    assert policy_of(sqs, queue_url) is None
