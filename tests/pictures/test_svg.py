"""The SVG timeline, read back with xml.etree: lanes, lines, marks and their titles."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest

from pytest_fakesqs import FakeSQS, HistoryEvent
from pytest_fakesqs.fake.records import PRIVATE
from pytest_fakesqs.fake.snapshot import take_snapshot
from pytest_fakesqs.pictures.marks import MARKS
from pytest_fakesqs.pictures.svg import timeline_svg

from .story import tell_the_story

SVG = "{http://www.w3.org/2000/svg}"
START = datetime(2024, 1, 1, tzinfo=UTC)


def event(
    seconds: float, queue: str, what: str, detail: str = "", message: str = "m1"
) -> HistoryEvent:
    return HistoryEvent(
        at=START + timedelta(seconds=seconds),
        event=what,
        detail=detail,
        queue=queue,
        message_id=message,
        _token=PRIVATE,
    )


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def drawn_marks(root: ET.Element) -> list[ET.Element]:
    """The marks on the messages' lines (the legend has marks too)."""
    return [mark for message in by_class(root, "message") for mark in by_class(message, "mark")]


def title(element: ET.Element) -> str:
    found = element.find(f"{SVG}title")
    assert found is not None and found.text is not None
    return found.text


def story_svg(fakesqs: FakeSQS) -> tuple[ET.Element, dict[str, str]]:
    ids = tell_the_story(fakesqs)
    snapshot = take_snapshot(fakesqs)
    svg = timeline_svg(snapshot.histories, start=snapshot.started_at, now=snapshot.now)
    return parse(svg), ids


def test_one_lane_per_queue_in_the_order_messages_reached_them(fakesqs: FakeSQS) -> None:
    root, _ = story_svg(fakesqs)
    lanes = [lane.get("data-queue") for lane in by_class(root, "lane")]
    assert lanes == ["orders", "short-lived", "scratch", "orders-dlq"]
    names = [t.text for t in by_class(root, "lane-name")]
    assert names == lanes


def test_each_message_is_a_line_with_a_mark_per_event_of_its_history(fakesqs: FakeSQS) -> None:
    root, ids = story_svg(fakesqs)
    messages = {m.get("data-message-id"): m for m in by_class(root, "message")}
    assert set(messages) == set(ids.values())
    for message_id, group in messages.items():
        marks = by_class(group, "mark")
        history = fakesqs.history(message_id)
        assert [m.get("data-event") for m in marks] == [e.event for e in history]
        assert [m.get("data-queue") for m in marks] == [e.queue for e in history]
    poison = messages[ids["poison"]]
    assert [m.get("class") for m in by_class(poison, "mark")] == [
        "mark sent",
        "mark received",
        "mark visible-again",
        "mark received",
        "mark visible-again",
        "mark dead-lettered",
        "mark arrived",
        "mark redriven",
        "mark arrived",
    ]
    assert [t.text for t in by_class(poison, "mark-label")] == ["#1", "#2"]
    kinds = {m.get("class") for m in drawn_marks(root)}
    for kind in ("delay-ended", "deleted", "expired", "purged"):
        assert f"mark {kind}" in kinds


def test_a_mark_title_says_what_the_text_timeline_says(fakesqs: FakeSQS) -> None:
    root, ids = story_svg(fakesqs)
    poison = next(m for m in by_class(root, "message") if m.get("data-message-id") == ids["poison"])
    titles = [title(mark).splitlines() for mark in by_class(poison, "mark")]
    first_lines = [lines[0] for lines in titles]
    assert first_lines[0].startswith("+0s orders: sent by ")
    assert re.fullmatch(r"\+30s orders: received #2 handle …\S{8}", first_lines[3])
    assert first_lines[5:] == [
        "+60s orders: moved to dead-letter queue orders-dlq",
        "+60s orders-dlq: arrived from orders",
        "+130s orders-dlq: moved back orders",
        "+130s orders: arrived from orders-dlq",
    ]
    assert titles[0][1:] == [f"message {ids['poison']}", "at 2024-01-01T00:00:00+00:00"]
    message_title = title(poison).splitlines()
    assert message_title[0] == f"message {ids['poison']}"
    assert message_title[1] == "orders → orders-dlq; 9 events, last at +130s: still there"


