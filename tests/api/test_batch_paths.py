"""The api's one-pass batch paths answer what the entry-by-entry way answers.

A batch whose entries are all plain (ids of letters and digits, bodies of printable ASCII and
nothing else) is checked, prepared and answered a batch at a time (`_plain_distinct_ids`,
`prepare_plain`, `render_deliveries`); every other batch goes entry by entry, which says what
is wrong with which. Generated batches, plain and one step off, must give the same either way.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.api import RequestContext, SqsError, SqsService, batch, messages, receiving
from pytest_fakesqs.engine import Broker, Clock

CTX = RequestContext(base_url="https://sqs.us-east-1.amazonaws.com")
# Ids and bodies near the plain ones: empty, long, non-ASCII, control characters, duplicates.
IDS = st.one_of(
    st.sampled_from(["0", "1", "a", "msg-1", "m_2", "", "x" * 81, "é", " ", "0"]),
    st.text(max_size=4),
    st.integers(),
)
BODIES = st.one_of(
    st.sampled_from(["x", "hello world", "~", "", "\t", "\x7f", "ü", '{"id": 1}']),
    st.text(max_size=6),
    st.none(),
    st.integers(),
)
# Every character around the printable ASCII range: space, tilde, DEL, controls, Latin-1.
BODY_EDGES = [chr(c) for c in (0, 9, 10, 13, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xA0, 0xFF)]
EXTRA = st.sampled_from([{}, {}, {"DelaySeconds": 0}, {"MessageAttributes": {}}, {"Other": 1}])


@st.composite
def send_entries(draw: st.DrawFn) -> list[Any]:
    count = draw(st.integers(1, 10))
    entries: list[Any] = []
    for _ in range(count):
        entry = {"Id": draw(IDS), "MessageBody": draw(BODIES), **draw(EXTRA)}
        entries.append(draw(st.sampled_from([entry, entry, entry, "not a structure"])))
    return entries


def _service() -> tuple[SqsService, Any]:
    service = SqsService(Broker(Clock(), seed=1))
    url = service.call("CreateQueue", {"QueueName": "q"}, CTX)["QueueUrl"]
    return service, service.resolve_queue({"QueueUrl": url}, CTX)


def _checked_one_by_one(entries: list[Any]) -> str:
    """check_entries' verdict, taking the entry-by-entry way."""
    original = batch._plain_distinct_ids
    batch._plain_distinct_ids = lambda _entries: False  # type: ignore[assignment]
    try:
        batch.check_entries(_service()[0], {"Entries": entries}, "SendMessageBatch")
    except SqsError as error:
        return error.message
    finally:
        batch._plain_distinct_ids = original
    return "ok"


@settings(max_examples=300, derandomize=True, deadline=None)
@given(send_entries())
def test_the_batch_checks_agree_with_the_entry_by_entry_ones(entries: list[Any]) -> None:
    if batch._plain_distinct_ids(entries):
        assert _checked_one_by_one(entries) == "ok"
    service, queue = _service()
    rules = messages.send_rules(service, queue, CTX, in_batch=True)
    plain = messages.prepare_plain(entries, rules)
    if plain is not None:
        assert plain == [messages.prepare(service, queue, e, CTX, rules) for e in entries]


@pytest.mark.parametrize("count", [1, 10])
def test_a_plain_batch_is_answered_as_entry_by_entry(count: int) -> None:
    entries = [{"Id": f"m{i}", "MessageBody": f"body {i}"} for i in range(count)]
    answers = []
    for one_pass in (True, False):
        service, queue = _service()
        url = service.queue_url(CTX, queue)
        original = messages.prepare_plain
        if not one_pass:
            messages.prepare_plain = lambda _entries, _rules: None  # type: ignore[assignment]
        try:
            sent = service.call("SendMessageBatch", {"QueueUrl": url, "Entries": entries}, CTX)
        finally:
            messages.prepare_plain = original
        received = service.call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 10}, CTX)
        handles = [m["ReceiptHandle"] for m in received["Messages"]]
        deleted = service.call(
            "DeleteMessageBatch",
            {
                "QueueUrl": url,
                # The first handle twice: the second delete takes the entry-by-entry answer.
                "Entries": [{"Id": str(i), "ReceiptHandle": h} for i, h in enumerate(handles[:9])]
                + [{"Id": "again", "ReceiptHandle": handles[0]}],
            },
            CTX,
        )
        answers.append((sent, [{**m, "ReceiptHandle": ""} for m in received["Messages"]], deleted))
    assert answers[0] == answers[1]
    assert len(answers[0][0]["Successful"]) == count


def test_received_plain_messages_render_as_render_delivery_does() -> None:
    service, queue = _service()
    url = service.queue_url(CTX, queue)
    service.call(
        "SendMessageBatch",
        {
            "QueueUrl": url,
            "Entries": [
                {"Id": "plain", "MessageBody": "x"},
                {
                    "Id": "with",
                    "MessageBody": "y",
                    "MessageAttributes": {"a": {"DataType": "String", "StringValue": "1"}},
                },
            ],
        },
        CTX,
    )
    deliveries = service.broker.receive(queue, 10)
    assert len(deliveries) == 2
    for wanted in (set(), {"All"}):
        assert receiving.render_deliveries(service, deliveries, wanted, ["All"]) == [
            receiving.render_delivery(service, d, wanted, ["All"]) for d in deliveries
        ]


@given(st.text(st.characters(codec=None, exclude_categories=())) | st.sampled_from(BODY_EDGES))
def test_printable_ascii_is_isascii_and_isprintable(text: str) -> None:
    assert messages.printable_ascii(text) == (text.isascii() and text.isprintable())


# A delete entry's ReceiptHandle: a received one (by index, repeats allowed), or one that is not a handle at all.
HANDLES = st.one_of(
    st.integers(0, 5),
    st.sampled_from([None, "", 7, ["h"], {"h": 1}, "AQEBbm9wZQ==", "not a handle"]),
)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(HANDLES, min_size=1, max_size=10))
def test_a_delete_batch_is_answered_as_entry_by_entry(choices: list[Any]) -> None:
    answers = []
    for checked_at_once in (True, False):
        service, queue = _service()
        url = service.queue_url(CTX, queue)
        entries = [{"Id": str(i), "MessageBody": "x"} for i in range(6)]
        service.call("SendMessageBatch", {"QueueUrl": url, "Entries": entries}, CTX)
        received = service.call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 6}, CTX)
        handles = [m["ReceiptHandle"] for m in received["Messages"]]
        delete = [
            {"Id": str(i), "ReceiptHandle": handles[c % len(handles)] if type(c) is int else c}
            for i, c in enumerate(choices)
        ]
        for entry in delete:
            if entry["ReceiptHandle"] is None:
                del entry["ReceiptHandle"]  # missing, not null
        original = batch._plain_handles
        if not checked_at_once:
            batch._plain_handles = lambda _entries: None  # type: ignore[assignment]
        try:
            deleted = service.call("DeleteMessageBatch", {"QueueUrl": url, "Entries": delete}, CTX)
        except SqsError as error:
            deleted = {"error": (error.code, error.message)}
        finally:
            batch._plain_handles = original
        left = service.call(
            "GetQueueAttributes",
            {"QueueUrl": url, "AttributeNames": ["ApproximateNumberOfMessagesNotVisible"]},
            CTX,
        )
        answers.append((deleted, left))
    assert answers[0] == answers[1]
