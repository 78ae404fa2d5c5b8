"""Ids and handles are shown shortened in reports, so the shown part must tell them apart."""

from __future__ import annotations

import random
import uuid

from pytest_fakesqs.engine.handles import (
    _KEEP,
    _SET,
    MessageIds,
    decode_handle,
    new_handles,
    new_message_id,
)


def test_message_ids_differ_in_the_first_eight_characters_reports_show() -> None:
    ids = [new_message_id() for _ in range(1000)]
    assert len({message_id[:8] for message_id in ids}) == 1000
    assert all(uuid.UUID(message_id).version == 4 for message_id in ids)


def test_receipt_handles_differ_in_the_last_eight_characters_histories_show() -> None:
    handles = [new_handles("queue-uid", ["message-id"])[0] for _ in range(1000)]
    assert len({handle[-8:] for handle in handles}) == 1000
    assert {decode_handle(handle) for handle in handles} == {("queue-uid", "message-id")}


def test_message_ids_are_the_seeded_uuid4_digits_as_before() -> None:
    """The seeded ids are the generator's 128 bits with the version-4 layout, written as
    "%032x" would write them (the same ids for the same seed as before bytes.hex() wrote them)."""
    ids, bits = MessageIds(7), random.Random("message-ids:7").getrandbits
    for _ in range(200):
        expected = "%032x" % (bits(128) & _KEEP | _SET)  # the earlier writing
        made = ids()
        assert made == str(uuid.UUID(expected))
        assert uuid.UUID(made).version == 4


def test_a_batch_of_ids_is_the_ids_one_at_a_time() -> None:
    """many(n) draws what n calls draw, in the same order: a pinned seed gives the same ids
    whether a batch or single sends made them."""
    one_at_a_time, batched = MessageIds(11), MessageIds(11)
    expected = [one_at_a_time() for _ in range(25)]
    assert batched.many(10) + batched.many(0) + batched.many(15) == expected


def test_a_batch_of_handles_is_the_handles_one_at_a_time() -> None:
    handles = new_handles("queue-uid", [f"id-{i}" for i in range(10)])
    assert [decode_handle(handle) for handle in handles] == [
        ("queue-uid", f"id-{i}") for i in range(10)
    ]
    (single,) = new_handles("queue-uid", ["id-0"])  # the same layout, a later count
    assert decode_handle(single) == ("queue-uid", "id-0")
    assert len({handle[-8:] for handle in [*handles, single]}) == 11
