"""`GET /_fakesqs/`: the read-only dashboard, over real HTTP, beside the SQS it serves."""

from __future__ import annotations

import http.client
import signal
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.pictures.dashboard import Route, route

from ..pictures.story import tell_the_story
from .conftest import PYTHON, SUBPROCESS_TIMEOUT, LineReader, subprocess_env

SVG = "{http://www.w3.org/2000/svg}"


def get(endpoint_url: str, path: str) -> tuple[int, dict[str, str], str]:
    netloc = urlsplit(endpoint_url).netloc
    connection = http.client.HTTPConnection(netloc, timeout=SUBPROCESS_TIMEOUT)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers, response.read().decode("utf-8")
    finally:
        connection.close()


def page(endpoint_url: str, path: str) -> ET.Element:
    status, headers, body = get(endpoint_url, path)
    assert status == 200, body
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-store"
    return ET.fromstring(body.removeprefix("<!DOCTYPE html>\n"))


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext()).strip()


def rows(root: ET.Element, table_class: str) -> list[list[str]]:
    table = root.find(f".//table[@class='{table_class}']")
    assert table is not None, f"no table {table_class}"
    return [[text_of(td) for td in tr.findall("td")] for tr in table.findall("./tbody/tr")]


def links(root: ET.Element) -> list[str]:
    return [a.get("href", "") for a in root.iter("a")]


@pytest.fixture
def story(fakesqs: FakeSQS, fakesqs_server: FakeSQSServer) -> dict[str, str]:
    return tell_the_story(fakesqs)


def test_the_overview_lists_queues_dead_letters_a_timeline_and_recent_calls(
    fakesqs_server: FakeSQSServer, story: dict[str, str]
) -> None:
    root = page(fakesqs_server.endpoint_url, "/_fakesqs/")
    assert [s.get("id") for s in root.iter("section")] == [
        "queues",
        "dead-letters",
        "timeline",
        "calls",
    ]
    assert rows(root, "queues")[:2] == [
        ["orders", "standard", "1", "0", "0", "dead-letters to orders-dlq after 2 receives"],
        ["orders-dlq", "standard", "0", "0", "0", "dead-letter queue of orders"],
    ]
    assert "/_fakesqs/queues/us-east-1/123456789012/orders" in links(root)
    assert rows(root, "dead-letters")[0][:3] == [story["poison"][:8], "orders", "orders-dlq"]
    assert f"/_fakesqs/messages/{story['poison']}" in links(root)
    messages = [g for g in root.iter(f"{SVG}g") if g.get("class") == "message"]
    assert len(messages) == 5
    assert [r[1] for r in rows(root, "calls")][:2] == ["SendMessage", "SendMessage"]
    header = root.find(".//header/p")
    assert header is not None
    assert text_of(header).startswith(f"SQS at {fakesqs_server.endpoint_url} · clock frozen")


def test_a_queue_page_peeks_without_changing_receive_counts(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="first")
    sqs.send_message(QueueUrl=url, MessageBody="second")
    sqs.receive_message(QueueUrl=url)  # "first" is in flight now

    for _ in range(3):
        root = page(fakesqs_server.endpoint_url, "/_fakesqs/queues/us-east-1/123456789012/jobs")

    assert [[r[1], r[2], r[6]] for r in rows(root, "messages")] == [
        ["in flight", "1", "first"],
        ["visible", "0", "second"],
    ]
    assert [m.receive_count for m in fakesqs.queue("jobs").messages()] == [1, 0]
    settings = dict(r for r in rows(root, "attributes") if len(r) == 2)  # type: ignore[misc]
    assert settings["VisibilityTimeout"] == "30"
    assert settings["ApproximateNumberOfMessagesNotVisible"] == "1"
    lanes = [g.get("data-queue") for g in root.iter(f"{SVG}g") if g.get("class") == "lane"]
    assert lanes == ["jobs"]


def test_a_message_page_shows_its_timeline_and_history(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, story: dict[str, str]
) -> None:
    root = page(fakesqs_server.endpoint_url, f"/_fakesqs/messages/{story['poison']}")
    header = root.find(".//header")
    assert header is not None
    assert text_of(header).startswith(f"message {story['poison']}in orders: visible, received")
    events = [r[2] for r in rows(root, "history")]
    assert events == [e.event for e in fakesqs.history(story["poison"])]
    marks = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("mark ")]
    assert len([m for m in marks if m.get("data-event")]) >= len(events)
    body = root.find(".//section[@id='body']/pre")
    assert body is not None and body.text == "poison"

    gone = page(fakesqs_server.endpoint_url, f"/_fakesqs/messages/{story['done']}")
    gone_header = gone.find(".//header/p")
    assert gone_header is not None and text_of(gone_header).startswith("gone: deleted")


