"""How a message's history is stored and read back (the stored form is compact; what reads it
sees events and details)."""

from __future__ import annotations

from pytest_fakesqs.engine import Event, Message, State, finished_stories, story_timeline
from pytest_fakesqs.engine.message import record_last_of_each


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
    (story,) = finished_stories([message])
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
    (story,) = finished_stories([message])
    assert isinstance(story, tuple)
    assert [detail for _, _, detail in story_timeline(story)][1:4] == ["1s", "2s", "3s"]
    assert len(story_timeline(story)) == 102


def test_a_batch_is_recorded_and_read_as_each_message_alone() -> None:
    """record_last_of_each and finished_stories (a delete batch's one call) leave on each
    message what record_last leaves on it alone, whatever its history holds, and read each
    finished message's story back as its timeline."""

    def messages() -> list[Message]:
        fresh = Message("a", "body", 0.0, 4)  # nothing recorded yet
        received = Message("b", "body", 0.0, 4)
        received.receive_count = 1
        received.record_receive(1.0, "AQEBabcdefgh12345678")
        long = Message("c", "body", 0.0, 4)  # a list by now
        for moment in range(1, 60):
            long.record(float(moment), Event.VISIBILITY_CHANGED, "1s")
        alive = Message("d", "body", 0.0, 4)  # not gone: no finished story
        return [fresh, received, long, alive]

    alone, batched = messages(), messages()
    for message in alone:
        message.record_last(70.0, Event.DELETED, "x")
    record_last_of_each(batched, 70.0, Event.DELETED, "x")
    for message in [*alone[:3], *batched[:3]]:
        message.state = State.GONE
    assert [m.timeline() for m in batched] == [m.timeline() for m in alone]
    sent, deleted = (0.0, Event.SENT, ""), (70.0, Event.DELETED, "x")
    fresh, received, long, alive = batched
    assert fresh.timeline() == alive.timeline() == [sent, deleted]
    assert received.timeline() == [sent, (1.0, Event.RECEIVED, "#1 handle …12345678"), deleted]
    changed = [(float(moment), Event.VISIBILITY_CHANGED, "1s") for moment in range(1, 60)]
    assert long.timeline() == [sent, *changed, deleted]
    stories = finished_stories(batched)
    assert stories == finished_stories(alone)
    assert [story is None for story in stories] == [False, False, False, True]
    assert [story_timeline(s) for s in stories if s is not None] == [
        m.timeline() for m in batched[:3]
    ]
