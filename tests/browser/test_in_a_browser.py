"""The dashboard and a failing test's page as a person sees them: opened in headless Chromium,
read back from what it rendered, and kept as screenshots under the test's tmp_path."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

from ..pictures.story import tell_the_story
from ..plugin.test_html_pages import SCENARIO


def screenshot(page: Any, path: Path) -> Path:
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000  # a picture of something, not an empty page
    return path


def test_the_dashboard_renders_queues_a_timeline_and_links(
    page: Any, fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, tmp_path: Path
) -> None:
    ids = tell_the_story(fakesqs)
    base = fakesqs_server.endpoint_url
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(base) else elsewhere.append(r.url))

    page.goto(f"{base}/_fakesqs/")

    assert page.locator("h1").inner_text() == "fakesqs dashboard"
    queue_rows = page.locator("table.queues tbody tr")
    assert queue_rows.count() == 4
    assert queue_rows.nth(0).locator("td").all_inner_texts() == [
        "orders",
        "standard",
        "1",
        "0",
        "0",
        "dead-letters to orders-dlq after 2 receives",
    ]
    timeline = page.locator("svg.fakesqs-timeline")
    assert timeline.is_visible()
    box = timeline.bounding_box()
    assert box is not None and box["width"] >= 900 and box["height"] > 150
    lanes = page.locator("svg.fakesqs-timeline g.lane text.lane-name").all_text_contents()
    assert lanes == ["orders", "short-lived", "scratch", "orders-dlq"]
    assert page.locator("svg.fakesqs-timeline g.message").count() == 5
    dead_lettered = page.locator("g.message g.mark.dead-lettered")
    assert dead_lettered.count() == 1 and dead_lettered.is_visible()
    assert (
        dead_lettered.locator("title")
        .text_content()
        .startswith("+60s orders: moved to dead-letter queue orders-dlq")
    )
    assert page.locator("table.dead-letters tbody tr").count() == 1
    kept = screenshot(page, tmp_path / "dashboard.png")
    if os.environ.get("FAKESQS_DOCS_SCREENSHOT"):  # `make docs-screenshot` refreshes the docs'
        shutil.copyfile(kept, os.environ["FAKESQS_DOCS_SCREENSHOT"])

    page.locator("table.queues a", has_text="orders-dlq").click()
    assert page.url == f"{base}/_fakesqs/queues/us-east-1/123456789012/orders-dlq"
    assert page.locator("h1").inner_text() == "queue orders-dlq"
    assert page.locator("table.messages").count() == 0  # redriven: nothing left in it
    assert page.locator("table.dead-letters tbody tr").count() == 1

    page.locator("table.dead-letters a").first.click()
    assert page.url == f"{base}/_fakesqs/messages/{ids['poison']}"
    assert page.locator("h1").inner_text() == f"message {ids['poison']}"
    events = page.locator("table.history tbody tr td:nth-child(3)").all_inner_texts()
    assert events == [e.event for e in fakesqs.history(ids["poison"])]
    assert page.locator("section#body pre").inner_text() == "poison"
    screenshot(page, tmp_path / "message.png")

    page.locator("nav a", has_text="Overview").click()
    page.locator("svg.fakesqs-timeline g.message").nth(1).locator("g.mark.sent").click()
    assert page.url == f"{base}/_fakesqs/messages/{ids['poison']}"
    assert elsewhere == []  # no CDN, no fonts, nothing from anywhere but the fake


def test_the_dashboard_refreshes_on_request(
    page: Any, fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    page.goto(f"{fakesqs_server.endpoint_url}/_fakesqs/")
    visible = page.locator("table.queues tbody tr td.visible")
    assert visible.inner_text() == "0"

    sqs.send_message(QueueUrl=url, MessageBody="new")
    page.locator("nav a.refresh").click()

    assert visible.inner_text() == "1"
    assert page.locator("svg.fakesqs-timeline g.message").count() == 1
    assert fakesqs_server.requests_served == 2  # the browser asked SQS for nothing (no favicon)


def test_a_failing_tests_page_renders_offline(
    page: Any, pytester: pytest.Pytester, tmp_path: Path
) -> None:
    pytester.makepyfile(test_orders=SCENARIO)
    result = pytester.runpytest("-p", "no:randomly", "--fakesqs-html", "pages")
    result.assert_outcomes(failed=2, passed=1)
    html_page = pytester.path / "pages" / "test_orders.py__test_poison_message.html"
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))

    page.goto(html_page.as_uri())

    assert page.title() == "fakesqs: test_orders.py::test_poison_message"
    headings = page.locator("section h2").all_inner_texts()
    assert headings == [
        "Failure",
        "Queues",
        "Dead letters",
        "Timeline",
        "Message histories",
        "Calls",
    ]
    assert "assert_no_dead_letters" in page.locator("section#failure pre").inner_text()
    assert page.locator("table.queues tbody tr").count() == 2
    assert page.locator("table.dead-letters tbody tr td").nth(1).inner_text() == "orders"
    lanes = page.locator("svg.fakesqs-timeline g.lane text.lane-name").all_text_contents()
    assert lanes == ["orders", "orders-dlq"]
    labels = page.locator("g.message text.mark-label").all_text_contents()
    assert labels == ["#1", "#2"]
    assert page.locator("details.message-history[open] table.history tbody tr").count() == 7
    actions = page.locator("table.calls tbody tr td:nth-child(2)").all_inner_texts()
    assert actions[:2] == ["SendMessage", "ReceiveMessage"]
    assert requested == [html_page.as_uri()]  # self-contained: nothing else is fetched
    screenshot(page, tmp_path / "report-page.png")
