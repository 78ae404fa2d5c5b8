"""Tier 3: a fault the test configured that never happened is a FakeSQSWarning at teardown
(fixture, marker and fake_sqs() alike); `faults=` on the marker, and its report section."""

from __future__ import annotations

import boto3  # noqa: F401  (imported here, it survives between inline runs; see run())
import pytest

import pytest_fakesqs.engine.errors  # noqa: F401  (the one FakeSQSWarning class of every run)

from .conftest import literal

pytest_plugins = ["pytester"]

CLIENT = """
import boto3, pytest
from pytest_fakesqs import fake_sqs

def client():
    return boto3.client("sqs", region_name="us-east-1",
                        aws_access_key_id="a", aws_secret_access_key="b")
"""


def run(pytester: pytest.Pytester, tests: str, *args: str) -> pytest.RunResult:
    pytester.makepyfile(CLIENT + tests)
    # An inline run inherits this suite's `filterwarnings = error`: show warnings as a user would.
    # (Modules an inline run imports are dropped after it: botocore and the warning class are
    # imported at the top of this file, so every run patches and filters the same objects.)
    shown = ("-W", "default::pytest_fakesqs.FakeSQSWarning")
    return pytester.runpytest("-p", "no:randomly", *shown, *args)


def warnings_of(result: pytest.RunResult) -> list[str]:
    """The warnings of the summary, each as `FakeSQSWarning: text`."""
    marker = "FakeSQSWarning: "
    return [line[line.index(marker) :] for line in result.stdout.lines if marker in line]


def test_a_duplicate_never_received_is_a_warning_naming_the_option(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
@pytest.mark.fakesqs(duplicate_delivery=1.0)
def test_polls_once(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
    message = client().receive_message(QueueUrl=url)["Messages"][0]
    client().delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

@pytest.mark.fakesqs(duplicate_delivery=1.0)
def test_receives_the_copy_too(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
    for _ in range(2):
        message = client().receive_message(QueueUrl=url)["Messages"][0]
        client().delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
""",
    )
    result.assert_outcomes(passed=2, warnings=1)
    assert warnings_of(result) == [
        "FakeSQSWarning: duplicate_delivery=1.0: 1 duplicate was "
        "injected and never received (still waiting in orders when the test ended)"
    ]
    result.stdout.fnmatch_lines(["test_a_duplicate_never_received*::test_polls_once"])


def test_minus_w_error_turns_the_warning_into_a_failing_test(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
@pytest.mark.fakesqs(standard_order="shuffled")
def test_one_message(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
    client().receive_message(QueueUrl=url)
""",
        "-W",
        "error::pytest_fakesqs.FakeSQSWarning",
    )
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_one_message*",
            literal(
                "FakeSQSWarning: standard_order='shuffled': no receive had more than one message "
                "to order (1 receive from standard queues, each with at most one visible message)"
            ),
            "*= short test summary info =*",
        ]
    )
    assert "During handling of the above exception" not in result.stdout.str()


@pytest.mark.parametrize(
    ("test", "warning"),
    [
        (
            """
@pytest.mark.fakesqs(empty_receives=0.5)
def test_long_polls(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
    client().receive_message(QueueUrl=url, WaitTimeSeconds=20)
""",
            "empty_receives=0.5: no short poll came back empty (no short poll was made; a long "
            "poll (WaitTimeSeconds > 0) is never emptied)",
        ),
        (
            """
def test_sends_once(fakesqs):
    url = fakesqs.create_queue("orders")
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=2)
    fakesqs.fail_next("DeleteMessage", "InternalError", queue="orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
""",
            "fail_next('DeleteMessage', 'InternalError', times=1, queue='orders'): never fired "
            "(no DeleteMessage call on orders came after it)",
        ),
        (
            """
from botocore.config import Config

def test_gives_up(fakesqs):
    url = fakesqs.create_queue("orders")
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=3)
    sqs = boto3.client("sqs", region_name="us-east-1", aws_access_key_id="a",
                       aws_secret_access_key="b", config=Config(retries={"max_attempts": 1}))
    with pytest.raises(Exception):
        sqs.send_message(QueueUrl=url, MessageBody="order-1")
""",
            "fail_next('SendMessage', 'RequestThrottled', times=3): fired 2 of 3 times (no "
            "further SendMessage call came)",
        ),
        (
            """
def test_nothing_received(fakesqs):
    fakesqs.create_queue("orders")
    fakesqs.duplicate_next("orders", times=2)
""",
            "duplicate_next('orders'): never fired (no delivery from orders came after it)",
        ),
        (
            """
def test_in_fake_sqs():
    with fake_sqs(duplicate_delivery=0.5, seed=1) as fake:
        fake.create_queue("orders")
""",
            "duplicate_delivery=0.5: no duplicate was injected (no message was received from a "
            "standard queue)",
        ),
    ],
)
def test_every_kind_of_fault_that_never_happened_says_so(
    pytester: pytest.Pytester, test: str, warning: str
) -> None:
    result = run(pytester, test)
    result.assert_outcomes(passed=1, warnings=1)
    assert warnings_of(result) == [f"FakeSQSWarning: {warning}"]


