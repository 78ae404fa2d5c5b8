"""pytest glue: the `fakesqs` fixture and marker. Hooks and fixtures only; FakeSQS does the work."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._fake import FakeSQS, new_fake
from ._options import Options, make_options
from ._seeding import configure_seed, seed_for_test, session_seed
from ._server import FakeSQSServer


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


def pytest_report_header(config: pytest.Config) -> list[str]:
    seed = session_seed(config)
    return [f"fakesqs: seed={seed} (reproduce with --fakesqs-seed={seed})"]


def pytest_configure(config: pytest.Config) -> None:
    configure_seed(config)
    config.addinivalue_line(
        "markers",
        "fakesqs(**options): activate the fake SQS for this test with these options "
        f"({', '.join(Options.names())}).",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The marker alone turns the fake on, as time-machine's does.
    for item in items:
        if (
            isinstance(item, pytest.Function)
            and item.get_closest_marker("fakesqs") is not None
            and "fakesqs" not in item.fixturenames
        ):
            item.fixturenames.insert(0, "fakesqs")


def _marker_options(request: pytest.FixtureRequest) -> Options:
    merged: dict[str, object] = {}
    # iter_markers yields the closest first: apply farthest first so the closest wins.
    for marker in reversed(list(request.node.iter_markers("fakesqs"))):
        if marker.args:
            raise TypeError("@pytest.mark.fakesqs takes keyword options only")
        merged.update(marker.kwargs)
    return make_options(**merged)


@pytest.fixture
def fakesqs(request: pytest.FixtureRequest) -> Iterator[FakeSQS]:
    """A fresh fake SQS (engine + virtual clock) serving every SQS call made during the test."""
    options = _marker_options(request)
    if options.seed is None:
        options.seed = seed_for_test(request.config, request.node.nodeid)
    fake = new_fake(options).start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def fakesqs_server(fakesqs: FakeSQS) -> Iterator[FakeSQSServer]:
    """The test's `fakesqs`, also served over HTTP: `.endpoint_url` on a free 127.0.0.1 port."""
    with FakeSQSServer(fakesqs) as server:
        yield server


@pytest.fixture(scope="session")
def fakesqs_session_options() -> dict[str, object]:
    """Options of the session-wide server's fake; override this fixture to change them."""
    return {}


@pytest.fixture(scope="session")
def fakesqs_session_server(
    fakesqs_session_options: dict[str, object],
) -> Iterator[FakeSQSServer]:
    """One HTTP-only fake SQS for the whole session (its own FakeSQS, at `.fake`)."""
    fake = new_fake(make_options(**fakesqs_session_options)).start(in_process=False)
    try:
        with FakeSQSServer(fake) as server:
            yield server
    finally:
        fake.stop()
