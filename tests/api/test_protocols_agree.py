"""An old (query-speaking) and a new (JSON-speaking) client see the same errors.

AWS words one error differently per protocol (the nonexistent queue, recorded by
`test_non_existent_queue`); everything else must match exactly: exception class, code, message,
HTTP status. Texts are AWS's recorded ones (sqs.snapshot.json, `[sqs]` and `[sqs_query]`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import fake_sqs

from ..query_era import query_client
from .conftest import QUERY_CLIENT, make_client

pytestmark = pytest.mark.skipif(
    QUERY_CLIENT,
    reason="botocore < 1.31.81 cannot speak JSON to SQS; the current-botocore run compares",
)

MISSING_URL = "https://sqs.us-east-1.amazonaws.com/123456789012/missing"


def _queue(client: Any, name: str = "work", **attributes: str) -> str:
    url: str = client.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    return url


def _purge_twice(client: Any) -> None:
    url = _queue(client)
    client.purge_queue(QueueUrl=url)
    client.purge_queue(QueueUrl=url)


def _recreate_differently(client: Any) -> None:
    _queue(client, DelaySeconds="1")
    _queue(client, DelaySeconds="2")


def _too_many_entries(client: Any) -> None:
    entries = [{"Id": str(i), "MessageBody": "m"} for i in range(20)]
    client.send_message_batch(QueueUrl=_queue(client), Entries=entries)


def _invalid_batch_id(client: Any) -> None:
    client.send_message_batch(
        QueueUrl=_queue(client), Entries=[{"Id": "invalid:id", "MessageBody": "m"}]
    )


def _garbage_receipt_handle(client: Any) -> None:
    client.delete_message(QueueUrl=_queue(client), ReceiptHandle="garbage")


CASES: dict[str, tuple[Callable[[Any], Any], tuple[str, str, str, int]]] = {
    "get-url-of-missing-queue": (
        lambda c: c.get_queue_url(QueueName="missing"),
        ("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "<per protocol>", 400),
    ),
    "send-to-missing-queue": (
        lambda c: c.send_message(QueueUrl=MISSING_URL, MessageBody="m"),
        ("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "<per protocol>", 400),
    ),
    "create-with-different-attributes": (
        _recreate_differently,
        (
            "QueueNameExists",
            "QueueAlreadyExists",
            "A queue already exists with the same name and a different value for attribute DelaySeconds",
            400,
        ),
    ),
    "unknown-queue-attribute": (
        lambda c: _queue(c, FifoQueue="false"),
        ("InvalidAttributeName", "InvalidAttributeName", "Unknown Attribute FifoQueue.", 400),
    ),
    "receive-too-many": (
        lambda c: c.receive_message(QueueUrl=_queue(c), MaxNumberOfMessages=11),
        (
            "ClientError",
            "InvalidParameterValue",
            "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.",
            400,
        ),
    ),
    "empty-body": (
        lambda c: c.send_message(QueueUrl=_queue(c), MessageBody=""),
        (
            "ClientError",
            "MissingParameter",
            "The request must contain the parameter MessageBody.",
            400,
        ),
    ),
    "purge-twice": (
        _purge_twice,
        (
            "PurgeQueueInProgress",
            "AWS.SimpleQueueService.PurgeQueueInProgress",
            "Only one PurgeQueue operation on work is allowed every 60 seconds.",
            403,
        ),
    ),
    "too-many-batch-entries": (
        _too_many_entries,
        (
            "TooManyEntriesInBatchRequest",
            "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
            "Maximum number of entries per request are 10. You have sent 20.",
            400,
        ),
    ),
    "invalid-batch-id": (
        _invalid_batch_id,
        (
            "InvalidBatchEntryId",
            "AWS.SimpleQueueService.InvalidBatchEntryId",
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
            400,
        ),
    ),
    "garbage-receipt-handle": (
        _garbage_receipt_handle,
        (
            "ReceiptHandleIsInvalid",
            "ReceiptHandleIsInvalid",
            'The input receipt handle "garbage" is not a valid receipt handle.',
            400,
        ),
    ),
}
NONEXISTENT = {
    "json": "The specified queue does not exist.",
    "query": "The specified queue does not exist for this wsdl version.",
}


def _error_seen_by(client: Any, call: Callable[[Any], Any]) -> tuple[str, str, str, int]:
    with fake_sqs(), pytest.raises(ClientError) as caught:
        call(client)
    response = caught.value.response
    return (
        type(caught.value).__name__,
        response["Error"]["Code"],
        response["Error"]["Message"],
        response["ResponseMetadata"]["HTTPStatusCode"],
    )


@pytest.fixture(scope="module")
def old_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    client = query_client(Path(tmp_path_factory.mktemp("query-era-model")))
    assert client.meta.service_model.protocol == "query"
    return client


@pytest.mark.parametrize("case", list(CASES))
def test_old_and_new_clients_see_the_same_error(old_client: Any, case: str) -> None:
    call, (exception, code, message, status) = CASES[case]
    new_client = make_client()
    assert new_client.meta.service_model.protocol == "json"
    seen = {"json": _error_seen_by(new_client, call), "query": _error_seen_by(old_client, call)}
    for protocol, (got_exception, got_code, got_message, got_status) in seen.items():
        assert (got_exception, got_code, got_status) == (exception, code, status), protocol
        expected = NONEXISTENT[protocol] if message == "<per protocol>" else message
        assert got_message == expected, protocol
