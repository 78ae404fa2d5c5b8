"""Third-party projects' own SQS test suites, from their published sdists, unchanged.

A moto-based suite runs twice in this interpreter's venv: under plain moto (the plugin off),
then with the drop-in (`--fakesqs-moto`), and both counts are printed side by side. The step
fails when the fake passes fewer than the documented expected number, when a test fails under
the fake that is not a documented difference (docs/migrating-from-moto.md, "Where moto
contradicts AWS"), or when moto's own count moved (a new version of a dependency changed the
suite: look again).

An endpoint suite is written against a real SQS-compatible server (kombu's own SQS transport
tests run against GoAws in kombu's CI): it runs once, with every test served in-process by the
fake (`fakesqs_every_test.py`, beside this file, asks each test for the `fakesqs` fixture), and
fails the same way: fewer passes than documented, or a failure that is not a known difference.

Usage: python .ci/third_party.py   (the Makefile's test-third-party target sets up the venv)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Suite:
    name: str
    version: str  # pinned: the counts below are this release's
    tests: str  # the suite's directory inside the sdist
    moto_passed: tuple[int, int]  # (tests, subtests) passing under plain moto
    fake_passed: tuple[int, int]  # (tests, subtests) expected to pass under the fake
    # Tests failing under the fake because moto contradicts AWS there, and why.
    differences: dict[str, str] = field(default_factory=dict)


EXPIRED_FIFO_HANDLE = (
    "receives with VisibilityTimeout=0 from a FIFO queue, then deletes or changes the message's "
    "visibility: AWS refuses the expired receipt handle (InvalidParameterValue, 'The receipt "
    "handle has expired.'), moto accepts it"
)
SUITES = [
    Suite(
        name="sqs-job-worker",
        version="0.2.0",
        tests="tests",
        moto_passed=(26, 10),
        fake_passed=(25, 8),
        differences={
            "tests/test_integration.py::QueueIntegrationTests::"
            "test_exceptions_are_retried_and_permanent_failures_are_deleted"
            "[error_type='NonRetryableError']": EXPIRED_FIFO_HANDLE,
            "tests/test_integration.py::QueueIntegrationTests::"
            "test_invalid_message_bodies_are_deleted": EXPIRED_FIFO_HANDLE,
            "tests/test_integration.py::QueueIntegrationTests::"
            "test_unknown_jobs_are_deferred_for_at_least_five_minutes"
            "[queue_visibility=0]": EXPIRED_FIFO_HANDLE,
        },
    ),
]


@dataclass
class EndpointSuite:
    name: str
    version: str  # pinned: the count below is this release's
    tests: str  # the suite's file or directory inside the sdist
    options: tuple[str, ...]  # pytest options for the run under the fake
    extras: str  # installed from the same sdist, with the project's own dependencies
    fake_passed: int  # tests expected to pass under the fake, served in-process
    # Tests failing under the fake because they assume something of their own server, and why.
    differences: dict[str, str] = field(default_factory=dict)


KOMBU_SQS = "t/integration/test_sqs.py::"
UNREACHABLE = (
    "connects to sqs://localhost:12345 and expects the connection to fail; served in-process, "
    "every endpoint answers"
)
DELETED_TWICE = (
    "expects GoAws's 404 for deleting a message twice; the fake answers 200, as SQS does for a "
    "standard queue's stale receipt handle"
)
ENDPOINT_SUITES = [
    # kombu's own SQS transport tests: Celery's SQS worker path (its asynchronous HTTP client,
    # hub resets, cancels and closes with a poll in flight), with the real sleeps they make,
    # hence the real clock.
    EndpointSuite(
        name="kombu",
        version="5.7.0",
        tests="t/integration/test_sqs.py",
        extras="sqs",  # boto3, pycurl: the worker's asynchronous client
        options=("-o", "fakesqs_clock=real", "-W", "ignore::pytest.PytestUnknownMarkWarning"),
        fake_passed=35,
        differences={
            f"{KOMBU_SQS}test_SQSBasicFunctionality::test_failed_connect": UNREACHABLE,
            f"{KOMBU_SQS}test_SQSBasicFunctionality::test_failed_connection": UNREACHABLE,
            f"{KOMBU_SQS}test_SQSBasicFunctionality::test_failed_channel": UNREACHABLE,
            f"{KOMBU_SQS}test_SQSBasicFunctionality::test_failed_default_channel": UNREACHABLE,
            f"{KOMBU_SQS}test_SQSBaseExchangeTypes::test_fanout": (
                "fanout publishes through SNS, which the fake does not serve (moto beside it does)"
            ),
            f"{KOMBU_SQS}test_ack_invalid_receipt_with_backoff[InvalidParameterValue]": DELETED_TWICE,
            f"{KOMBU_SQS}test_ack_invalid_receipt_with_backoff[ReceiptHandleIsInvalid]": DELETED_TWICE,
        },
    ),
]

FAILURE_LINE = re.compile(r"^(?:SUB)?(?:FAILED|ERROR)(?:\((?P<params>[^)]*)\))? (?P<node>\S+)")


@dataclass
class Outcome:
    passed: tuple[int, int]
    failures: list[str]
    summary: str


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True)


def fetch(suite: Suite | EndpointSuite, into: Path) -> Path:
    """The suite's published sdist, unpacked as released."""
    spec = f"{suite.name}=={suite.version}"
    pip("download", "--no-deps", "--no-binary", ":all:", spec, "-d", str(into))
    [archive] = into.glob("*.tar.gz")
    with tarfile.open(archive) as sdist:
        sdist.extractall(into, filter="data")
    if isinstance(suite, EndpointSuite):  # the project under test and what it needs to run
        pip("install", f"{archive}[{suite.extras}]")
    else:  # the project under test, from the same sdist
        pip("install", "--no-deps", str(archive))
    [root] = (p for p in into.iterdir() if p.is_dir())
    return root