def test_lines_say_visible_in_flight_delayed_and_moving(fakesqs: FakeSQS) -> None:
    root, ids = story_svg(fakesqs)
    groups = {m.get("data-message-id"): m for m in by_class(root, "message")}
    poison = [s.get("class") for s in by_class(groups[ids["poison"]], "segment")]
    assert poison == [
        "segment visible",  # sent, then received #1 at the same moment
        "segment in-flight",
        "segment visible",
        "segment in-flight",
        "segment visible",
        "segment move",  # dead-lettered → arrived in orders-dlq
        "segment visible",
        "segment move",  # redriven → arrived in orders
        "segment visible",  # still there: drawn on to now
    ]
    later = [s.get("class") for s in by_class(groups[ids["later"]], "segment")]
    assert later == ["segment delayed", "segment visible", "segment in-flight"]
    # a message that ended has no line past its last mark
    assert [s.get("class") for s in by_class(groups[ids["purged"]], "segment")] == [
        "segment visible"
    ]


def test_sent_first_segment_is_visible_until_the_first_receive() -> None:
    svg = timeline_svg(
        [[event(0, "q", "sent"), event(10, "q", "received", "#1 handle …abcd1234")]],
        start=START,
        now=START + timedelta(seconds=20),
    )
    (message,) = by_class(parse(svg), "message")
    segments = [s.get("class") for s in by_class(message, "segment")]
    assert segments == ["segment visible", "segment in-flight"]


def test_time_runs_left_to_right_and_the_axis_counts_from_the_start() -> None:
    history = [
        event(0, "q", "sent"),
        event(600, "q", "received", "#1 handle …abcd1234"),
        event(3600, "q", "deleted"),
    ]
    root = parse(timeline_svg([history], start=START, now=START + timedelta(hours=1)))
    xs = [_translate_x(mark) for mark in drawn_marks(root)]
    assert xs == sorted(xs) and xs[0] < xs[1] < xs[2]
    assert xs[2] - xs[0] == pytest.approx((xs[1] - xs[0]) * 6, abs=0.5)
    labels = [t.text for t in by_class(root, "tick-label")]
    assert labels[:3] == ["+0s", "+10m", "+20m"]
    assert float(root.get("width", "0")) >= max(xs)


def test_events_at_one_moment_stand_apart() -> None:
    history = [
        event(0, "q", "sent"),
        event(0, "q", "received", "#1 handle …abcd1234"),
        event(0, "q", "deleted"),
    ]
    root = parse(timeline_svg([history], start=START, now=START))
    xs = [_translate_x(mark) for mark in drawn_marks(root)]
    assert xs[1] - xs[0] >= 14 and xs[2] - xs[1] >= 14


def test_two_messages_in_one_lane_get_a_track_each() -> None:
    one = [event(0, "q", "sent", message="aaaaaaaa-1")]
    two = [event(5, "q", "sent", message="bbbbbbbb-2")]
    root = parse(timeline_svg([one, two], start=START, now=START + timedelta(seconds=10)))
    ys = [_translate_y(mark) for mark in drawn_marks(root)]
    assert ys[0] != ys[1]
    assert [t.text for t in by_class(root, "track-label")] == ["aaaaaaaa", "bbbbbbbb"]


def test_the_output_depends_only_on_the_input() -> None:
    history = [event(0, "a", "sent"), event(1, "a", "moved to dead-letter queue", "b")]
    history.append(event(1, "b", "arrived from", "a"))
    kwargs = {"start": START, "now": START + timedelta(seconds=5)}
    assert timeline_svg([history], **kwargs) == timeline_svg([list(history)], **kwargs)  # type: ignore[arg-type]


