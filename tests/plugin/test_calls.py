"""calls(), assert_no_client_errors, backlog, exports and the docs pages messages cite."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

import pytest_fakesqs
from pytest_fakesqs import Backlog, Call, FakeSQS, HistoryEvent, QueueView
from pytest_fakesqs.api import ErrorCode, SqsError
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.fake.text import see


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def test_calls_lists_actions_params_and_outcomes(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="m")
    fakesqs.advance(5)
    with pytest.raises(ClientError):
        sqs.get_queue_url(QueueName="missing")
    calls = fakesqs.calls()
    assert [(c.action, c.queue, c.outcome) for c in calls] == [
        ("CreateQueue", "jobs", "ok"),
        ("SendMessage", "jobs", "ok"),
        ("GetQueueUrl", "missing", "AWS.SimpleQueueService.NonExistentQueue"),
    ]
    assert isinstance(calls[0], Call)
    assert calls[1].params == {"QueueUrl": url, "MessageBody": "m"}
    assert calls[1].result is not None and "MessageId" in calls[1].result
    assert calls[2].at.isoformat() == "2024-01-01T00:00:05+00:00"
    assert (calls[2].ok, calls[2].error_message) == (False, "The specified queue does not exist.")
    assert [c.action for c in fakesqs.calls("SendMessage")] == ["SendMessage"]
    with pytest.raises(ValueError, match=r"^no SQS action named 'Send'; actions: .*SendMessage"):
        fakesqs.calls("Send")
    with pytest.raises(ValueError, match=r"UntagQueue; did you mean 'SendMessage'\?$"):
        fakesqs.calls("SendMesage")


SWALLOWING = """
import boto3, pytest
from botocore.exceptions import ClientError

def sqs():
    return boto3.client("sqs", region_name="us-east-1",
                        aws_access_key_id="a", aws_secret_access_key="b")

def lookup(name):
    try:
        return sqs().get_queue_url(QueueName=name)["QueueUrl"]
    except ClientError:
        return None   # the bug: the error is swallowed

@pytest.mark.fakesqs(assert_no_client_errors=True)
def test_swallows(fakesqs):
    fakesqs.advance(7)
    assert lookup("orders") is None

@pytest.mark.fakesqs(assert_no_client_errors=True)
def test_clean(fakesqs):
    fakesqs.create_queue("orders")
    assert lookup("orders") is not None

@pytest.mark.fakesqs(assert_no_client_errors=True)
def test_injected_errors_are_expected(fakesqs):
    from pytest_fakesqs.api import ErrorCode, SqsError
    from pytest_fakesqs.fake.facade import core_of
    core_of(fakesqs).handler.interceptors.append(
        lambda request, ctx, wire: SqsError(ErrorCode.QueueDoesNotExist, "The specified queue does not exist."))
    assert lookup("orders") is None

@pytest.mark.fakesqs(assert_no_client_errors=True)
def test_failing_test_is_not_doubled(fakesqs):
    assert lookup("orders") is not None

def test_off_by_default(fakesqs):
    assert lookup("orders") is None
"""


def test_a_swallowed_sqs_error_errors_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SWALLOWING)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=4, failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_swallows*",
            "fakesqs: the code under test received 1 SQS error and carried on "
            "(assert_no_client_errors is on):",
            "  - +7s GetQueueUrl on orders: AWS.SimpleQueueService.NonExistentQueue: "
            "The specified queue does not exist.",
            "Handle or fix these calls, or turn the check off with "
            "@pytest.mark.fakesqs(assert_no_client_errors=False).",
            "See docs/calls-and-client-errors.md (`fakesqs docs calls-and-client-errors` prints it)",
        ]
    )
    assert result.stdout.str().count("ERROR at teardown") == 1


def test_injected_errors_are_marked(fakesqs: FakeSQS) -> None:
    core_of(fakesqs).handler.interceptors.append(
        lambda request, ctx, wire: SqsError(ErrorCode.OverLimit, "Too many.")
    )
    with pytest.raises(ClientError):
        client().list_queues()
    (call,) = fakesqs.calls()
    assert (call.injected, call.error_code, call.error_message) == (True, "OverLimit", "Too many.")
    assert fakesqs.teardown_problems() == []


def test_backlog_oldest_age_does_not_scan_the_queue(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = fakesqs.create_queue("deep")
    for _second in range(30):
        sqs.send_message_batch(
            QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": "m"} for i in range(10)]
        )
        fakesqs.advance(1)
    first = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    sqs.delete_message_batch(
        QueueUrl=url,
        Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(first)],
    )
    queue = core_of(fakesqs).broker.find(fakesqs.key("deep"))
    assert queue is not None
    backlog = fakesqs.queue("deep").backlog()
    assert (backlog.count, backlog.oldest_age, backlog.in_flight) == (290, 29.0, 0)
    work = queue.work
    assert fakesqs.queue("deep").backlog().oldest_age == 29.0
    assert queue.work == work  # the stale heads were dropped once; the second ask is O(1)


def test_public_names_are_exported_and_records_are_not_made_by_hand() -> None:
    assert set(pytest_fakesqs.__all__) >= {
        "Backlog",
        "Call",
        "DeadLetter",
        "FakeSQS",
        "HistoryEvent",
        "MessageView",
        "QueueView",
        "fake_sqs",
    }
    with pytest.raises(TypeError, match="use the `fakesqs` fixture or `fake_sqs\\(\\)`"):
        FakeSQS(pytest_fakesqs.Options())
    with pytest.raises(TypeError, match=r"^HistoryEvent objects are made by the fake"):
        HistoryEvent(at=None, event="", detail="", queue="", message_id="")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^Backlog objects are made by the fake"):
        Backlog(count=0, bytes=0, oldest_age=0.0, in_flight=0, delayed=0)
    with pytest.raises(TypeError, match=r"^QueueView objects are made by the fake"):
        QueueView(None, None)  # type: ignore[arg-type]


def test_messages_cite_a_page_the_installed_command_prints() -> None:
    assert see("dead_letters") == (
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_nothing_leaks_between_tests_under_xdist(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    pytester.makepyfile(
        """
        import boto3, pytest

        @pytest.mark.parametrize("n", range(6))
        @pytest.mark.fakesqs(queues={"shared": {}})
        def test_isolated(fakesqs, n):
            sqs = boto3.client("sqs", region_name="us-east-1",
                               aws_access_key_id="a", aws_secret_access_key="b")
            url = fakesqs.queue("shared").url
            assert fakesqs.queue("shared").bodies() == []
            sqs.send_message(QueueUrl=url, MessageBody=str(n))
            assert len(fakesqs.calls()) == 1 and fakesqs.dead_letters() == []
        """
    )
    result = pytester.runpytest_subprocess("-n", "2", "-p", "randomly")
    result.assert_outcomes(passed=6)