def run(root: Path, suite: Suite | EndpointSuite, *plugin_args: str) -> Outcome:
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent)}
    done = subprocess.run(
        [*command, *plugin_args, suite.tests], cwd=root, capture_output=True, text=True, env=env
    )
    lines = done.stdout.splitlines()
    failures = []
    for line in lines:
        found = FAILURE_LINE.match(line)
        if found:
            params = found["params"]
            failures.append(found["node"] + (f"[{params}]" if params else ""))
    summary = next((line.strip("= ") for line in reversed(lines) if " in " in line), "")
    passed = re.search(r"(\d+) passed", summary)
    subtests = re.search(r"(\d+) subtests passed", summary)
    counts = (int(passed[1]) if passed else 0, int(subtests[1]) if subtests else 0)
    if done.returncode not in (0, 1):  # 1: tests failed; anything else: the run itself broke
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        raise SystemExit(f"{suite.name}: pytest exited {done.returncode}")
    return Outcome(counts, failures, summary)


def check(suite: Suite) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="fakesqs-third-party-") as tmp:
        root = fetch(suite, Path(tmp))
        moto = run(root, suite, "-p", "no:fakesqs")
        fake = run(root, suite, "--fakesqs-moto")
    label = f"{suite.name} {suite.version}"
    print(f"{label} under moto:     {moto.summary}")
    print(f"{label} under the fake: {fake.summary}")
    problems = []
    if moto.passed != suite.moto_passed or moto.failures:
        problems.append(f"{label}: moto passed {moto.passed}, expected {suite.moto_passed}")
    if fake.passed < suite.fake_passed:
        problems.append(f"{label}: the fake passed {fake.passed}, expected {suite.fake_passed}")
    return problems + unknown_failures(label, fake.failures, suite.differences)


def unknown_failures(label: str, failures: list[str], differences: dict[str, str]) -> list[str]:
    """A problem for each failure under the fake that is not a documented difference; the
    documented ones are printed with their reason."""
    problems = []
    for failure in failures:
        reason = differences.get(failure)
        if reason is None:
            problems.append(f"{label}: {failure} fails under the fake, not a known difference")
        else:
            print(f"  known difference: {failure}\n    {reason}")
    return problems


def check_endpoint_suite(suite: EndpointSuite) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="fakesqs-third-party-") as tmp:
        root = fetch(suite, Path(tmp))
        fake = run(root, suite, "-p", "fakesqs_every_test", "-p", "no:randomly", *suite.options)
    label = f"{suite.name} {suite.version} ({suite.tests})"
    print(f"{label} under the fake, in-process: {fake.summary} (documented: {suite.fake_passed})")
    problems = []
    if fake.passed[0] < suite.fake_passed:
        problems.append(f"{label}: the fake passed {fake.passed[0]}, expected {suite.fake_passed}")
    return problems + unknown_failures(label, fake.failures, suite.differences)


def main() -> int:
    problems = [problem for suite in SUITES for problem in check(suite)]
    problems += [problem for suite in ENDPOINT_SUITES for problem in check_endpoint_suite(suite)]
    for problem in problems:
        print(f"FAILED {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
