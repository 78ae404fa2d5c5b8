"""Ids and handles are shown shortened in reports, so the shown part must tell them apart."""

from __future__ import annotations

import uuid

from pytest_fakesqs.engine.handles import decode_handle, new_handle, new_message_id


def test_message_ids_differ_in_the_first_eight_characters_reports_show() -> None:
    ids = [new_message_id() for _ in range(1000)]
    assert len({message_id[:8] for message_id in ids}) == 1000
    assert all(uuid.UUID(message_id).version == 4 for message_id in ids)


def test_receipt_handles_differ_in_the_last_eight_characters_histories_show() -> None:
    handles = [new_handle("queue-uid", "message-id") for _ in range(1000)]
    assert len({handle[-8:] for handle in handles}) == 1000
    assert {decode_handle(handle) for handle in handles} == {("queue-uid", "message-id")}
