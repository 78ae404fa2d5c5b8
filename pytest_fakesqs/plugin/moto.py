"""The moto drop-in: `fakesqs_moto = true` (ini) or `--fakesqs-moto`.

Whenever moto's mock is active, SQS is served by a fake living as long as moto's state would
(`moto_lifetime`), while moto keeps every other service. Registered as a plugin of its own from
`pytest_configure` only when the option is on; until then nothing here imports moto, botocore
or the fake.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

import pytest

from .config import ini_flag, marker_values
from .moto_lifetime import MotoLifetime, moto_defaults
from .seeding import seed_for_test

if TYPE_CHECKING:
    from collections.abc import Generator

    from ..fake.facade import FakeSQS
    from ..fake.options import Options

MOTO_INI = "fakesqs_moto"
MOTO_HELP = (
    "whenever moto's mock_aws is active, serve SQS from a fake living as long as moto's state; "
    "moto keeps every other service"
)


def add_moto_options(parser: pytest.Parser, group: pytest.OptionGroup) -> None:
    group.addoption(
        "--fakesqs-moto", action="store_true", dest="fakesqs_moto", default=False, help=MOTO_HELP
    )
    parser.addini(MOTO_INI, f"fakesqs: {MOTO_HELP} (true | false)", type="string", default="")


def moto_requested(config: pytest.Config) -> bool:
    return bool(config.getoption("fakesqs_moto", default=False)) or ini_flag(config, MOTO_INI)


def configure_moto(config: pytest.Config, ini_values: dict[str, Any]) -> None:
    """Turn the drop-in on when asked: watch moto, register the hooks below."""
    if not moto_requested(config):
        return
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
    config.stash[dropin_key] = dropin
    config.pluginmanager.register(dropin, "fakesqs-moto")
    moto_lifecycle.watch(dropin.lifetime)
    if moto_lifecycle.moto_is_active():  # a conftest started moto before the session did
        dropin.lifetime.moto_started(reset=True)


def moto_dropin(config: pytest.Config) -> MotoDropIn | None:
    return config.stash.get(dropin_key, None)


class MotoDropIn:
    """The drop-in's pytest hooks, registered only while it is on."""

    def __init__(self, config: pytest.Config, ini_values: dict[str, Any]) -> None:
        self.config = config
        self.ini_values = ini_values
        self.item: pytest.Item | None = None  # the test running now, for its marker options
        self.lifetime = MotoLifetime(self.options)
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


dropin_key = pytest.StashKey[MotoDropIn]()
