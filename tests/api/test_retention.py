"""What the fake keeps of finished work, counted in objects the garbage collector must scan.

It keeps every message's story and every call for the test's assertions; kept as plain tuples
of strings and numbers, they are scanned once and then left alone, so a long test does not make
every later garbage collection slower. Counted, not timed.
"""

from __future__ import annotations

import gc
from typing import Any

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.engine.schedule import STALE_SLACK

from .conftest import QUERY_CLIENT

BATCH = 10


def tracked_objects() -> int:
    gc.collect()
    return len(gc.get_objects())


def send_receive_delete(sqs: Any, queue_url: str, count: int) -> int:
    """`count` messages through batch sends, receives and batch deletes; returns the calls."""
    entries = [{"Id": str(i), "MessageBody": "x" * 100} for i in range(BATCH)]
    calls = 0
    for _ in range(0, count, BATCH):
        sqs.send_message_batch(QueueUrl=queue_url, Entries=entries)
        calls += 1
    while got := sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=BATCH).get("Messages"):
        handles = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)]
        sqs.delete_message_batch(QueueUrl=queue_url, Entries=handles)
        calls += 2
    return calls + 1


def test_a_finished_message_leaves_one_object_to_scan(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    send_receive_delete(sqs, queue_url, 100)  # botocore and the fake build their caches
    before = tracked_objects()
    calls = send_receive_delete(sqs, queue_url, 2000)
    grown = tracked_objects() - before
    # The message itself (history() needs it); its history is a tuple of atoms. A query call
    # keeps its parsed parameters and result (a handful of containers); a JSON call its bytes.
    # Heap entries of finished messages are dropped in rebuilds, so at most two slacks remain.
    per_call = 8 if QUERY_CLIENT else 0
    assert grown <= 2000 + 2 * STALE_SLACK + per_call * calls + 100
    assert len(fakesqs.calls("DeleteMessageBatch")) == (100 + 2000) // BATCH
    first = fakesqs.calls("SendMessageBatch")[-1]
    assert first.params["Entries"][0] == {"Id": "0", "MessageBody": "x" * 100}
    assert len(first.result["Successful"]) == BATCH  # type: ignore[index]
