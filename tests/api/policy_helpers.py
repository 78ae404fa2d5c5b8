"""Shared by the policy tests: accounts, clients of either wire protocol signing with a given
access key, and AWS's AccessDenied answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import botocore.session
import pytest
from botocore.exceptions import ClientError

from ..query_era import API_VERSION, installed_botocore_speaks_query, query_model_dict

OWNER = "111111111111"  # a 12-digit access key id is that account (its root)
OTHER = "222222222222"
ALICE_KEY = "alice-key"  # mapped to OTHER by the accounts option
REGION = "us-east-1"
ACCOUNTS = pytest.mark.fakesqs(accounts={ALICE_KEY: OTHER})
ENFORCING = pytest.mark.fakesqs(enforce_policies=True, accounts={ALICE_KEY: OTHER})

Connect = Callable[[str], Any]


def _query_client(data_dir: Path, access_key: str) -> Any:
    session = botocore.session.get_session()
    if not installed_botocore_speaks_query():
        model_dir = data_dir / "sqs" / API_VERSION
        model_dir.mkdir(parents=True, exist_ok=True)
        (model_dir / "service-2.json").write_text(json.dumps(query_model_dict()))
        session.get_component("data_loader").search_paths.insert(0, str(data_dir))
    return boto3.Session(botocore_session=session).client(
        "sqs", region_name=REGION, aws_access_key_id=access_key, aws_secret_access_key="s"
    )


def make_connect(protocol: str, tmp_path: Path) -> Connect:
    """Clients signing with a given access key id, in the wire protocol `protocol`."""

    def connect(access_key: str) -> Any:
        if protocol == "query":
            return _query_client(tmp_path, access_key)
        return boto3.client(
            "sqs", region_name=REGION, aws_access_key_id=access_key, aws_secret_access_key="s"
        )

    return connect


def arn_of(sqs: Any, url: str) -> str:
    arn: str = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    return arn


def refusal(call: Callable[..., Any], **kwargs: Any) -> tuple[int, str, str]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    response: Any = caught.value.response
    error = response["Error"]
    return response["ResponseMetadata"]["HTTPStatusCode"], error["Code"], error["Message"]


def denied(
    action: str, principal_arn: str, queue_arn: str, *, explicit: bool = False
) -> tuple[int, str, str]:
    performed = f"sqs:{action.lower()}"
    why = (
        "with an explicit deny in a resource-based policy"
        if explicit
        else f"because no resource-based policy allows the {performed} action"
    )
    text = f"User: {principal_arn} is not authorized to perform: {performed} on resource: {queue_arn} {why}"
    return 403, "AccessDenied", text


def set_policy(sqs: Any, url: str, *statements: dict[str, Any]) -> None:
    document = {"Version": "2012-10-17", "Statement": list(statements)}
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(document)})
