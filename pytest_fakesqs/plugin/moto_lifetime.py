"""The drop-in's fake: SQS served while moto's mock is on, its state living as long as moto's;
and the drop-in's pytest hooks (`MotoDropIn`), loaded only once the drop-in is on.

One fake at a time, as moto has one state at a time. It starts fresh when moto's outermost mock
starts with a reset (moto resets there) and when moto's state is reset meanwhile; moto's stop
ends the serving, and when moto drops its data there the next start begins fresh. Until then the
fake's queues and calls stay readable (the report section and `fakesqs` helpers after a `with
mock_aws():` block). The `fakesqs` fixture holds the fake for its whole test, so a test asking
for it is served with or without moto's mock.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

import pytest

from ..api.context import DEFAULT_REGION
from .options import marker_values
from .seeding import seed_for_test

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS
    from ..fake.options import Options

MOTO_ACCOUNT_ID = "123456789012"  # moto.core.DEFAULT_ACCOUNT_ID


def turn_on(config: pytest.Config, ini_values: dict[str, Any]) -> MotoDropIn:
    """The drop-in is asked for: check moto, register the drop-in's hooks, watch moto."""
    if importlib.util.find_spec("moto") is None:
        raise pytest.UsageError(
            "fakesqs_moto needs moto installed: pip install 'pytest-fakesqs[moto]'"
        )
    from ..transport import moto_lifecycle

    if not moto_lifecycle.has_mock_aws():
        raise pytest.UsageError(
            f"fakesqs_moto needs moto >= 5 (its mock_aws); moto {moto_lifecycle.moto_version()} "
            "is installed, whose per-service mock_sqs the drop-in does not follow"
        )
    dropin = MotoDropIn(config, ini_values)
    config.pluginmanager.register(dropin, "fakesqs-moto")
    moto_lifecycle.watch(dropin.lifetime)
    if moto_lifecycle.moto_is_active():  # a conftest started moto before the session did
        dropin.lifetime.moto_started(reset=True)
    return dropin


def moto_defaults() -> dict[str, Any]:
    """Options suited to a moto suite, read when a fresh fake is made: below ini and markers.

    `system` clock: the suite's `time.sleep`, freezegun and time-machine move it. moto's account
    (`MOTO_ACCOUNT_ID`, else 123456789012) and the region the suite's clients default to.
    """
    account = os.environ.get("MOTO_ACCOUNT_ID", "")
    region = os.environ.get("AWS_DEFAULT_REGION") or os.environ.get("AWS_REGION")
    return {
        "clock": "system",
        "account_id": account if account.isdigit() and len(account) == 12 else MOTO_ACCOUNT_ID,
        "region": region or DEFAULT_REGION,
    }


class MotoLifetime:
    """Listens to moto (transport.moto_lifecycle) and keeps the one fake in step with it."""

    def __init__(self, options: Callable[[], Options]) -> None:
        self._options = options  # the options of a fresh fake, for the test running now
        self.fake: FakeSQS | None = None
        self.serving = False
        self.moto_active = False
        self.held = False  # by the `fakesqs` fixture, for its whole test
        self.stale = False  # moto dropped its data: the next serve starts fresh
        self.kept_by_moto = False  # moto stopped, keeping its data for its next start
        self.served_since_mark = False  # for the report: was it used during this test?
        self.verbose = False

    # -- moto's events -------------------------------------------------------------------------

    def moto_started(self, reset: bool) -> None:
        self.moto_active = True
        if reset or self.stale or self.fake is None:
            self._fresh()
        self._serve()

    def moto_stopped(self, remove_data: bool) -> None:
        self.moto_active = False
        self.kept_by_moto = not remove_data
        if remove_data:
            self.stale = True
        if not self.held:
            self._unserve()

    def moto_reset(self) -> None:
        if self.fake is None:
            return
        if self.serving:
            self._fresh()
        else:
            self.stale = True

    # -- the fixture ---------------------------------------------------------------------------

    def hold(self) -> FakeSQS:
        """The fake for the `fakesqs` fixture, serving until `release`."""
        if self.fake is None or (self.stale and not self.moto_active):
            self._fresh()
        self.held = True
        self._serve()
        assert self.fake is not None
        return self.fake

    def release(self) -> None:
        self.held = False
        if not self.moto_active:
            self._unserve()
            if not self.kept_by_moto:
                self.stale = True  # a fake only the fixture served ends with its test

    # -- the test ------------------------------------------------------------------------------

    def mark_test_start(self) -> None:
        self.served_since_mark = self.serving

    def used_in_this_test(self) -> FakeSQS | None:
        return self.fake if self.served_since_mark else None

    def close(self) -> None:
        self._unserve()
        self.fake = None

    # -- state ---------------------------------------------------------------------------------

    def _fresh(self) -> None:
        from ..fake.facade import new_fake

        options = self._options()
        if self.fake is None:
            self.fake = new_fake(options)
        else:
            self.fake.renew(options)
        self.fake.verbose = self.verbose
        self.stale = self.kept_by_moto = False

    def _serve(self) -> None:
        if self.fake is not None and not self.serving:
            self.fake.start()
            self.serving = True
        self.served_since_mark = self.served_since_mark or self.serving

    def _unserve(self) -> None:
        if self.fake is not None and self.serving:
            self.fake.stop()
        self.serving = False


class MotoDropIn:
    """The drop-in's pytest hooks, registered only while it is on."""

    def __init__(self, config: pytest.Config, ini_values: dict[str, Any]) -> None:
        self.config = config
        self.ini_values = ini_values
        self.item: pytest.Item | None = None  # the test running now, for its marker options
        self.lifetime: MotoLifetime = MotoLifetime(self.options)
        self.lifetime.verbose = config.getoption("verbose") > 0

    def options(self) -> Options:
        """A fresh fake's options: moto's defaults < ini < the running test's markers."""
        from ..fake.options import make_options

        values = {**moto_defaults(), **self.ini_values}
        if self.item is not None:
            values.update(marker_values(self.item))
        options = make_options(**values)
        if options.seed is None:
            options.seed = seed_for_test(self.config, self.item.nodeid if self.item else "")
        return options

    # -- the `fakesqs` fixture -----------------------------------------------------------------

    def hold(self, item: pytest.Item) -> FakeSQS:
        self.item = item
        return self.lifetime.hold()

    def release(self) -> None:
        self.lifetime.release()

    # -- hooks ---------------------------------------------------------------------------------

    def pytest_report_header(self) -> str:
        from ..transport import moto_lifecycle

        return (
            f"fakesqs: moto drop-in (moto {moto_lifecycle.moto_version()}): SQS from the fake "
            "while moto's mock "
            "is active, every other service from moto"
        )

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.item = item
        self.lifetime.mark_test_start()

    def pytest_runtest_logfinish(self) -> None:
        self.item = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        fake = self.lifetime.used_in_this_test()
        uses_fixture = "fakesqs" in getattr(item, "fixturenames", ())  # that one reports it
        if fake is not None and report.when == "call" and report.failed and not uses_fixture:
            from .report import report_section

            report.sections.append(("fakesqs", report_section(fake, verbose=fake.verbose)))
        return report

    def pytest_unconfigure(self) -> None:
        from ..transport import moto_lifecycle

        moto_lifecycle.unwatch(self.lifetime)
        self.lifetime.close()
