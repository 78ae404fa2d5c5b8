"""Tier 3: fault-injection options through the marker, and the run seed."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

SEEDED = """
import boto3, pytest

@pytest.mark.fakesqs(standard_order="shuffled", duplicate_delivery=0.3)
def test_order(fakesqs):
    sqs = boto3.client("sqs", region_name="us-east-1",
                       aws_access_key_id="a", aws_secret_access_key="b")
    url = fakesqs.create_queue("q")
    for i in range(20):
        sqs.send_message(QueueUrl=url, MessageBody=str(i))
    seen = []
    while msgs := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
        for m in msgs:
            seen.append(m["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    print("SEEN", fakesqs.seed, ",".join(seen))
"""


def seen_line(result: pytest.RunResult) -> str:
    line = next(line for line in result.stdout.lines if "SEEN" in line)
    return line[line.index("SEEN") :]


def test_the_run_seed_is_in_the_header_and_reproduces_deliveries(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(SEEDED)
    first = pytester.runpytest("-s", "--fakesqs-seed=1234", "-p", "no:randomly")
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines(["fakesqs: seed=1234 (reproduce with --fakesqs-seed=1234)"])
    again = pytester.runpytest("-s", "--fakesqs-seed=1234", "-p", "no:randomly")
    other = pytester.runpytest("-s", "--fakesqs-seed=99", "-p", "no:randomly")
    assert seen_line(first) == seen_line(again)
    assert seen_line(first).split()[2] != seen_line(other).split()[2]


def test_without_a_seed_one_is_chosen_and_shown_when_fault_injection_is_on(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(SEEDED)
    pytester.makeini("[pytest]\nfakesqs_duplicate_delivery = 0.5\n")
    result = pytester.runpytest("-s", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fakesqs: seed=* (reproduce with --fakesqs-seed=*)"])


def test_the_header_leaves_the_seed_out_while_nothing_is_random(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(SEEDED)
    result = pytester.runpytest("-s", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    assert "seed=" not in result.stdout.str()


def test_marker_seed_wins_and_bad_probabilities_are_refused(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(seed=5)
        def test_seed(fakesqs):
            assert fakesqs.seed == 5

        @pytest.mark.fakesqs(duplicate_delivery=2)
        def test_bad(fakesqs):
            pass
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["*ValueError: duplicate_delivery must be a probability between 0 and 1; got 2*"]
    )


def test_the_failure_report_names_the_seed_when_randomness_is_on(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(standard_order="shuffled", seed=77)
        def test_fails(fakesqs):
            fakesqs.create_queue("q")
            assert False

        def test_fails_without_randomness(fakesqs):
            assert False
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["seed 77: @pytest.mark.fakesqs(seed=77) repeats this test's random choices"]
    )
    assert result.stdout.str().count("repeats this test's random choices") == 1
