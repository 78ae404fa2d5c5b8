"""`fakesqs_block_real_sqs`: an SQS request that no fake serves fails the test.

Deny by default and say how to allow, as pytest-django does for the database. The default,
`cloud`, refuses requests to public cloud SQS (AWS in every partition, Yandex Message Queue);
`true` refuses every SQS request no fake serves; `false` lets them all go. The guard is the
transport's gate (transport/serving.py): every in-process transport asks it about a request no
fake served, before the request leaves — for botocore before it even signs, so a machine
without credentials hears `RealSQSBlocked`, not `NoCredentialsError`. Nothing is patched here,
and botocore is patched only once the code under test imports it. The refusal is raised in the
call and also kept on the test item, so the test fails even when the code under test swallows
the exception. Other AWS services, the fake's own HTTP servers, moto's `mock_aws`, contract
mode and tests marked `fakesqs_allow_real_sqs` pass. The innermost pytest run decides (pytester
runs pytest inside pytest): its guard is the transport's last gate until it unconfigures.
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import pytest

from ..fake.ini import parse_bool

INI_NAME = "fakesqs_block_real_sqs"
ALLOW_MARKER = "fakesqs_allow_real_sqs"
PLUGIN_NAME = "fakesqs-guard"
BlockMode = Literal["cloud", "true", "false"]
DEFAULT_MODE: BlockMode = "cloud"
HOW_TO_FIX = (
    "Use the `fakesqs` fixture or the `@pytest.mark.fakesqs` marker so a fake serves SQS, mark "
    f"the test `@pytest.mark.{ALLOW_MARKER}` to let it reach real SQS on purpose, or turn "
    f"blocking off with `{INI_NAME} = false` (ini)."
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


class RealSQSBlocked(RuntimeError):
    """Raised instead of sending an SQS request that no fake serves (blocking is on)."""


@dataclass(frozen=True)
class Attempt:
    action: str
    url: str

    def __str__(self) -> str:
        return f"{self.action} {self.url}"


ATTEMPTS_KEY = pytest.StashKey[list[Attempt]]()


def add_guard_options(parser: pytest.Parser, group: Any) -> None:
    group.addoption(
        "--fakesqs-block-real-sqs",
        dest="fakesqs_block_real_sqs",
        action="store_true",
        default=False,
        help="fail any test whose SQS request no fake serves, whatever its endpoint (ini "
        f"{INI_NAME} = true); @pytest.mark.{ALLOW_MARKER} lets one test through",
    )
    parser.addini(
        INI_NAME,
        "fakesqs: fail a test whose SQS request no fake serves: cloud (default: public cloud "
        "SQS endpoints only) | true (every endpoint) | false",
        type="string",
        default="",
    )


def configure_guard(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{ALLOW_MARKER}: this test may reach real SQS although {INI_NAME} blocks it",
    )
    # Off in contract mode (the run is meant to reach a real endpoint), but still this run's
    # gate: an outer pytest run's guard must not decide for it.
    mode = "false" if _contract_mode(config) else blocking_mode(config)
    guard = Guard(mode)
    config.pluginmanager.register(guard, PLUGIN_NAME)
    guard.install()


def blocking_mode(config: pytest.Config) -> BlockMode:
    """The flag means `true`; else the ini value (`cloud` when unset). UsageError names the key."""
    if config.getoption("fakesqs_block_real_sqs", default=False):
        return "true"
    text = str(config.getini(INI_NAME) or "").strip().lower()
    if text in ("", "cloud"):
        return "cloud"
    try:
        return "true" if parse_bool(text) else "false"
    except ValueError:
        raise pytest.UsageError(
            f"ini option {INI_NAME}: expected cloud, true or false, got {text!r}"
        ) from None


def _contract_mode(config: pytest.Config) -> bool:
    # Read here rather than from contract/ so that loading the guard imports nothing heavy.
    endpoint = config.getoption("fakesqs_endpoint", default=None) or config.getini(
        "fakesqs_endpoint"
    )
    return bool(str(endpoint or "").strip())


def is_cloud_endpoint(url: str) -> bool:
    """Whether `url` is a public cloud SQS endpoint (AWS in any partition, YMQ)."""
    try:
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return False
    return any(host == suffix or host.endswith("." + suffix) for suffix in CLOUD_DNS_SUFFIXES)


class Guard:
    """Refuses unserved SQS requests and fails the test that made them; a pytest plugin, and
    the transport's gate (`transport.serving.Gate`) while installed."""

    def __init__(self, mode: BlockMode = DEFAULT_MODE) -> None:
        self.mode = mode
        self._lock = threading.Lock()
        self._installed = False
        self.item: pytest.Item | None = None  # the test running now

    def install(self) -> None:
        from ..transport import serving

        serving.add_gate(self)
        self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            from ..transport import serving

            serving.remove_gate(self)
            self._installed = False

    # -- refusing ------------------------------------------------------------------------------

    def __call__(self, url: str, action: str, queue_url: str | None) -> None:
        """Raise RealSQSBlocked for an SQS request to `url` about to leave the process unserved."""
        __tracebackhide__ = True
        if self.mode == "false" or (self.mode == "cloud" and not is_cloud_endpoint(url)):
            return
        item = self.item
        if item is not None and item.get_closest_marker(ALLOW_MARKER) is not None:
            return
        attempt = Attempt(action, queue_url or url)
        if item is not None:
            with self._lock:
                item.stash.setdefault(ATTEMPTS_KEY, []).append(attempt)
        raise RealSQSBlocked(refusal_text(attempt, self.mode))

    # -- pytest hooks --------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self.item = item
        try:
            return (yield)
        finally:
            self.item = None

    # A phase that met a refusal and still passed (the code under test swallowed it) fails
    # when it ends; one that failed anyway shows the refusals in a report section.

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        yield
        self._fail_if_refused(item, "setup")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        yield
        self._fail_if_refused(item, "call")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        yield
        self._fail_if_refused(item, "teardown")

    def _take_attempts(self, item: pytest.Item) -> list[Attempt]:
        with self._lock:
            attempts = item.stash.get(ATTEMPTS_KEY, [])
            item.stash[ATTEMPTS_KEY] = []
        return attempts

    def _fail_if_refused(self, item: pytest.Item, when: str) -> None:
        attempts = self._take_attempts(item)
        if attempts:
            raise pytest.fail.Exception(swallowed_text(attempts, when, self.mode), pytrace=False)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        attempts = self._take_attempts(item)  # left only by a phase that failed on its own
        if attempts and report.failed and not _only_the_refusal_itself(call, attempts):
            report.sections.append(
                ("fakesqs: real SQS blocked", swallowed_text(attempts, call.when, self.mode))
            )
        return report

    def pytest_unconfigure(self) -> None:
        self.uninstall()


def _only_the_refusal_itself(call: pytest.CallInfo[None], attempts: list[Attempt]) -> bool:
    """The test failed with the one refusal it met: its traceback already says it all."""
    return (
        len(attempts) == 1
        and call.excinfo is not None
        and isinstance(call.excinfo.value, RealSQSBlocked)
    )


def refusal_text(attempt: Attempt, mode: BlockMode = DEFAULT_MODE) -> str:
    from ..fake.text import see

    return (
        f"Real SQS access not allowed: {attempt.action} to {attempt.url} was not served by a "
        f"fake ({INI_NAME} = {mode}: {WHAT_IS_BLOCKED[mode]}).\n{HOW_TO_FIX}\n{see('fail_safe')}"
    )


def swallowed_text(attempts: list[Attempt], when: str, mode: BlockMode = DEFAULT_MODE) -> str:
    from ..fake.text import plural, see

    during = "" if when == "call" else f" during {when}"
    lines = [
        f"fakesqs: the test tried to reach real SQS{during} "
        f"({plural(len(attempts), 'request')} refused, {INI_NAME} = {mode}):"
    ]
    lines += [f"  - {attempt}" for attempt in attempts]
    lines += [HOW_TO_FIX, see("fail_safe")]
    return "\n".join(lines)
