"""Fuzzing both wire protocols through the dispatcher every transport uses.

Thousands of generated malformed requests: each must be answered (never an exception), never
with a 5xx, and every refusal in AWS's error envelope for its protocol. Afterwards the engine's
counters must still describe its messages exactly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from urllib.parse import urlencode
from xml.etree import ElementTree

import pytest

from pytest_fakesqs.api import RequestContext, SqsService
from pytest_fakesqs.api.error_texts import ErrorText
from pytest_fakesqs.engine import Broker, Clock, State
from pytest_fakesqs.protocol import WireHandler, WireRequest, WireResponse

from .fuzz_cases import ENDPOINT, FORM_HEADERS, Case, Fuzzer

CASES = 3_000  # per seed; both protocols, about half each
QUERY_ERROR = re.compile(r"^[A-Za-z0-9.]+;(Sender|Receiver)$")
XML_NAMESPACE = "{http://queue.amazonaws.com/doc/2012-11-05/}"


def _fake_with_targets() -> tuple[SqsService, WireHandler, list[str]]:
    service = SqsService(Broker(Clock()))
    handler = WireHandler(service, region="us-east-1", account_id="123456789012")
    ctx = RequestContext(base_url="https://sqs.us-east-1.amazonaws.com")
    dead = service.call("CreateQueue", {"QueueName": "dead"}, ctx)["QueueUrl"]
    policy = json.dumps(
        {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dead", "maxReceiveCount": 2}
    )
    work = service.call(
        "CreateQueue", {"QueueName": "work", "Attributes": {"RedrivePolicy": policy}}, ctx
    )["QueueUrl"]
    fifo = service.call(
        "CreateQueue",
        {
            "QueueName": "work.fifo",
            "Attributes": {"FifoQueue": "true", "ContentBasedDeduplication": "true"},
        },
        ctx,
    )["QueueUrl"]
    for index in range(20):
        service.call("SendMessage", {"QueueUrl": work, "MessageBody": f"m{index}"}, ctx)
        service.call(
            "SendMessage",
            {"QueueUrl": fifo, "MessageBody": f"f{index}", "MessageGroupId": "g"},
            ctx,
        )
    handles = [
        m["ReceiptHandle"]
        for url in (work, fifo)
        for m in service.call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 5}, ctx)[
            "Messages"
        ]
    ]
    return service, handler, [dead, work, fifo, *handles, "work", "arn:aws:sqs:us-east-1:1:x"]


def _check_envelope(case: Case, response: WireResponse) -> str:
    """The error code, after checking the refusal has its protocol's exact shape."""
    if case.kind.startswith("json/"):
        header = response.headers.get("x-amzn-query-error", "")
        assert QUERY_ERROR.match(header), f"{case.kind}: x-amzn-query-error {header!r}"
        document = json.loads(response.body)
        assert set(document) == {"__type", "message"}, case.kind
        assert document["__type"].startswith("com.amazonaws.sqs#"), document
        assert isinstance(document["message"], str) and document["message"], document
        return header.split(";")[0]
    root = ElementTree.fromstring(response.body)
    assert root.tag == f"{XML_NAMESPACE}ErrorResponse", root.tag
    error = root.find(f"{XML_NAMESPACE}Error")
    assert error is not None, response.body[:200]
    code = error.findtext(f"{XML_NAMESPACE}Code")
    assert code, response.body[:200]
    assert error.findtext(f"{XML_NAMESPACE}Type") in ("Sender", "Receiver")
    assert root.findtext(f"{XML_NAMESPACE}RequestId")
    return code


def _check_invariants(service: SqsService) -> None:
    for queue in service.broker.queues():
        states = service.broker.states(queue)
        assert (queue.visible, queue.in_flight, queue.delayed) == (
            len(states[State.VISIBLE]),
            len(states[State.IN_FLIGHT]),
            len(states[State.DELAYED]),
        ), queue.name
        assert queue.bytes == sum(m.size for m in queue.live_messages()), queue.name
        assert set(queue.store.by_handle.values()) == set(states[State.IN_FLIGHT]), queue.name
        assert len(queue.store) == sum(len(v) for v in states.values()), queue.name


@pytest.mark.parametrize("seed", [1, 2])
def test_malformed_requests_get_aws_errors_never_crashes(seed: int) -> None:
    service, handler, targets = _fake_with_targets()
    fuzzer = Fuzzer(seed, targets)
    outcomes: Counter[str] = Counter()
    for case in fuzzer.cases(CASES):
        response = handler.handle(case.request)  # must not raise
        assert response.status < 500, (
            f"{case.kind} got {response.status}: {response.body[:300]!r}\n"
            f"request: {case.request.body[:300]!r}"
        )
        if response.status >= 400:
            code = _check_envelope(case, response)
            outcomes[f"{case.kind} {code}"] += 1
        else:
            assert response.status == 200
            assert not case.must_fail, f"{case.kind} succeeded: {case.request.body[:300]!r}"
            outcomes[f"{case.kind} ok"] += 1
    _check_invariants(service)
    refused = sum(n for key, n in outcomes.items() if not key.endswith(" ok"))
    assert refused > CASES // 2, outcomes  # the fuzzer mostly produces requests AWS refuses


# Crashes the fuzzer found, pinned.


def test_json_nested_deeper_than_any_parser_allows_is_a_serialization_error() -> None:
    _service, handler, _targets = _fake_with_targets()
    depth = 100_000
    body = b'{"QueueUrl":' + b"[" * depth + b"]" * depth + b"}"
    headers = {"content-type": "application/x-amz-json-1.0", "x-amz-target": "AmazonSQS.ListQueues"}
    response = handler.handle(WireRequest("POST", ENDPOINT, headers, body))
    assert response.status == 400
    assert json.loads(response.body) == {
        "__type": "com.amazonaws.sqs#SerializationException",
        "message": "Start of structure or map found where not expected.",
    }


def test_a_query_error_echoing_a_control_character_is_still_well_formed_xml() -> None:
    _service, handler, targets = _fake_with_targets()
    body = urlencode(
        {"Action": "ReceiveMessage", "QueueUrl": targets[1], "MaxNumberOfMessages": "\x01"}
    ).encode()
    response = handler.handle(WireRequest("POST", ENDPOINT, FORM_HEADERS, body))
    assert response.status == 400
    message = ElementTree.fromstring(response.body).findtext(
        f"{XML_NAMESPACE}Error/{XML_NAMESPACE}Message"
    )
    assert message == (
        "Value \ufffd for parameter MaxNumberOfMessages is invalid. Reason: Must be an integer."
    )


def test_a_batch_entry_with_a_lone_surrogate_fails_alone_instead_of_crashing() -> None:
    # JSON may carry "\ud800"; sizing the batch used to encode it and raise.
    service, _handler, targets = _fake_with_targets()
    answer = service.call(
        "SendMessageBatch",
        {
            "QueueUrl": targets[1],
            "Entries": [
                {"Id": "a", "MessageBody": "b", "MessageAttributes": {"a\ud800": {}}},
                {"Id": "c", "MessageBody": "b\ud800"},
            ],
        },
        RequestContext(),
    )
    assert answer == {
        "Failed": [
            {
                "Id": "a",
                "SenderFault": True,
                "Code": "InvalidParameterValue",
                "Message": ErrorText.ATTRIBUTE_NAME_INVALID.template,
            },
            {
                "Id": "c",
                "SenderFault": True,
                "Code": "InvalidMessageContents",
                "Message": ErrorText.INVALID_MESSAGE_CONTENTS(character="#xD800").message,
            },
        ]
    }
