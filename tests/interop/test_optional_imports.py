"""moto and aiobotocore stay optional: without them the fake neither imports nor patches them."""

from __future__ import annotations

import sys

import boto3
import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.transport import inprocess


def test_absent_libraries_are_never_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes find_spec report the library as not installed.
    for library in ("moto", "aiobotocore"):
        monkeypatch.setitem(sys.modules, library, None)  # type: ignore[arg-type]
    monkeypatch.setattr(inprocess, "_available", None)
    loaded_before = set(sys.modules)

    with fake_sqs():
        extensions = list(inprocess._installed)
        sqs = boto3.client("sqs", region_name="us-east-1")
        url = sqs.create_queue(QueueName="plain")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="botocore alone")

    newly_loaded = set(sys.modules) - loaded_before
    assert extensions == []
    assert inprocess._available == []
    assert sorted(m for m in newly_loaded if m.startswith(("moto", "aiobotocore"))) == []
