"""Tier 3: fault-injection options through the marker, and the run seed."""

from __future__ import annotations

import zlib

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


def test_a_marker_with_a_seeded_fault_puts_the_run_seed_under_the_header(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(SEEDED)
    result = pytester.runpytest("-s", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["collected 1 item", "fakesqs: seed=* (reproduce with --fakesqs-seed=*)"]
    )
    seed = next(line for line in result.stdout.lines if line.startswith("fakesqs: seed="))
    run_seed = int(seed.split("=")[1].split()[0])
    again = pytester.runpytest("-s", "-p", "no:randomly", f"--fakesqs-seed={run_seed}")
    assert seen_line(again) == seen_line(result)  # the printed seed reproduces the run


def test_the_header_leaves_the_seed_out_while_nothing_is_random(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_plain(fakesqs):
            fakesqs.create_queue("q")

        @pytest.mark.fakesqs(standard_order="shuffled", seed=5)  # its own seed, not the run's
        @pytest.mark.filterwarnings("ignore:standard_order=")  # it never receives: a warning
        def test_pinned(fakesqs):
            assert fakesqs.seed == 5

        @pytest.mark.fakesqs(region="eu-west-1")
        def test_other_options(fakesqs):
            pass
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=3)
    assert "seed=" not in result.stdout.str()


def test_under_xdist_the_header_names_the_seed_the_workers_use(
    pytester: pytest.Pytester,
) -> None:
    written = pytester.path / "seed.txt"
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.fakesqs(duplicate_delivery=0.5)
        def test_seed(fakesqs, request):
            with open({str(written)!r}, "w") as out:
                out.write(f"{{fakesqs.seed}} {{request.node.nodeid}}")
        """
    )
    result = pytester.runpytest("-n", "1", "-p", "no:randomly")  # one worker process
    result.assert_outcomes(passed=1)
    line = next(line for line in result.stdout.lines if line.startswith("fakesqs: seed="))
    run_seed = int(line.split("=")[1].split()[0])
    test_seed, nodeid = written.read_text().split()
    assert int(test_seed) == zlib.crc32(f"{run_seed}:{nodeid}".encode())


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
