"""The fixtures' bodies, loaded when a test first asks for one (hooks.py declares them: pytest
loads that module on every run, SQS tests or not)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from .config import active_fake_key, contract_endpoint, ini_values_key, moto_dropin, reports_key
from .seeding import seed_for_test

if TYPE_CHECKING:
    from ..contract.sqs import ContractSQS
    from ..fake.facade import FakeSQS
    from ..fake.options import Options
    from ..server.server import FakeSQSServer


def fake_for_test(request: pytest.FixtureRequest) -> Iterator[FakeSQS]:
    """`fakesqs`: the test's fake from start to teardown, or contract mode's real endpoint."""
    from .options import options_for

    try:
        options = options_for(request.node, request.config.stash[ini_values_key])
    except (TypeError, ValueError) as error:  # a bad marker option: one line, not a traceback
        raise pytest.fail.Exception(f"{type(error).__name__}: {error}", pytrace=False) from None
    if contract_endpoint(request.config) is not None:
        yield from _contract_for_test(request, options)  # type: ignore[misc]
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


def _contract_for_test(request: pytest.FixtureRequest, options: Options) -> Iterator[ContractSQS]:
    from ..contract.session import skip_if_options_need_the_fake, start_contract

    skip_if_options_need_the_fake(request.node, options)
    contract = start_contract(request.config, options)
    contract.verbose = request.config.getoption("verbose") > 0
    try:
        yield contract
    finally:
        contract.stop()


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


def server_for_test(fake: FakeSQS) -> Iterator[FakeSQSServer]:
    """`fakesqs_server`: the test's fake over HTTP (contract mode: the real endpoint)."""
    from ..contract.sqs import ContractServer, ContractSQS
    from ..server.server import FakeSQSServer

    if isinstance(fake, ContractSQS):  # contract mode: the real endpoint stands in
        yield ContractServer(fake.endpoint_url)
        return
    with FakeSQSServer(fake) as server:
        yield server


def session_server(
    request: pytest.FixtureRequest, session_options: dict[str, object]
) -> Iterator[FakeSQSServer]:
    """`fakesqs_session_server`: one HTTP-only fake for the session, ini options under the
    fixture's."""
    from ..fake.facade import new_fake
    from ..fake.options import make_options
    from ..server.server import FakeSQSServer

    ini_values = request.config.stash[ini_values_key]
    options = make_options(**{**ini_values, **session_options})
    fake = new_fake(options).start(in_process=False)
    try:
        with FakeSQSServer(fake) as server:
            yield server
    finally:
        fake.stop()
