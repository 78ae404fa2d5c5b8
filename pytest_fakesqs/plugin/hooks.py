"""pytest glue: hooks and fixtures only; FakeSQS and the packages below it do the work.

pytest loads this module on every run, SQS tests or not, so it imports only what its hooks need
to read options: the fake, the api, the engine and botocore load when a test first uses the fake.
It is the plugin through plugin/__init__.py, which names every hook and fixture.
"""

from __future__ import annotations

import warnings
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from ..contract.setup import (
    add_contract_options,
    configure_contract,
    contract_endpoint,
    contract_header,
    skip_if_fake_only,
    start_contract,
)
from .config import add_html_options, add_ini_options, marker_line, read_ini
from .moto import add_moto_options, configure_moto, moto_dropin
from .seeding import (
    configure_seed,
    give_seed_to_worker,
    seed_for_test,
    seed_line,
    show_seed,
    uses_run_seed,
)

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS
    from ..server.server import FakeSQSServer

ini_values_key = pytest.StashKey[dict[str, Any]]()
active_fake_key = pytest.StashKey["FakeSQS"]()
reports_key = pytest.StashKey[dict[str, pytest.TestReport]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fakesqs", "fake Amazon SQS / Yandex Message Queue")
    group.addoption(
        "--fakesqs-seed",
        dest="fakesqs_seed",
        type=int,
        default=None,
        metavar="SEED",
        help="seed for the fake's random choices (duplicates, shuffled order, empty receives); "
        "printed in the report header so a run can be reproduced",
    )
    add_contract_options(parser, group)
    add_html_options(parser, group)
    add_ini_options(parser)
    from .guard import add_guard_options

    add_guard_options(parser, group)
    add_moto_options(parser, group)


def pytest_report_header(config: pytest.Config) -> list[str]:
    ini_values = config.stash[ini_values_key]
    if contract_endpoint(config) is not None:
        from ..fake.options import make_options

        region = (
            config.getoption("fakesqs_region", default=None) or make_options(**ini_values).region
        )
        return [contract_header(config, region)]
    from .options import header

    lines = [header(ini_values)]
    if show_seed(config, ini_values):
        lines.append(seed_line(config))
    return lines


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """The run's seed, right under the header, once a collected test's marker turns on a
    seeded fault (the header itself is printed before anything is collected)."""
    ini_values = config.stash[ini_values_key]
    if contract_endpoint(config) is not None or show_seed(config, ini_values):
        return []
    return [seed_line(config)] if uses_run_seed(items, ini_values) else []


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: each worker derives its tests' seeds from the controller's run seed."""
    give_seed_to_worker(node)


def pytest_configure(config: pytest.Config) -> None:
    configure_seed(config)
    configure_contract(config)
    config.addinivalue_line("markers", marker_line(config))
    config.stash[ini_values_key] = read_ini(config)
    from .guard import configure_guard

    configure_guard(config)
    configure_moto(config, config.stash[ini_values_key])


def pytest_runtest_setup(item: pytest.Item) -> None:
    skip_if_fake_only(item)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The marker alone turns the fake on, as time-machine's does.
    for item in items:
        if (
            isinstance(item, pytest.Function)
            and item.get_closest_marker("fakesqs") is not None
            and "fakesqs" not in item.fixturenames
        ):
            item.fixturenames.insert(0, "fakesqs")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    # Stored for the fixture's teardown, which skips its checks when the test already failed.
    item.stash.setdefault(reports_key, {})[report.when] = report
    fake = item.stash.get(active_fake_key, None)
    if fake is not None and report.when == "call" and report.failed:
        from .report import report_section

        section = report_section(fake, verbose=fake.verbose)
        from .pages import write_page

        page_line = write_page(item, fake, report)
        report.sections.append(("fakesqs", f"{section}\n{page_line}" if page_line else section))
    return report


@pytest.fixture
def fakesqs(request: pytest.FixtureRequest) -> Iterator[FakeSQS]:
    """A fresh fake SQS (engine + virtual clock) serving every SQS call made during the test."""
    from .options import options_for

    try:
        options = options_for(request.node, request.config.stash[ini_values_key])
    except (TypeError, ValueError) as error:  # a bad marker option: one line, not a traceback
        raise pytest.fail.Exception(f"{type(error).__name__}: {error}", pytrace=False) from None
    if contract_endpoint(request.config) is not None:
        skip_if_fake_only(request.node, options)
        contract = start_contract(request.config, options)
        contract.verbose = request.config.getoption("verbose") > 0
        try:
            yield contract  # type: ignore[misc]
        finally:
            contract.stop()
        return
    from ..fake.facade import new_fake  # the engine, the api and botocore: from here on

    if options.seed is None:
        options.seed = seed_for_test(request.config, request.node.nodeid)
    dropin = moto_dropin(request.config)  # the drop-in's fake: the one moto's mock uses
    fake = new_fake(options) if dropin is None else dropin.hold(request.node)
    fake.verbose = request.config.getoption("verbose") > 0
    request.node.stash[active_fake_key] = fake
    try:
        try:
            fake.start()
        except ValueError as error:  # a declared queue the api refused: say why, briefly
            raise pytest.fail.Exception(f"ValueError: {error}", pytrace=False) from None
        yield fake
        reports = request.node.stash.get(reports_key, {}).values()
        failed = any(report.failed for report in reports)  # that failure is the one to read
        problems = [] if failed else fake.teardown_problems()
        if problems:
            pytest.fail("\n\n".join(problems), pytrace=False)
        if not failed:
            warn_of_faults_never_seen(fake, request.node)
    finally:
        if dropin is None:
            fake.stop()
        else:
            dropin.release()
        del request.node.stash[active_fake_key]


def warn_of_faults_never_seen(fake: FakeSQS, item: pytest.Item) -> None:
    """A fault the test's markers (or its fail_next / duplicate_next) asked for that never
    happened: the test may pass without testing what it claims. The ini file's faults are the
    suite's, for tests that may or may not meet them: those are left out."""
    __tracebackhide__ = True
    from ..engine.errors import FakeSQSWarning
    from .options import marker_values

    # Shown at the test's own line, not this hook's: that is where the fault was asked for.
    path, line, _ = item.reportinfo()
    for text in fake.teardown_warnings(configured=set(marker_values(item))):
        try:
            warnings.warn_explicit(FakeSQSWarning(text), FakeSQSWarning, str(path), (line or 0) + 1)
        except FakeSQSWarning:  # -W error::pytest_fakesqs.FakeSQSWarning
            break
    else:
        return
    pytest.fail(f"FakeSQSWarning: {text}", pytrace=False)  # one line, no traceback


@pytest.fixture
def fakesqs_server(fakesqs: FakeSQS) -> Iterator[FakeSQSServer]:
    """The test's `fakesqs`, also served over HTTP: `.endpoint_url` on a free 127.0.0.1 port."""
    from ..contract.sqs import ContractServer, ContractSQS
    from ..server.server import FakeSQSServer

    if isinstance(fakesqs, ContractSQS):  # contract mode: the real endpoint stands in
        yield ContractServer(fakesqs.endpoint_url)
        return
    with FakeSQSServer(fakesqs) as server:
        yield server


@pytest.fixture(scope="session")
def fakesqs_session_options() -> dict[str, object]:
    """Options of the session-wide server's fake; override this fixture to change them."""
    return {}


@pytest.fixture(scope="session")
def fakesqs_session_server(
    request: pytest.FixtureRequest, fakesqs_session_options: dict[str, object]
) -> Iterator[FakeSQSServer]:
    """One HTTP-only fake SQS for the whole session (its own FakeSQS, at `.fake`); its options
    are the ini ones with `fakesqs_session_options` on top."""
    from ..fake.facade import new_fake
    from ..fake.options import make_options
    from ..server.server import FakeSQSServer

    ini_values = request.config.stash[ini_values_key]
    options = make_options(**{**ini_values, **fakesqs_session_options})
    fake = new_fake(options).start(in_process=False)
    try:
        with FakeSQSServer(fake) as server:
            yield server
    finally:
        fake.stop()