def test_fake_sqs_warns_at_the_with_statement_and_not_over_a_failure(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
def test_warns():
    with fake_sqs(empty_receives=1.0) as fake:
        fake.create_queue("orders")

def test_fails():
    with fake_sqs(empty_receives=1.0) as fake:
        fake.create_queue("orders")
        assert False, "the real failure"
""",
    )
    result.assert_outcomes(passed=1, failed=1, warnings=1)
    result.stdout.fnmatch_lines(
        ["*test_fake_sqs_warns_at_the_with_statement*.py:9: FakeSQSWarning*"]
    )


def test_faults_from_the_ini_file_are_the_suites_and_never_warn(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nfakesqs_duplicate_delivery = 1.0\nfakesqs_empty_receives = 0.5\n")
    result = run(
        pytester,
        """
def test_without_sqs(fakesqs):
    fakesqs.create_queue("orders")

def test_failed_first(fakesqs):
    fakesqs.fail_next("SendMessage")
    assert False
""",
    )
    result.assert_outcomes(passed=1, failed=1)
    assert warnings_of(result) == []


def test_a_schedule_on_the_marker_and_its_report_section(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
from pytest_fakesqs.strategies import Duplicate, FaultSchedule

@pytest.mark.fakesqs(faults=FaultSchedule(Duplicate(delivery=1, delay=30)))
def test_charges_twice(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
    message = client().receive_message(QueueUrl=url)["Messages"][0]
    client().delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    assert False, "the consumer would be asserted on here"
""",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*- fakesqs -*",
            "faults that fired (1):",
            "  duplicate of message 1 (order-1), visible again at +30s",
        ]
    )


def test_faults_and_a_probability_are_one_error_at_setup(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
from pytest_fakesqs.strategies import FaultSchedule

@pytest.mark.fakesqs(faults=FaultSchedule(), duplicate_delivery=0.3)
def test_both(fakesqs):
    pass

@pytest.mark.fakesqs(faults="duplicates please")
def test_not_a_schedule(fakesqs):
    pass
""",
    )
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines_random(
        [
            literal(
                "ValueError: faults= and duplicate_delivery=0.3 are mutually exclusive: a "
                "FaultSchedule decides every fault itself; drop duplicate_delivery (set on the "
                "marker, fake_sqs() or the ini file as fakesqs_<option>) or faults="
            ),
            literal(
                "TypeError: faults must be a FaultSchedule (drawn by pytest_fakesqs.strategies."
                "fault_schedules(), or FaultSchedule(...)); got 'duplicates please'"
            ),
        ]
    )


def test_a_schedule_cannot_come_from_the_ini_file(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_faults = duplicates\n")
    pytester.makepyfile("def test_never_runs(): pass")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            literal(
                "ERROR: ini option fakesqs_faults: faults is a Python value: give faults= to "
                "@pytest.mark.fakesqs, fake_sqs() or fakesqs.use_faults(), not to the ini file"
            )
        ]
    )


def test_the_warning_points_at_the_test_not_the_plugin(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
@pytest.mark.fakesqs(duplicate_delivery=1.0)
def test_polls_once(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="order-1")
""",
    )
    result.assert_outcomes(passed=1, warnings=1)
    [line] = [line for line in result.stdout.lines if "FakeSQSWarning: " in line]
    assert "pytest_fakesqs" not in line  # no module of the plugin (fixtures.py warns)
    result.stdout.fnmatch_lines(["*test_the_warning_points_at_the_test_not_the_plugin.py:*"])
