"""The api's plain lanes answer what the general way answers.

A send batch whose entries are all plain (distinct ids of letters, digits, "-" and "_", bodies
of printable ASCII and nothing else), a delete batch of plain ids and current receipt handles,
and a receive that names nothing but its queue and a count are each checked, done and answered
a batch at a time (`_sent_plain`, `_deleted_plain`, `_received_plain`); anything else goes the
general way, entry by entry, which says what is wrong with which. Generated requests, plain and
one step off, sent in generated orders to queues of every kind, must give the same answers and
leave the same queues either way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.api import RequestContext, SqsError, SqsService, batch, messages, receiving
from pytest_fakesqs.engine import Broker, Clock

CTX = RequestContext(base_url="https://sqs.us-east-1.amazonaws.com")
# Ids and bodies near the plain ones: empty, long, non-ASCII, control characters, duplicates.
IDS = st.one_of(
    st.sampled_from(["0", "1", "a", "msg-1", "m_2", "", "x" * 80, "x" * 81, "é", " ", "0"]),
    st.text(max_size=4),
    st.integers(),
)
BODIES = st.one_of(
    st.sampled_from(["x", "hello world", "~", "", "\t", "\x7f", "ü", '{"id": 1}', "x" * 1025]),
    st.text(max_size=6),
    st.none(),
    st.integers(),
)
# Every character around the printable ASCII range: space, tilde, DEL, controls, Latin-1.
BODY_EDGES = [chr(c) for c in (0, 9, 10, 13, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xA0, 0xFF)]
EXTRA = st.sampled_from(
    [{}, {}, {}, {"DelaySeconds": 0}, {"MessageAttributes": {}}, {"Other": 1}, {"QueueUrl": "u"}]
)
# The queues a lane may meet: the usual one, and each setting that sends a request elsewhere.
QUEUES = st.sampled_from(
    [
        {},
        {"DelaySeconds": "5"},
        {"MaximumMessageSize": "1024"},
        {"ReceiveMessageWaitTimeSeconds": "2"},
        {"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    ]
)


@st.composite
def send_entries(draw: st.DrawFn) -> list[Any]:
    """A batch of plain entries, some of them one step off."""
    entries: list[Any] = []
    # Now and then bodies so long that ten of them pass 1 MiB, the largest batch AWS takes.
    size = draw(st.sampled_from([0] * 9 + [110_000]))
    for number in range(draw(st.integers(1, 11))):
        body = f"body {number}".ljust(size, "x")
        entry: Any = {"Id": f"m{number}", "MessageBody": body}
        step_off = draw(
            st.sampled_from(["", "", "", "", "", "id", "body", "extra", "shape", "again"])
        )
        if step_off == "id":
            entry["Id"] = draw(IDS)
        elif step_off == "body":
            entry["MessageBody"] = draw(BODIES)
        elif step_off == "extra":
            entry.update(draw(EXTRA))
        elif step_off == "shape":
            entry = draw(st.sampled_from(["not a structure", {"Id": "x"}, {"MessageBody": "x"}]))
        elif step_off == "again" and entries and isinstance(entries[-1], dict):
            entry["Id"] = entries[-1].get("Id")
        entries.append(entry)
    return entries


@st.composite
def delete_entries(draw: st.DrawFn) -> list[tuple[Any, Any]]:
    """(Id, which handle) of a batch of plain entries, each a received handle by index, some of
    them one step off (a handle that is none, a repeated Id)."""
    entries: list[tuple[Any, Any]] = []
    for number in range(draw(st.integers(0, 11))):
        entry_id: Any = str(number)
        handle: Any = number
        step_off = draw(st.sampled_from(["", "", "", "", "", "id", "handle", "again"]))
        if step_off == "id":
            entry_id = draw(IDS)
        elif step_off == "handle":
            handle = draw(HANDLES)
        elif step_off == "again" and entries:
            entry_id = entries[-1][0]
        entries.append((entry_id, handle))
    return entries


RECEIVES = st.one_of(
    st.builds(dict, MaxNumberOfMessages=st.integers(1, 10)),
    st.builds(dict, MaxNumberOfMessages=st.integers(1, 10)),
    st.just({}),
    st.fixed_dictionaries(
        {},
        optional={
            "MaxNumberOfMessages": st.sampled_from([0, 1, 10, 11, "3", True, None]),
            "VisibilityTimeout": st.sampled_from([0, 5, 30]),
            "WaitTimeSeconds": st.sampled_from([0, 1]),
            "AttributeNames": st.just(["All"]),
            "MessageAttributeNames": st.just(["All"]),
        },
    ),
)
# A delete entry's ReceiptHandle: a received one (by index, repeats allowed), or one that is not
# a handle at all.
HANDLES = st.one_of(
    st.integers(0, 30),
    st.sampled_from([None, "", 7, ["h"], {"h": 1}, "AQEBbm9wZQ==", "not a handle"]),
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("send"), send_entries()),
        st.tuples(st.just("receive"), RECEIVES),
        st.tuples(st.just("delete"), delete_entries()),
        st.tuples(st.just("advance"), st.sampled_from([1.0, 31.0])),
    ),
    max_size=12,
)


@contextmanager
def general_way_only() -> Iterator[None]:
    """Every request the general way: each lane declines."""
    lanes = (batch._sent_plain, batch._deleted_plain, receiving._received_plain)
    batch._sent_plain = lambda *_args: None  # type: ignore[assignment]
    batch._deleted_plain = lambda *_args: None  # type: ignore[assignment]
    receiving._received_plain = lambda *_args: None  # type: ignore[assignment]
    try:
        yield
    finally:
        batch._sent_plain, batch._deleted_plain, receiving._received_plain = lanes


def _service(attributes: dict[str, str] | None = None) -> tuple[SqsService, Any, str]:
    service = SqsService(Broker(Clock(), seed=1))
    fifo = bool(attributes and "FifoQueue" in attributes)
    url = service.call(
        "CreateQueue",
        {"QueueName": "q.fifo" if fifo else "q", "Attributes": attributes or {}},
        CTX,
    )["QueueUrl"]
    return service, service.resolve_queue({"QueueUrl": url}, CTX), url


def _run(
    attributes: dict[str, str], steps: list[tuple[str, Any]], ctx: RequestContext = CTX
) -> list[Any]:
    """Every step's answer (receipt handles by the order they were handed out), then what the
    queue holds: each message's state, counts and timeline, and the queue's attributes."""
    service, queue, url = _service(attributes)
    handles: list[str] = []
    answers: list[Any] = []
    for step, argument in steps:
        if step == "advance":
            service.broker.clock.advance(argument)
            continue
        if step in ("send", "send as is"):
            action = "SendMessageBatch"
            params: dict[str, Any] = {"QueueUrl": url, "Entries": argument}
            if attributes.get("FifoQueue") and step == "send":  # a group for every entry
                for entry in argument:
                    if isinstance(entry, dict):
                        entry.setdefault("MessageGroupId", "g")
        elif step == "receive":
            action, params = "ReceiveMessage", {"QueueUrl": url, **argument}
        else:
            action = "DeleteMessageBatch"
            entries = []
            for entry_id, choice in argument:
                entry: dict[str, Any] = {"Id": entry_id}
                if type(choice) is int:  # counted back from the latest handed out
                    entry["ReceiptHandle"] = (
                        handles[-1 - choice % len(handles)] if handles else "none"
                    )
                elif choice is not None:  # None: missing, not null
                    entry["ReceiptHandle"] = choice
                entries.append(entry)
            params = {"QueueUrl": url, "Entries": entries}
        try:
            answer: Any = service.call(action, json.loads(json.dumps(params)), ctx)
        except SqsError as error:
            answer = ["error", error.spec.query_code, error.message]
        for message in answer.get("Messages", []) if isinstance(answer, dict) else []:
            handles.append(message["ReceiptHandle"])
        text = json.dumps(answer)  # AsIsRows are lists
        for number, handle in enumerate(handles):  # the same in both runs, by order handed out
            text = text.replace(handle, f"handle {number}")
        answers.append(json.loads(text))
    held = [
        (
            m.message_id,
            m.state,
            m.receive_count,
            m.visible_at,
            m.slot,
            [e[:2] for e in m.timeline()],
        )
        for m in queue.store.slots
        if m is not None
    ]
    attributes_now = service.describe_queue(queue, CTX)
    return [answers, held, attributes_now, queue.schedule.sizes()]


def _plain_send(count: int = 3, size: int = 0) -> list[dict[str, Any]]:
    return [{"Id": f"m{n}", "MessageBody": f"body {n}".ljust(size, "x")} for n in range(count)]


def _sent_with(**changes: Any) -> list[dict[str, Any]]:
    """A plain batch of three whose second entry is changed (a None value: the member left out)."""
    entries = _plain_send()
    for name, value in changes.items():
        if value is None:
            del entries[1][name]
        else:
            entries[1][name] = value
    return entries


def _deleted(*choices: Any) -> list[tuple[Any, Any]]:
    """Entries "0", "1", ... of a delete batch: a number picks a received handle, counted back
    from the latest; anything else is the ReceiptHandle itself (None: left out)."""
    return [(str(n), choice) for n, choice in enumerate(choices)]


SEND_TEN, RECEIVE_FIVE = ("send", _plain_send(10)), ("receive", {"MaxNumberOfMessages": 5})
# Each request a lane must decline (or take) exactly as the general way answers it, after a
# plain start: ten messages sent, five of them received.
ONE_STEP_OFF: dict[str, tuple[dict[str, str], list[tuple[str, Any]]]] = {
    "plain send": ({}, [("send", _plain_send())]),
    "ten to send": ({}, [("send", _plain_send(10))]),
    "eleven to send": ({}, [("send", _plain_send(11))]),
    "no entries": ({}, [("send", [])]),
    "entries not a list": ({}, [("send", "m0")]),
    "an entry not a structure": ({}, [("send", [*_plain_send(2), "m2"])]),
    "an entry without an Id": ({}, [("send", _sent_with(Id=None))]),
    "an entry without a body": ({}, [("send", _sent_with(MessageBody=None))]),
    "an empty Id": ({}, [("send", _sent_with(Id=""))]),
    "an Id of 80": ({}, [("send", _sent_with(Id="x" * 80))]),
    "an Id of 81": ({}, [("send", _sent_with(Id="x" * 81))]),
    "an Id with - and _": ({}, [("send", _sent_with(Id="m-1_x"))]),
    "an Id with a space": ({}, [("send", _sent_with(Id="m 1"))]),
    "a non-ASCII Id": ({}, [("send", _sent_with(Id="é"))]),
    "a number for an Id": ({}, [("send", _sent_with(Id=7))]),
    "a repeated Id": ({}, [("send", _sent_with(Id="m0"))]),
    "an empty body": ({}, [("send", _sent_with(MessageBody=""))]),
    "a number for a body": ({}, [("send", _sent_with(MessageBody=7))]),
    "a tab in a body": ({}, [("send", _sent_with(MessageBody="a\tb"))]),
    "a DEL in a body": ({}, [("send", _sent_with(MessageBody="\x7f"))]),
    "a non-ASCII body": ({}, [("send", _sent_with(MessageBody="über"))]),
    "a body at the size limit": (
        {"MaximumMessageSize": "1024"},
        [("send", _sent_with(MessageBody="x" * 1024))],
    ),
    "a body past the size limit": (
        {"MaximumMessageSize": "1024"},
        [("send", _sent_with(MessageBody="x" * 1025))],
    ),
    "a batch past 1 MiB": ({}, [("send", _plain_send(10, 110_000))]),
    "a batch at 1 MiB": ({}, [("send", _plain_send(8, 131_072))]),
    "a delay of 0": ({}, [("send", _sent_with(DelaySeconds=0))]),
    "message attributes": (
        {},
        [("send", _sent_with(MessageAttributes={"a": {"DataType": "String", "StringValue": "1"}}))],
    ),
    "no message attributes": ({}, [("send", _sent_with(MessageAttributes={}))]),
    "a group id on a standard queue": ({}, [("send", _sent_with(MessageGroupId="g"))]),
    "a member no entry has": ({}, [("send", _sent_with(Other=1))]),
    "a queue with a delay": ({"DelaySeconds": "5"}, [("send", _plain_send())]),
    "a FIFO queue": ({"FifoQueue": "true", "ContentBasedDeduplication": "true"}, [SEND_TEN]),
    "a FIFO queue without groups": (
        {"FifoQueue": "true", "ContentBasedDeduplication": "true"},
        [("send as is", _plain_send())],
    ),
    "plain receive": ({}, [SEND_TEN, RECEIVE_FIVE]),
    "receive with no count": ({}, [SEND_TEN, ("receive", {})]),
    "receive of 0": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": 0})]),
    "receive of 11": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": 11})]),
    "receive of '3'": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": "3"})]),
    "receive of true": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": True})]),
    "receive of null": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": None})]),
    "receive of 2.5": ({}, [SEND_TEN, ("receive", {"MaxNumberOfMessages": 2.5})]),
    "receive with a visibility timeout": (
        {},
        [SEND_TEN, ("receive", {"MaxNumberOfMessages": 5, "VisibilityTimeout": 0})],
    ),
    "receive with a wait": ({}, [("receive", {"MaxNumberOfMessages": 5, "WaitTimeSeconds": 1})]),
    "receive from a queue that waits": ({"ReceiveMessageWaitTimeSeconds": "2"}, [RECEIVE_FIVE]),
    "receive of system attributes": (
        {},
        [SEND_TEN, ("receive", {"MaxNumberOfMessages": 5, "AttributeNames": ["All"]})],
    ),
    "receive of message attributes": (
        {},
        [SEND_TEN, ("receive", {"MaxNumberOfMessages": 5, "MessageAttributeNames": ["All"]})],
    ),
    "receive of a message with attributes": (
        {},
        [
            (
                "send",
                _sent_with(MessageAttributes={"a": {"DataType": "String", "StringValue": "1"}}),
            ),
            RECEIVE_FIVE,
        ],
    ),
    "receive with an attempt id": (
        {},
        [SEND_TEN, ("receive", {"MaxNumberOfMessages": 5, "ReceiveRequestAttemptId": "a"})],
    ),
    "receive from a FIFO queue": (
        {"FifoQueue": "true", "ContentBasedDeduplication": "true"},
        [SEND_TEN, RECEIVE_FIVE],
    ),
    "receive of an empty queue": ({}, [RECEIVE_FIVE]),
    "plain delete": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, 1, 2))]),
    "delete of all received": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, 1, 2, 3, 4))]),
    "delete of nothing": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", [])]),
    "delete of eleven": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(*[0] * 11))]),
    "delete without a handle": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, None))]),
    "delete of an empty handle": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, ""))]),
    "delete of a number": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, 7.5))]),
    "delete of garbage": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, "not a handle"))]),
    "delete of a handle twice": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, 1, 0))]),
    "delete of a deleted message": (
        {},
        [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0)), ("delete", _deleted(0, 1))],
    ),
    "delete of an older handle": (
        {"VisibilityTimeout": "5"},
        [SEND_TEN, RECEIVE_FIVE, ("advance", 6.0), RECEIVE_FIVE, ("delete", _deleted(0, 5))],
    ),
    "delete of a message visible again": (
        {"VisibilityTimeout": "5"},
        [SEND_TEN, RECEIVE_FIVE, ("advance", 6.0), ("delete", _deleted(0, 1))],
    ),
    "delete with a repeated Id": (
        {},
        [SEND_TEN, RECEIVE_FIVE, ("delete", [("a", 0), ("a", 1)])],
    ),
    "delete with an Id with - and _": (
        {},
        [SEND_TEN, RECEIVE_FIVE, ("delete", [("a-1_b", 0), ("b", 1)])],
    ),
    "delete with an invalid Id": ({}, [SEND_TEN, RECEIVE_FIVE, ("delete", [("a b", 0)])]),
    "delete from a FIFO queue": (  # then the group's next messages
        {"FifoQueue": "true", "ContentBasedDeduplication": "true"},
        [SEND_TEN, RECEIVE_FIVE, ("delete", _deleted(0, 1, 2, 3, 4)), RECEIVE_FIVE],
    ),
}


@pytest.mark.parametrize("case", ONE_STEP_OFF)
def test_each_request_one_step_off_plain_is_answered_as_the_general_way(case: str) -> None:
    attributes, steps = ONE_STEP_OFF[case]
    laned = _run(attributes, json.loads(json.dumps(steps)))
    with general_way_only():
        general = _run(attributes, json.loads(json.dumps(steps)))
    assert laned == general


def test_a_fifo_group_is_free_again_once_its_messages_are_deleted_in_a_batch() -> None:
    # The one-pass delete leaves FIFO queues alone: their groups must be settled per message.
    answers = _run(*ONE_STEP_OFF["delete from a FIFO queue"])[0]
    assert [m["Body"] for m in answers[-1]["Messages"]] == [f"body {n}" for n in range(5, 10)]


def test_a_traced_send_is_answered_as_the_general_way() -> None:
    traced = RequestContext(
        base_url=CTX.base_url, trace_header="Root=1-5759e988-bd862e3fe1be46a994272793"
    )
    laned = _run({}, [("send", _plain_send()), RECEIVE_FIVE], traced)
    with general_way_only():
        general = _run({}, [("send", _plain_send()), RECEIVE_FIVE], traced)
    assert laned == general


@settings(max_examples=400, derandomize=True, deadline=None)
@given(QUEUES, STEPS)
def test_the_lanes_answer_and_leave_what_the_general_way_does(
    attributes: dict[str, str], steps: list[tuple[str, Any]]
) -> None:
    laned = _run(attributes, json.loads(json.dumps(steps)))
    with general_way_only():
        general = _run(attributes, json.loads(json.dumps(steps)))
    assert laned == general


@settings(max_examples=300, derandomize=True, deadline=None)
@given(send_entries())
def test_the_batch_checks_agree_with_the_entry_by_entry_ones(entries: list[Any]) -> None:
    verdicts = []
    for at_once in (True, False):
        original = batch._plain_distinct_ids
        if not at_once:
            batch._plain_distinct_ids = lambda _entries: False  # type: ignore[assignment]
        try:
            batch.check_entries(_service()[0], {"Entries": entries}, "SendMessageBatch")
            verdicts.append("ok")
        except SqsError as error:
            verdicts.append(error.message)
        finally:
            batch._plain_distinct_ids = original
    assert verdicts[0] == verdicts[1]


@pytest.mark.parametrize("count", [1, 10])
def test_a_plain_batch_takes_the_lanes(count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    for module, name in (
        (batch, "_sent_plain"),
        (receiving, "_received_plain"),
        (batch, "_deleted_plain"),
    ):
        lane = getattr(module, name)

        def noted(*args: Any, lane: Any = lane, name: str = name) -> Any:
            answer = lane(*args)
            taken.append(name if answer is not None else f"not {name}")
            return answer

        monkeypatch.setattr(module, name, noted)
    service, _queue, url = _service()
    entries = [{"Id": f"m-{i}_x", "MessageBody": f"body {i}"} for i in range(count)]
    service.call("SendMessageBatch", {"QueueUrl": url, "Entries": entries}, CTX)
    received = service.call("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": 10}, CTX)
    deleted = service.call(
        "DeleteMessageBatch",
        {
            "QueueUrl": url,
            "Entries": [
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                for i, m in enumerate(received["Messages"])
            ],
        },
        CTX,
    )
    assert taken == ["_sent_plain", "_received_plain", "_deleted_plain"]
    assert len(deleted["Successful"]) == count


def test_received_plain_messages_render_as_render_delivery_does() -> None:
    service, queue, url = _service()
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
        for chosen in (deliveries, deliveries[:1]):
            assert receiving.render_deliveries(service, chosen, wanted, ["All"]) == [
                receiving.render_delivery(service, d, wanted, ["All"]) for d in chosen
            ]


@given(st.text(st.characters(codec=None, exclude_categories=())) | st.sampled_from(BODY_EDGES))
def test_printable_ascii_is_isascii_and_isprintable(text: str) -> None:
    assert messages.printable_ascii(text) == (text.isascii() and text.isprintable())


@given(st.lists(IDS, max_size=11))
def test_distinct_entry_ids_are_the_ids_the_entry_by_entry_checks_pass(ids: list[Any]) -> None:
    one_by_one = (
        bool(ids)
        and all(type(i) is str and batch._valid_entry_id(i) for i in ids)
        and len(set(ids)) == len(ids)
    )
    assert batch.distinct_entry_ids(ids) == one_by_one
