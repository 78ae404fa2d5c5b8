"""The `fakesqs` report section of a failed test: concise by default, complete under -v."""

from __future__ import annotations

import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.plugin.report import report_section

from .conftest import literal

SCENARIO = """
import boto3, pytest

pytestmark = pytest.mark.fakesqs(queues={
    "orders": {"VisibilityTimeout": 30, "dlq": "orders-dlq", "max_receive_count": 3},
    "orders-dlq": {},
})

def sqs():
    return boto3.client("sqs", region_name="us-east-1",
                        aws_access_key_id="a", aws_secret_access_key="b")

def test_worker_leaves_a_message_behind(fakesqs):
    url = fakesqs.queue("orders").url
    sqs().send_message(QueueUrl=url, MessageBody="done")
    sqs().send_message(QueueUrl=url, MessageBody="stuck " + "x" * 50)
    for _ in range(4):
        for m in sqs().receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            if m["Body"] == "done":
                sqs().delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
        fakesqs.advance(30)
    assert len(fakesqs.queue("orders")) == 1, "the worker should have finished"

def test_passes(fakesqs):
    sqs().send_message(QueueUrl=fakesqs.queue("orders").url, MessageBody="fine")
"""


def test_a_failed_test_gets_a_fakesqs_section(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SCENARIO)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*- fakesqs -*",
            "clock frozen at 2024-01-01T00:02:00+00:00 (+120s since the test started)",
            "queues:",
            "  orders: 0 visible, 0 in flight, 0 delayed; dead-letters to orders-dlq after "
            "3 receives",
            "  orders-dlq: 1 visible, 0 in flight, 0 delayed",
            "1 message not deleted:",
            "  * in orders-dlq: visible, received 3 times, body 'stuck xxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxx'… (56 chars)",
            "          +0s  orders: sent by AIDA*",
            "            …  4 more events (add -v to show all)",
            "         +60s  orders: received #3 handle …*",
            "         +90s  orders: visible again",
            "         +90s  orders: moved to dead-letter queue orders-dlq",
            "         +90s  orders-dlq: arrived from orders",
            "*short test summary info*",
        ]
    )
    assert result.stdout.str().count("- fakesqs -") == 1  # not for the passing test


def test_verbose_shows_every_event_and_the_whole_body(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SCENARIO)
    result = pytester.runpytest("-v", "-p", "no:randomly")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*- fakesqs -*",
            literal("  * in orders-dlq: visible, received 3 times, body 'stuck " + "x" * 50 + "'"),
            "          +0s  orders: sent by AIDA*",
            "          +0s  orders: received #1 handle …*",
            "         +30s  orders: visible again",
            "         +30s  orders: received #2 handle …*",
            "         +60s  orders: visible again",
            "         +60s  orders: received #3 handle …*",
            "         +90s  orders: visible again",
        ]
    )


def test_many_unfinished_messages_are_cut_to_five(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("busy")
    for index in range(7):
        core_of(fakesqs).service.call(
            "SendMessage", {"QueueUrl": url, "MessageBody": str(index)}, fakesqs.context()
        )
    lines = report_section(fakesqs, verbose=False).splitlines()
    assert lines[:4] == [
        "clock frozen at 2024-01-01T00:00:00+00:00 (+0s since the test started)",
        "queues:",
        "  busy: 7 visible, 0 in flight, 0 delayed",
        "7 messages not deleted:",
    ]
    assert lines[-1] == "  … and 2 more (add -v to show all)"
    assert len(report_section(fakesqs, verbose=True).splitlines()) == 4 + 7 * 2


def test_a_section_says_so_when_nothing_was_sent_or_everything_was_deleted(
    fakesqs: FakeSQS,
) -> None:
    assert report_section(fakesqs, verbose=False).splitlines() == [
        "clock frozen at 2024-01-01T00:00:00+00:00 (+0s since the test started)",
        "no queues",
        "no messages were sent",
    ]
    url = fakesqs.create_queue("q")
    ctx = fakesqs.context()
    core_of(fakesqs).service.call("SendMessage", {"QueueUrl": url, "MessageBody": "m"}, ctx)
    (message,) = core_of(fakesqs).service.call("ReceiveMessage", {"QueueUrl": url}, ctx)["Messages"]
    core_of(fakesqs).service.call(
        "DeleteMessage", {"QueueUrl": url, "ReceiptHandle": message["ReceiptHandle"]}, ctx
    )
    assert report_section(fakesqs, verbose=False).splitlines()[-1] == (
        "every message sent was deleted"
    )


DUPLICATE_EXPIRED = """
import boto3, pytest

@pytest.mark.fakesqs(duplicate_delivery=1.0, seed=1)
def test_handles_each_order_once(fakesqs):
    sqs = boto3.client("sqs", region_name="us-east-1",
                       aws_access_key_id="a", aws_secret_access_key="b")
    url = fakesqs.create_queue("orders")
    sqs.send_message(QueueUrl=url, MessageBody="order 1")
    (m,) = sqs.receive_message(QueueUrl=url)["Messages"]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    fakesqs.advance_to_next_event(include_expiry=True)  # the duplicate expires, unreceived
    assert False, "look at the report"
"""


def test_a_duplicate_that_expired_unreceived_is_not_reported_as_deleted(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(DUPLICATE_EXPIRED)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "  orders: 0 visible, 0 in flight, 0 delayed",
            "1 injected duplicate not deleted (the messages themselves were):",
            "  * in orders: injected duplicate, expired, never received, body 'order 1'",
            "          +0s  orders: sent by AIDA*",
            "          +0s  orders: received #1 handle …*",
            "          +0s  orders: duplicated injected: SQS will deliver this message once more",
            "     +345600s  orders: expired",
        ]
    )
    assert "every message sent was deleted" not in result.stdout.str()


# The duplicate is never received: that is the point here, so its teardown warning is expected.
@pytest.mark.filterwarnings("ignore::pytest_fakesqs.FakeSQSWarning")
def test_duplicates_left_behind_are_listed_beside_the_messages_left_behind(
    fakesqs: FakeSQS,
) -> None:
    url = fakesqs.create_queue("q")
    fakesqs.duplicate_next("q")
    ctx = fakesqs.context()
    first, second = (
        core_of(fakesqs).service.call("SendMessage", {"QueueUrl": url, "MessageBody": body}, ctx)[
            "MessageId"
        ][:8]
        for body in ("first", "second")
    )
    core_of(fakesqs).service.call("ReceiveMessage", {"QueueUrl": url, "VisibilityTimeout": 5}, ctx)
    lines = report_section(fakesqs, verbose=False).splitlines()
    assert [line for line in lines if not line.startswith("    ")][2:] == [
        "  q: 2 visible, 1 in flight, 0 delayed",
        "2 messages not deleted:",
        f"  {first} in q: in flight for 5s more, received once, body 'first'",
        f"  {second} in q: visible, never received, body 'second'",
        "1 injected duplicate not deleted:",
        f"  {first} in q: injected duplicate, visible, never received, body 'first'",
        "faults that fired (1):",
        "  duplicate of message 1 (first), visible again at +0s",
    ]
