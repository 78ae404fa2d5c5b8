"""What the real-SQS guard does once a request no fake served comes by: which endpoints are
public cloud SQS, the refusal raised in the call, and the failure of a test that swallowed one.
Loaded at the first such request (guard.py loads on every run)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from .config import ALLOW_MARKER, BLOCK_INI, DEFAULT_BLOCK_MODE, BlockMode

HOW_TO_FIX = (
    "Use the `fakesqs` fixture or the `@pytest.mark.fakesqs` marker so a fake serves SQS, mark "
    f"the test `@pytest.mark.{ALLOW_MARKER}` to let it reach real SQS on purpose, or turn "
    f"blocking off with `{BLOCK_INI} = false` (ini)."
)
WHAT_IS_BLOCKED: dict[BlockMode, str] = {
    "cloud": "public cloud SQS endpoints are blocked",
    "true": "every SQS endpoint no fake serves is blocked",
    "false": "nothing is blocked",
}
# Public cloud SQS: AWS's DNS suffixes in every partition (botocore's partitions.json, its
# dnsSuffix and dualStackDnsSuffix; VPC endpoint names end with them too), and YMQ's host.
CLOUD_DNS_SUFFIXES = (
    "amazonaws.com",
    "amazonaws.com.cn",
    "api.aws",
    "api.amazonwebservices.com.cn",
    "amazonaws.eu",
    "api.amazonwebservices.eu",
    "c2s.ic.gov",
    "api.aws.ic.gov",
    "sc2s.sgov.gov",
    "api.aws.scloud",
    "cloud.adc-e.uk",
    "api.cloud-aws.adc-e.uk",
    "csp.hci.ic.gov",
    "api.aws.hci.ic.gov",
    "message-queue.api.cloud.yandex.net",
)


@dataclass(frozen=True)
class Attempt:
    action: str
    url: str

    def __str__(self) -> str:
        return f"{self.action} {self.url}"


class RealSQSBlocked(RuntimeError):
    """Raised instead of sending an SQS request that no fake serves (blocking is on)."""

    def __init__(self, text: str, attempt: Attempt) -> None:
        super().__init__(text)
        self.attempt = attempt  # the request refused


def is_cloud_endpoint(url: str) -> bool:
    """Whether `url` is a public cloud SQS endpoint (AWS in any partition, YMQ)."""
    try:
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return False
    return any(host == suffix or host.endswith("." + suffix) for suffix in CLOUD_DNS_SUFFIXES)


def refusal_text(attempt: Attempt, mode: BlockMode = DEFAULT_BLOCK_MODE) -> str:
    from ..fake.text import see

    return (
        f"Real SQS access not allowed: {attempt.action} to {attempt.url} was not served by a "
        f"fake ({BLOCK_INI} = {mode}: {WHAT_IS_BLOCKED[mode]}).\n{HOW_TO_FIX}\n{see('fail_safe')}"
    )


def swallowed_text(attempts: list[Attempt], when: str, mode: BlockMode = DEFAULT_BLOCK_MODE) -> str:
    from ..fake.text import plural, see

    during = "" if when == "call" else f" during {when}"
    lines = [
        f"fakesqs: the test tried to reach real SQS{during} "
        f"({plural(len(attempts), 'request')} refused, {BLOCK_INI} = {mode}):"
    ]
    lines += [f"  - {attempt}" for attempt in attempts]
    lines += [HOW_TO_FIX, see("fail_safe")]
    return "\n".join(lines)


def swallowed_report(
    item: pytest.Item, call: pytest.CallInfo[None], text: str
) -> pytest.TestReport:
    """The report of a phase that passed although it met a refusal: that phase failed, as if
    it had ended with `pytest.fail(text)` (its timing kept)."""

    def fail() -> None:
        raise pytest.fail.Exception(text, pytrace=False)

    failing = pytest.CallInfo.from_call(fail, when=call.when)
    failing.start, failing.stop, failing.duration = call.start, call.stop, call.duration
    return pytest.TestReport.from_item_and_call(item, failing)


def refusal(
    mode: BlockMode, item: pytest.Item | None, url: str, action: str, queue_url: str | None
) -> RealSQSBlocked | None:
    """The error to raise for an unserved request to `url`, or None when `mode` lets it through
    or the running test is marked to reach real SQS."""
    if mode == "false" or (mode == "cloud" and not is_cloud_endpoint(url)):
        return None
    if item is not None and item.get_closest_marker(ALLOW_MARKER) is not None:
        return None
    attempt = Attempt(action, queue_url or url)
    return RealSQSBlocked(refusal_text(attempt, mode), attempt)


def report_with_refusals(
    item: pytest.Item,
    call: pytest.CallInfo[None],
    report: pytest.TestReport,
    attempts: list[Attempt],
    mode: BlockMode,
) -> pytest.TestReport:
    """A phase that met refusals: failed if it passed anyway, else a section listing them
    (unless its failure is the one refusal itself, whose traceback says it all)."""
    if report.passed:
        return swallowed_report(item, call, swallowed_text(attempts, call.when, mode))
    if report.failed and not _only_the_refusal_itself(call, attempts):
        report.sections.append(
            ("fakesqs: real SQS blocked", swallowed_text(attempts, call.when, mode))
        )
    return report


def _only_the_refusal_itself(call: pytest.CallInfo[None], attempts: list[Attempt]) -> bool:
    return (
        len(attempts) == 1
        and call.excinfo is not None
        and isinstance(call.excinfo.value, RealSQSBlocked)
    )
