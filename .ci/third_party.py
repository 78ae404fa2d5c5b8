"""Third-party projects' own SQS test suites, from their published sdists, unchanged.

Each suite runs twice in this interpreter's venv: under plain moto (the plugin off), then with
the drop-in (`--fakesqs-moto`), and both counts are printed side by side. The step fails when the
fake passes fewer than the documented expected number, when a test fails under the fake that is
not a documented difference (docs/migrating-from-moto.md, "Where moto contradicts AWS"), or
when moto's own count moved (a new version of a dependency changed the suite: look again).

Usage: python .ci/third_party.py   (the Makefile's test-third-party target sets up the venv)
"""

from __future__ import annotations

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

FAILURE_LINE = re.compile(r"^(?:SUB)?(?:FAILED|ERROR)(?:\((?P<params>[^)]*)\))? (?P<node>\S+)")


@dataclass
class Outcome:
    passed: tuple[int, int]
    failures: list[str]
    summary: str


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True)


def fetch(suite: Suite, into: Path) -> Path:
    """The suite's published sdist, unpacked as released."""
    spec = f"{suite.name}=={suite.version}"
    pip("download", "--no-deps", "--no-binary", ":all:", spec, "-d", str(into))
    [archive] = into.glob("*.tar.gz")
    with tarfile.open(archive) as sdist:
        sdist.extractall(into, filter="data")
    pip("install", "--no-deps", str(archive))  # the project under test, from the same sdist
    [root] = (p for p in into.iterdir() if p.is_dir())
    return root


def run(root: Path, suite: Suite, *plugin_args: str) -> Outcome:
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, *plugin_args, suite.tests], cwd=root, capture_output=True, text=True
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
    for failure in fake.failures:
        reason = suite.differences.get(failure)
        if reason is None:
            problems.append(f"{label}: {failure} fails under the fake, not a known difference")
        else:
            print(f"  known difference: {failure}\n    {reason}")
    return problems


def main() -> int:
    problems = [problem for suite in SUITES for problem in check(suite)]
    for problem in problems:
        print(f"FAILED {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
