"""pytest glue: hooks and fixtures only; FakeSQS and the packages below it do the work.

pytest loads this module on every run, SQS tests or not, so it imports only what its hooks need
to read options: the fake, the api, the engine and botocore load when a test first uses the fake.
It is the plugin through plugin/__init__.py, which names every hook and fixture.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .config import (
    DEFAULT_HEADER,
    active_fake_key,
    add_contract_options,
    add_html_options,
    add_ini_options,
    add_moto_options,
    configure_contract,
    configure_moto,
    contract_endpoint,
    ini_texts,
    ini_values_key,
    marker_line,
    reports_key,
    skip_if_fake_only,
)
from .seeding import configure_seed, give_seed_to_worker, seed_line, show_seed, uses_run_seed

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS
    from ..server.server import FakeSQSServer


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
        from ..contract.session import contract_header
        from ..fake.options import make_options

        region = (
            config.getoption("fakesqs_region", default=None) or make_options(**ini_values).region
        )
        return [contract_header(config, region)]
    if ini_values:
        from .options import header

        lines = [header(ini_values)]
    else:  # the defaults' line: Options need not load
        lines = [DEFAULT_HEADER]
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
    texts = ini_texts(config)
    if texts:  # an option is set in ini: Options load now
        from .options import parse_ini_texts

        config.stash[ini_values_key] = parse_ini_texts(config, texts)
    else:
        config.stash[ini_values_key] = {}
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


# The fixtures' bodies are fixtures.py's, loaded when a test first asks for one.


@pytest.fixture
def fakesqs(request: pytest.FixtureRequest) -> Iterator[FakeSQS]:
    """A fresh fake SQS (engine + virtual clock) serving every SQS call made during the test."""
    from .fixtures import fake_for_test

    yield from fake_for_test(request)


@pytest.fixture
def fakesqs_server(fakesqs: FakeSQS) -> Iterator[FakeSQSServer]:
    """The test's `fakesqs`, also served over HTTP: `.endpoint_url` on a free 127.0.0.1 port."""
    from .fixtures import server_for_test

    yield from server_for_test(fakesqs)


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
    from .fixtures import session_server

    yield from session_server(request, fakesqs_session_options)
