"""Lone surrogates (found by fuzzing) are refused with AWS's errors, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol import WireRequest


def call(fakesqs: FakeSQS, action: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = core_of(fakesqs).handler.handle(
        WireRequest(
            "POST",
            "https://sqs.us-east-1.amazonaws.com/",
            {
                "x-amz-target": f"AmazonSQS.{action}",
                "content-type": "application/x-amz-json-1.0",
            },
            json.dumps(params).encode(),
        )
    )
    return response.status, json.loads(response.body) if response.body else {}


@pytest.mark.parametrize(
    ("system", "message"),
    [
        (
            {"AWSTraceHeader": {"DataType": "String", "StringValue": "Root=1\ud800"}},
            "Message (system) attribute 'AWSTraceHeader' must contain a value with valid characters.",
        ),
    ],
)
def test_trace_header_with_a_lone_surrogate(
    fakesqs: FakeSQS, system: dict[str, Any], message: str
) -> None:
    url = fakesqs.create_queue("q")
    status, body = call(
        fakesqs,
        "SendMessage",
        {"QueueUrl": url, "MessageBody": "x", "MessageSystemAttributes": system},
    )
    assert (status, body) == (
        400,
        {"__type": "com.amazonaws.sqs#InvalidParameterValueException", "message": message},
    )
    assert len(fakesqs.queue("q")) == 0
