"""The api vouches only for answers json would write unchanged (`AsIsRows`).

Rows it marks skip json's quoting in the encoder, so a wrongly vouched value would reach a
client unescaped: every vouched value must be one `json.dumps` leaves alone, whatever ids and
bodies the batches carried.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.api import RequestContext, SqsService
from pytest_fakesqs.api.as_is import AsIsRows, writes_as_is
from pytest_fakesqs.engine import Broker, Clock
from pytest_fakesqs.engine.handles import new_handles

CTX = RequestContext(base_url="https://sqs.us-east-1.amazonaws.com")
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
# Bodies a client may send: plain, JSON documents (quotes), backslashes, tabs, non-ASCII.
BODIES = st.sampled_from(["x" * 100, '{"id": 1}', "a\\b", "tab\there", "é", "~", "\r\n"]) | (
    st.text(st.sampled_from('\t\n\r !"#\\az~\x7fé'), min_size=1, max_size=8)
)


@given(ANY_TEXT | st.sampled_from(['"', "\\", "\x7f", "\x1f", " ~"]))
def test_writes_as_is_is_what_json_leaves_unchanged(text: str) -> None:
    assert writes_as_is(text) == (json.dumps(text) == f'"{text}"')


@given(ANY_TEXT, ANY_TEXT)
def test_receipt_handles_are_written_as_they_are(queue_uid: str, message_id: str) -> None:
    # A restored queue's uid comes from a state file; the handle is base64 whatever it holds.
    uid = queue_uid.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    (handle,) = new_handles(uid, [message_id.encode("utf-8", "replace").decode()])
    assert writes_as_is(handle)


def _vouched_values(answer: dict[str, Any]) -> list[str]:
    return [
        v
        for rows in answer.values()
        if type(rows) is AsIsRows
        for row in rows
        for v in row.values()
    ]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(BODIES, min_size=1, max_size=10), st.integers(1, 10))
def test_every_vouched_value_is_one_json_leaves_unchanged(bodies: list[str], take: int) -> None:
    service = SqsService(Broker(Clock(), seed=1))
    url = service.call("CreateQueue", {"QueueName": "q"}, CTX)["QueueUrl"]
    entries = [{"Id": f"m-{i}_x", "MessageBody": body} for i, body in enumerate(bodies)]
    sent = service.call("SendMessageBatch", {"QueueUrl": url, "Entries": entries}, CTX)
    received = service.call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": take}, CTX)
    handles = [m["ReceiptHandle"] for m in received["Messages"]]
    deleted = service.call(
        "DeleteMessageBatch",
        {
            "QueueUrl": url,
            "Entries": [{"Id": str(i), "ReceiptHandle": h} for i, h in enumerate(handles)],
        },
        CTX,
    )
    for answer in (sent, received, deleted):
        assert all(json.dumps(value) == f'"{value}"' for value in _vouched_values(answer))
    # Plain bodies are the usual case: their answers are vouched for, not only left alone.
    printable = all(body.isascii() and body.isprintable() for body in bodies)
    assert (type(sent["Successful"]) is AsIsRows) == printable
    got = [m["Body"] for m in received["Messages"]]
    assert (type(received["Messages"]) is AsIsRows) == all(map(writes_as_is, got))
    assert type(deleted["Successful"]) is AsIsRows