def test_text_from_clients_is_escaped() -> None:
    history = [event(0, 'q<&>"', "sent"), event(1, 'q<&>"', "injected error", "<Throttled>")]
    root = parse(timeline_svg([history], start=START, now=START + timedelta(seconds=2)))
    (lane,) = by_class(root, "lane")
    assert lane.get("data-queue") == 'q<&>"'
    assert title(drawn_marks(root)[1]).splitlines()[0] == '+1s q<&>": injected error <Throttled>'


def test_no_messages_draws_an_empty_picture_that_says_so() -> None:
    root = parse(timeline_svg([], start=START, now=START))
    assert by_class(root, "lane") == [] and by_class(root, "message") == []
    assert [t.text for t in by_class(root, "empty")] == ["no messages were sent"]


def test_links_wrap_each_message_when_asked() -> None:
    history = [event(0, "q", "sent")]
    root = parse(timeline_svg([history], start=START, now=START, href=lambda m: f"/m/{m}"))
    (link,) = root.iter(f"{SVG}a")
    assert link.get("href") == "/m/m1"


def test_the_legend_names_the_marks_drawn_and_the_line_styles() -> None:
    history = [event(0, "q", "sent"), event(1, "q", "received", "#1 handle …abcd1234")]
    root = parse(timeline_svg([history], start=START, now=START + timedelta(seconds=2)))
    items = by_class(root, "legend-item")
    assert [i.get("data-event") for i in items if i.get("data-event")] == ["sent", "received"]
    assert [i.get("data-line") for i in items if i.get("data-line")] == [
        "visible",
        "in-flight",
        "delayed",
    ]


def test_every_event_the_engine_records_has_a_mark() -> None:
    from pytest_fakesqs.engine import Event

    assert {e.value for e in Event} == set(MARKS)


def _translate_x(mark: ET.Element) -> float:
    return float(re.findall(r"[-\d.]+", mark.get("transform", ""))[0])


def _translate_y(mark: ET.Element) -> float:
    return float(re.findall(r"[-\d.]+", mark.get("transform", ""))[1])


def test_the_legend_wraps_to_stay_inside_the_picture(fakesqs: FakeSQS) -> None:
    root, _ = story_svg(fakesqs)
    width = float(root.get("width", "0"))
    legend = by_class(root, "legend")[0]
    left = float(re.findall(r"[-\d.]+", legend.get("transform", ""))[0])
    items = by_class(legend, "legend-item")
    assert [i.get("data-event") for i in items if i.get("data-event")] == [
        e for e in MARKS if e in {m.get("data-event") for m in drawn_marks(root)}
    ]
    assert "purged" in [i.get("data-event") for i in items]
    for item in items:
        text = item.find(f"{SVG}text")
        assert text is not None and text.text is not None
        right = left + _translate_x(item) + 10 + 7 * len(text.text)
        assert right <= width, text.text
    rows = {_translate_y(item) for item in items}
    assert len(rows) >= 2
    assert float(root.get("height", "0")) >= max(rows) + float(
        legend.get("transform", "").split()[-1].rstrip(")")
    )


def test_queues_no_message_reached_can_be_drawn_as_empty_lanes() -> None:
    history = [event(0, "orders", "sent")]
    svg = timeline_svg(
        [history], start=START, now=START, lanes=(), other_queues=["orders-dlq", "orders"]
    )
    lanes = by_class(parse(svg), "lane")
    assert [lane.get("data-queue") for lane in lanes] == ["orders", "orders-dlq"]
    assert [len(by_class(lane, "track-label")) for lane in lanes] == [1, 0]


def test_a_message_received_a_thousand_times_stays_a_picture_of_its_time() -> None:
    history = [event(0, "q", "sent")]
    for count in range(1, 1001):
        history.append(event(count, "q", "received", f"#{count} handle …abcd1234"))
        history.append(event(count + 0.5, "q", "visible again"))
    root = parse(timeline_svg([history], start=START, now=START + timedelta(seconds=1001)))
    assert len(drawn_marks(root)) == 2001
    assert float(root.get("width", "0")) < 3 * 960
