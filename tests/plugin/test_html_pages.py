"""`--fakesqs-html DIR` and ini `fakesqs_html`: a page per failing test that used the fake."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_fakesqs.plugin.pages import page_name

SCENARIO = """
import boto3, pytest

pytestmark = pytest.mark.fakesqs(queues={
    "orders": {"VisibilityTimeout": 30, "dlq": "orders-dlq", "max_receive_count": 2},
    "orders-dlq": {},
})

def sqs():
    return boto3.client("sqs", region_name="us-east-1",
                        aws_access_key_id="a", aws_secret_access_key="b")

def test_poison_message(fakesqs):
    url = fakesqs.queue("orders").url
    sqs().send_message(QueueUrl=url, MessageBody="poison")
    for _ in range(3):
        sqs().receive_message(QueueUrl=url)
        fakesqs.advance(30)
    fakesqs.assert_no_dead_letters()

def test_passes(fakesqs):
    sqs().send_message(QueueUrl=fakesqs.queue("orders").url, MessageBody="fine")

@pytest.mark.parametrize("n", ["a/b"])
def test_fails_with_a_parameter(fakesqs, n):
    assert False
"""
WITHOUT_THE_FAKE = """
def test_fails_without_the_fake():
    assert False
"""
SVG = "{http://www.w3.org/2000/svg}"


def parsed(path: Path) -> ET.Element:
    return ET.fromstring(path.read_text(encoding="utf-8").removeprefix("<!DOCTYPE html>\n"))


def test_a_page_per_failing_test_that_used_the_fake(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    result = pytester.runpytest("-p", "no:randomly", "--fakesqs-html", "pages")
    result.assert_outcomes(failed=3, passed=1)
    pages = pytester.path / "pages"
    assert sorted(p.name for p in pages.iterdir()) == [
        "test_orders.py__test_fails_with_a_parameter_a_b.html",
        "test_orders.py__test_poison_message.html",
    ]
    poison = pages / "test_orders.py__test_poison_message.html"
    result.stdout.fnmatch_lines(["*- fakesqs -*", f"html page: {poison}"])
    assert result.stdout.str().count("html page: ") == 2

    root = parsed(poison)
    title = root.find("./head/title")
    assert title is not None and title.text == "fakesqs: test_orders.py::test_poison_message"
    failure = root.find(".//section[@id='failure']/pre")
    assert failure is not None and failure.text is not None
    assert "1 message was dead-lettered" in failure.text or "dead-letter" in failure.text
    lanes = [g.get("data-queue") for g in root.iter(f"{SVG}g") if g.get("class") == "lane"]
    assert lanes == ["orders", "orders-dlq"]
    marks = [
        g.get("data-event")
        for g in root.iter(f"{SVG}g")
        if g.get("data-queue") and g.get("data-event")
    ]
    assert marks == [
        "sent",
        "received",
        "visible again",
        "received",
        "visible again",
        "moved to dead-letter queue",
        "arrived from",
    ]


def test_no_pages_without_the_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=3, passed=1)
    assert "html page" not in result.stdout.str()
    assert not (pytester.path / "pages").exists()


def test_the_ini_option_is_relative_to_the_ini_file(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_html = reports/fakesqs\n")
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    sub = pytester.mkdir("elsewhere")
    result = pytester.runpytest(
        "-p", "no:randomly", str(pytester.path), f"--rootdir={pytester.path}"
    )
    del sub
    result.assert_outcomes(failed=3, passed=1)
    page = pytester.path / "reports" / "fakesqs" / "test_orders.py__test_poison_message.html"
    assert page.is_file()
    result.stdout.fnmatch_lines([f"html page: {page}"])


def test_a_page_that_cannot_be_written_is_reported_not_fatal(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    (pytester.path / "taken").write_text("a file, not a folder")
    result = pytester.runpytest("-p", "no:randomly", "--fakesqs-html", "taken")
    result.assert_outcomes(failed=3, passed=1)
    result.stdout.fnmatch_lines(["html page not written: *"])


def test_pytest_html_links_each_page_from_its_report(pytester: pytest.Pytester) -> None:
    pytest.importorskip("pytest_html")
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    result = pytester.runpytest(
        "-p", "no:randomly", "--html", "report/index.html", "--fakesqs-html", "pages"
    )
    result.assert_outcomes(failed=3, passed=1)
    report = (pytester.path / "report" / "index.html").read_text(encoding="utf-8")
    blob = re.search(r'data-jsonblob="([^"]*)"', report)
    assert blob is not None
    data = json.loads(
        blob.group(1).replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&")
    )
    extras = {
        test_id: [extra for row in rows for extra in row["extras"]]
        for test_id, rows in data["tests"].items()
    }
    poison = extras["test_orders.py::test_poison_message"]
    assert [(e["name"], e["format_type"], e["content"]) for e in poison] == [
        ("fakesqs", "url", "../pages/test_orders.py__test_poison_message.html")
    ]
    assert extras["test_orders.py::test_passes"] == []
    assert extras["test_plain.py::test_fails_without_the_fake"] == []


def test_with_pytest_html_alone_pages_go_beside_its_report(pytester: pytest.Pytester) -> None:
    pytest.importorskip("pytest_html")
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    result = pytester.runpytest("-p", "no:randomly", "--html", "out/report.html")
    result.assert_outcomes(failed=3, passed=1)
    page = pytester.path / "out" / "fakesqs" / "test_orders.py__test_poison_message.html"
    assert page.is_file()
    result.stdout.fnmatch_lines([f"html page: {page}"])


def test_page_names_are_safe_file_names() -> None:
    assert page_name("tests/a.py::TestX::test_y[1-a b]") == "tests_a.py__TestX__test_y_1-a_b.html"
    long = page_name("t.py::test_" + "x" * 300)
    assert len(long) < 150 and long.endswith(".html")
    assert long != page_name("t.py::test_" + "x" * 299)


def test_the_pictures_are_not_imported_when_pytest_starts(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_loaded="""
        import sys

        def test_nothing_of_the_pictures_is_loaded():
            assert [m for m in sys.modules if m.startswith("pytest_fakesqs.pictures")] == []
            assert "pytest_fakesqs.plugin.pages" not in sys.modules  # loaded at a failure
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=1)


def test_pages_are_written_under_xdist_too(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    pytester.makepyfile(test_orders=SCENARIO, test_plain=WITHOUT_THE_FAKE)
    result = pytester.runpytest_subprocess(
        "-p", "no:randomly", "-n", "2", "--fakesqs-html", "pages"
    )
    result.assert_outcomes(failed=3, passed=1)
    pages = sorted(p.name for p in (pytester.path / "pages").iterdir())
    assert pages == [
        "test_orders.py__test_fails_with_a_parameter_a_b.html",
        "test_orders.py__test_poison_message.html",
    ]
    result.stdout.fnmatch_lines(["html page: */pages/test_orders.py__test_poison_message.html"])
