"""moto and aiobotocore stay optional: without them the fake neither imports nor patches them."""

from __future__ import annotations

import sys

import boto3
import pytest

from pytest_fakesqs import fake_sqs


def test_absent_libraries_are_never_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    # Neither imported here: the fake patches them only once the code under test imports them.
    for name in [m for m in sys.modules if m.split(".")[0] in ("moto", "aiobotocore")]:
        monkeypatch.delitem(sys.modules, name)
    for module in ("aio", "moto_bridge", "moto_lifecycle", "moto_sources"):
        monkeypatch.delitem(sys.modules, f"pytest_fakesqs.transport.{module}", raising=False)
    loaded_before = set(sys.modules)

    with fake_sqs():
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="plain")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="botocore alone")

    newly_loaded = set(sys.modules) - loaded_before
    optional = (
        "moto",
        "aiobotocore",
        "pytest_fakesqs.transport.aio",
        "pytest_fakesqs.transport.moto",
    )
    assert sorted(m for m in newly_loaded if m.startswith(optional)) == []
