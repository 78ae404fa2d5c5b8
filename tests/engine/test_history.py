"""How a message's history is stored and read back (the stored form is compact; what reads it
sees events and details)."""

from __future__ import annotations

from pytest_fakesqs.engine import Event, Message, State, story_timeline


def test_receives_read_back_numbered_with_the_handle_tail() -> None:
    message = Message("id", "body", 100.0, 4)
    for moment in (101.0, 102.0):
        message.receive_count += 1
        message.record_receive(moment, f"AQEB{'x' * 20}tail000{message.receive_count}")
    message.record_last(103.0, Event.DELETED)
    message.state = State.GONE  # as the queue leaves it
    assert message.timeline() == [
        (100.0, Event.SENT, ""),
        (101.0, Event.RECEIVED, "#1 handle …tail0001"),
        (102.0, Event.RECEIVED, "#2 handle …tail0002"),
        (103.0, Event.DELETED, ""),
    ]
    story = message.finished_story()
    assert story is not None
    assert story_timeline(story) == message.timeline()


def test_a_receive_count_past_the_precomputed_codes_reads_the_same() -> None:
    message = Message("id", "body", 100.0, 4)
    message.receive_count = 5000
    message.record_receive(101.0, "AQEBabcdefgh12345678")
    assert message.history == [(101.0, Event.RECEIVED, "#5000 handle …12345678")]


def test_a_long_history_becomes_a_list_and_is_sealed_as_a_tuple() -> None:
    message = Message("id", "body", 0.0, 4)
    for moment in range(1, 101):  # past the flat limit: appended in place from there on
        message.record(float(moment), Event.VISIBILITY_CHANGED, f"{moment}s")
    message.record_last(101.0, Event.DELETED)
    message.state = State.GONE
    story = message.finished_story()
    assert isinstance(story, tuple)
    assert [detail for _, _, detail in story_timeline(story)][1:4] == ["1s", "2s", "3s"]
    assert len(story_timeline(story)) == 102
