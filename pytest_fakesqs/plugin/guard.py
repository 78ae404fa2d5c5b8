"""`fakesqs_block_real_sqs`: an SQS request that no fake serves fails the test.

Deny by default and say how to allow, as pytest-django does for the database. The default,
`cloud`, refuses requests to public cloud SQS (AWS in every partition, Yandex Message Queue);
`true` refuses every SQS request no fake serves; `false` lets them all go. The guard is the
transport's gate (transport/serving.py): every in-process transport asks it about a request no
fake served, before the request leaves — for botocore before it even signs, so a machine
without credentials hears `RealSQSBlocked`, not `NoCredentialsError`. Nothing is patched here,
and botocore is patched only once the code under test imports it. The refusal is raised in the
call and also kept for the running test, so the test fails even when the code under test swallows
the exception. Other AWS services, the fake's own HTTP servers, moto's `mock_aws`, contract
mode and tests marked `fakesqs_allow_real_sqs` pass. The innermost pytest run decides (pytester
runs pytest inside pytest): its guard is the transport's last gate until it unconfigures. What
the guard says, and which endpoints are public cloud SQS, is refusals.py (loaded at the first
refusal: this module loads on every pytest run).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Generator
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from ..fake.option_catalogue import parse_bool
from ..transport import KOMBU_CLIENTS
from .config import ALLOW_MARKER, BLOCK_INI, DEFAULT_BLOCK_MODE, BlockMode, contract_endpoint

if TYPE_CHECKING:
    from .refusals import Attempt

PLUGIN_NAME = "fakesqs-guard"
# The modules whose import means SQS requests may follow: the gate is set up then (kombu's
# client modules are named in a module of their own, which imports nothing).
_SQS_CLIENTS = ("botocore.endpoint", "aiobotocore.endpoint", *KOMBU_CLIENTS)


def add_guard_options(parser: pytest.Parser, group: Any) -> None:
    group.addoption(
        "--fakesqs-block-real-sqs",
        dest="fakesqs_block_real_sqs",
        action="store_true",
        default=False,
        help="fail any test whose SQS request no fake serves, whatever its endpoint (ini "
        f"{BLOCK_INI} = true); @pytest.mark.{ALLOW_MARKER} lets one test through",
    )
    parser.addini(
        BLOCK_INI,
        "fakesqs: fail a test whose SQS request no fake serves: cloud (default: public cloud "
        "SQS endpoints only) | true (every endpoint) | false",
        type="string",
        default="",
    )


def configure_guard(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{ALLOW_MARKER}: this test may reach real SQS although {BLOCK_INI} blocks it",
    )
    # Off in contract mode (the run is meant to reach a real endpoint), but still this run's
    # gate: an outer pytest run's guard must not decide for it.
    mode = "false" if contract_endpoint(config) is not None else blocking_mode(config)
    guard = Guard(mode)
    config.pluginmanager.register(guard, PLUGIN_NAME)
    guard.install()


def blocking_mode(config: pytest.Config) -> BlockMode:
    """The flag means `true`; else the ini value (`cloud` when unset). UsageError names the key."""
    if config.getoption("fakesqs_block_real_sqs", default=False):
        return "true"
    text = str(config.getini(BLOCK_INI) or "").strip().lower()
    if text in ("", "cloud"):
        return "cloud"
    try:
        return "true" if parse_bool(text) else "false"
    except ValueError:
        raise pytest.UsageError(
            f"ini option {BLOCK_INI}: expected cloud, true or false, got {text!r}"
        ) from None


class Guard:
    """Refuses unserved SQS requests and fails the test that made them; a pytest plugin, and
    the transport's gate (`transport.serving.Gate`) while installed."""

    def __init__(self, mode: BlockMode = DEFAULT_BLOCK_MODE) -> None:
        self.mode = mode
        self.lock = threading.Lock()  # the attempts kept on the running test
        self._installed = False
        self.item: pytest.Item | None = None  # the test running now
        self.attempts: list[Attempt] = []  # its requests refused in the phase running now

    def install(self) -> None:
        """Become the transport's gate once botocore or aiobotocore is imported (now, if it
        is): until then the transport is not even loaded."""
        from ..transport import import_watch

        for module in _SQS_CLIENTS:
            import_watch.follow(module, self._gate_on)
            if module in sys.modules:
                self._gate_on(sys.modules[module])

    def uninstall(self) -> None:
        from ..transport import import_watch

        for module in _SQS_CLIENTS:
            import_watch.unfollow(module, self._gate_on)
        if self._installed:
            from ..transport import serving

            serving.remove_gate(self)
            self._installed = False

    def _gate_on(self, _module: ModuleType) -> None:
        if not self._installed:
            from ..transport import serving

            serving.add_gate(self)
            self._installed = True

    # -- refusing ------------------------------------------------------------------------------

    def __call__(self, url: str, action: str, queue_url: str | None) -> None:
        """Raise RealSQSBlocked for an SQS request to `url` about to leave the process unserved;
        the refusal is kept for the running test, which fails even if the code swallows it."""
        __tracebackhide__ = True
        if self.mode == "false":
            return
        from .refusals import refusal

        item = self.item
        blocked = refusal(self.mode, item, url, action, queue_url)
        if blocked is None:
            return
        if item is not None:
            with self.lock:
                self.attempts.append(blocked.attempt)
        raise blocked

    # -- pytest hooks --------------------------------------------------------------------------

    # One hook wrapper per phase report, not per phase (this runs for every test of the run): a
    # phase that met a refusal and still passed (the code under test swallowed it) is turned
    # into a failure of that phase; one that failed anyway shows the refusals in a section.

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.item = item  # before any fixture of the test runs

    def pytest_runtest_logfinish(self) -> None:
        self.item = None

    def _take_attempts(self) -> list[Attempt]:
        with self.lock:
            attempts, self.attempts = self.attempts, []
        return attempts

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        attempts = self._take_attempts()
        if not attempts:
            return report
        from .refusals import report_with_refusals

        return report_with_refusals(item, call, report, attempts, self.mode)

    def pytest_unconfigure(self) -> None:
        self.uninstall()