def test_the_dead_letters_page_lists_them_with_their_timeline(
    fakesqs_server: FakeSQSServer, story: dict[str, str]
) -> None:
    overview = page(fakesqs_server.endpoint_url, "/_fakesqs/")
    assert "/_fakesqs/dead-letters" in links(overview)
    root = page(fakesqs_server.endpoint_url, "/_fakesqs/dead-letters")
    assert [r[:3] for r in rows(root, "dead-letters")] == [
        [story["poison"][:8], "orders", "orders-dlq"]
    ]
    messages = [
        g.get("data-message-id") for g in root.iter(f"{SVG}g") if g.get("class") == "message"
    ]
    assert messages == [story["poison"]]


def test_the_address_without_its_slash_redirects(fakesqs_server: FakeSQSServer) -> None:
    status, headers, body = get(fakesqs_server.endpoint_url, "/_fakesqs")
    assert (status, headers["location"], body) == (308, "/_fakesqs/", "")


def test_unknown_pages_are_404_pages(fakesqs_server: FakeSQSServer) -> None:
    for path in (
        "/_fakesqs/queues/us-east-1/123456789012/nope",
        "/_fakesqs/messages/nope",
        "/_fakesqs/elsewhere",
    ):
        status, headers, body = get(fakesqs_server.endpoint_url, path)
        assert status == 404
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert "Back to the overview" in body


def test_sqs_is_served_as_before_beside_the_dashboard(fakesqs_server: FakeSQSServer) -> None:
    sqs = fakesqs_server.client()
    sqs.create_queue(QueueName="q")
    page(fakesqs_server.endpoint_url, "/_fakesqs/")
    assert sqs.list_queues()["QueueUrls"] == [f"{fakesqs_server.endpoint_url}/123456789012/q"]
    assert fakesqs_server.requests_served == 2  # the dashboard's pages are not SQS requests


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/_fakesqs/", Route("overview")),
        ("/_fakesqs/?refresh=1", Route("overview")),
        (
            "/_fakesqs/queues/us-east-1/123456789012/a%2Fb",
            Route("queue", ("us-east-1", "123456789012", "a/b")),
        ),
        ("/_fakesqs/messages/m-1/", Route("message", ("m-1",))),
        ("/_fakesqs/queues/x", Route("not found", ("/_fakesqs/queues/x",))),
        ("/_fakesqs/dead-letters", Route("dead letters")),
        ("/_fakesqs", Route("redirect", ("/_fakesqs/",))),
        ("/_fakesqs/health", None),  # the health check's, not the dashboard's
        ("/123456789012/orders", None),
    ],
)
def test_routes(path: str, expected: Route | None) -> None:
    assert route(path) == expected


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    process = subprocess.Popen(
        [PYTHON, "-m", "pytest_fakesqs", "serve", "--port", "0", "--clock", "frozen"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=subprocess_env(),
        cwd=tmp_path,
    )
    assert process.stdout is not None
    output = LineReader(process.stdout)
    banner = output.next_line()
    try:
        assert banner.startswith("fakesqs: serving SQS at http://127.0.0.1:"), banner
        yield banner.split(" at ", 1)[1].split(" ", 1)[0]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=SUBPROCESS_TIMEOUT)
        process.stdout.close()


def test_fakesqs_serve_answers_the_dashboard(served: str) -> None:
    root = page(served, "/_fakesqs/")
    title = root.find("./head/title")
    assert title is not None and title.text == "fakesqs dashboard"
    empty = [text_of(p) for p in root.iter("p") if p.get("class") == "empty"]
    assert empty[:2] == ["no queues", "no dead letters"]


def test_a_page_that_fails_is_a_500_page_not_a_dropped_connection(
    fakesqs_server: FakeSQSServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_fakesqs.pictures import dashboard

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(dashboard, "overview_page", broken)
    status, _headers, body = get(fakesqs_server.endpoint_url, "/_fakesqs/")
    assert status == 500
    assert "the dashboard failed: RuntimeError: a bug" in body
