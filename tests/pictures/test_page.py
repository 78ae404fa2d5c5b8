"""The HTML page of a failing test, read back as XML: it is well-formed and self-contained."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.fake.snapshot import take_snapshot
from pytest_fakesqs.pictures.page import report_page

from .story import tell_the_story

SVG = "{http://www.w3.org/2000/svg}"


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext()).strip()


def rows(root: ET.Element, table_class: str) -> list[list[str]]:
    table = root.find(f".//table[@class='{table_class}']")
    assert table is not None, f"no table {table_class}"
    return [[text_of(td) for td in tr.findall("td")] for tr in table.findall("./tbody/tr")]


def page_of(fakesqs: FakeSQS, **kwargs: int) -> tuple[ET.Element, dict[str, str]]:
    ids = tell_the_story(fakesqs)
    page = report_page(
        take_snapshot(fakesqs, **kwargs),  # type: ignore[arg-type]
        test_id="tests/test_orders.py::test_retries",
        failure="AssertionError: the worker should have finished",
    )
    assert page.startswith("<!DOCTYPE html>")
    return ET.fromstring(page.removeprefix("<!DOCTYPE html>\n")), ids


def test_the_page_has_queues_dead_letters_timeline_histories_and_calls(fakesqs: FakeSQS) -> None:
    root, _ = page_of(fakesqs)
    title = root.find("./head/title")
    assert title is not None and title.text == "fakesqs: tests/test_orders.py::test_retries"
    sections = [s.get("id") for s in root.iter("section")]
    assert sections == ["failure", "queues", "dead-letters", "timeline", "histories", "calls"]
    failure = root.find(".//section[@id='failure']/pre")
    assert failure is not None and failure.text == "AssertionError: the worker should have finished"
    header = root.find(".//header/p")
    assert header is not None
    assert text_of(header) == (
        "clock frozen at 2024-01-01T00:02:20+00:00 (+140s since the test started); 5 messages "
        "sent, 3 not deleted; 1 dead letter; 12 calls"
    )


def test_queues_show_counts_and_redrive_settings(fakesqs: FakeSQS) -> None:
    root, _ = page_of(fakesqs)
    assert rows(root, "queues") == [
        ["orders", "standard", "1", "0", "0", "dead-letters to orders-dlq after 2 receives"],
        ["orders-dlq", "standard", "0", "0", "0", "dead-letter queue of orders"],
        ["scratch", "standard", "0", "0", "0", "—"],
        ["short-lived", "standard", "0", "0", "0", "—"],
    ]


def test_dead_letters_and_calls_are_listed(fakesqs: FakeSQS) -> None:
    root, ids = page_of(fakesqs)
    assert rows(root, "dead-letters") == [
        [ids["poison"][:8], "orders", "orders-dlq", "2", "+60s", "poison"]
    ]
    calls = rows(root, "calls")
    assert len(calls) == len(fakesqs.calls())
    assert calls[0][:4] == ["+0s", "SendMessage", "orders", "ok"]
    assert calls[-1][1:4] == ["StartMessageMoveTask", "—", "ok"]


def test_the_timeline_is_inline_svg_and_each_history_a_table(fakesqs: FakeSQS) -> None:
    root, ids = page_of(fakesqs)
    svgs = list(root.iter(f"{SVG}svg"))
    assert len(svgs) == 1
    lanes = [g.get("data-queue") for g in svgs[0].iter(f"{SVG}g") if g.get("class") == "lane"]
    assert lanes == ["orders", "short-lived", "scratch", "orders-dlq"]
    histories = list(root.iter("details"))
    assert [d.get("data-message-id") for d in histories] == list(ids.values())
    opened = [d.get("data-message-id") for d in histories if d.get("open")]
    assert opened == [ids["poison"], ids["expires"], ids["purged"]]  # not deleted
    poison = histories[1]
    table = poison.find("table")
    assert table is not None
    events = [text_of(tr.findall("td")[2]) for tr in table.findall("./tbody/tr")]
    assert events == [e.event for e in fakesqs.history(ids["poison"])]


def test_a_long_story_draws_the_messages_not_deleted_first(fakesqs: FakeSQS) -> None:
    root, ids = page_of(fakesqs, message_limit=2)
    drawn = [d.get("data-message-id") for d in root.iter("details")]
    assert drawn == [ids["poison"], ids["expires"]]
    note = root.find(".//section[@id='timeline']/p[@class='note']")
    assert note is not None and text_of(note) == "2 of 5 messages drawn: those not deleted first."


def test_the_page_needs_nothing_from_elsewhere(fakesqs: FakeSQS) -> None:
    root, _ = page_of(fakesqs)
    tags = {element.tag for element in root.iter()}
    assert not tags & {"script", "img", "iframe", "object"}
    assert [link.attrib for link in root.iter("link")] == [{"rel": "icon", "href": "data:,"}]
    for element in root.iter():
        assert "src" not in element.attrib
        assert not element.get("href", "").startswith(("http:", "https:", "//"))


def test_a_fake_that_saw_nothing_still_makes_a_page(fakesqs: FakeSQS) -> None:
    page = report_page(take_snapshot(fakesqs), test_id="t")
    root = ET.fromstring(page.removeprefix("<!DOCTYPE html>\n"))
    assert [s.get("id") for s in root.iter("section")] == [
        "queues",
        "dead-letters",
        "timeline",
        "histories",
        "calls",
    ]
    empty = [text_of(p) for p in root.iter("p") if p.get("class") == "empty"]
    assert empty == ["no queues", "no dead letters", "no messages were sent", "no calls"]


def test_every_queue_gets_a_lane_even_one_nothing_reached(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("jobs-dlq")
    url = fakesqs.create_queue("jobs")
    core_of(fakesqs).service.call(
        "SendMessage", {"QueueUrl": url, "MessageBody": "m"}, fakesqs.context()
    )
    page = report_page(take_snapshot(fakesqs), test_id="t")
    root = ET.fromstring(page.removeprefix("<!DOCTYPE html>\n"))
    lanes = [g.get("data-queue") for g in root.iter(f"{SVG}g") if g.get("class") == "lane"]
    assert lanes == ["jobs", "jobs-dlq"]
