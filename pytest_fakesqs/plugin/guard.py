"""`fakesqs_block_real_sqs`: an SQS request that no fake serves fails the test.

Deny by default and say how to allow, as pytest-django does for the database. botocore's HTTP
send step is wrapped once botocore is imported (never before: a run without SQS code does not
pay for it), under the in-process transport's own patch, so a request reaches the wrapper only
when no fake answered it. The refusal is raised in the call and also kept on the test item, so
the test fails even when the code under test swallows the exception. Other AWS services, the
fake's own HTTP servers, contract mode and tests marked `fakesqs_allow_real_sqs` pass.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from types import ModuleType
from typing import Any
from urllib.parse import parse_qs

import pytest

from ..transport.kombu_clients import KOMBU_CLIENTS
from ..transport.patching import Patches

INI_NAME = "fakesqs_block_real_sqs"
ALLOW_MARKER = "fakesqs_allow_real_sqs"
PLUGIN_NAME = "fakesqs-guard"
HOW_TO_FIX = (
    "Use the `fakesqs` fixture or the `@pytest.mark.fakesqs` marker so a fake serves SQS, or "
    f"mark the test `@pytest.mark.{ALLOW_MARKER}` to let it reach real SQS on purpose."
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
        help="fail any test whose SQS request no fake serves (ini: fakesqs_block_real_sqs); "
        f"@pytest.mark.{ALLOW_MARKER} lets one test through",
    )
    parser.addini(
        INI_NAME,
        "fakesqs: fail any test whose SQS request no fake serves (true | false)",
        type="bool",
        default=False,
    )


def configure_guard(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{ALLOW_MARKER}: this test may reach real SQS although fakesqs_block_real_sqs is on",
    )
    if blocking_requested(config) and not _contract_mode(config):
        guard = Guard()
        config.pluginmanager.register(guard, PLUGIN_NAME)
        guard.install()


def blocking_requested(config: pytest.Config) -> bool:
    return bool(config.getoption("fakesqs_block_real_sqs", default=False)) or bool(
        config.getini(INI_NAME)
    )


def _contract_mode(config: pytest.Config) -> bool:
    # Read here rather than from contract/ so that loading the guard imports nothing heavy.
    endpoint = config.getoption("fakesqs_endpoint", default=None) or config.getini(
        "fakesqs_endpoint"
    )
    return bool(str(endpoint or "").strip())


class Guard:
    """Refuses unserved SQS requests and fails the test that made them; a pytest plugin."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._patches = Patches()
        self._active = True
        self.item: pytest.Item | None = None  # the test running now

    # -- patching ------------------------------------------------------------------------------

    def install(self) -> None:
        self._patches.when_imported("botocore.endpoint", self._patch_botocore)
        self._patches.when_imported("aiobotocore.endpoint", self._patch_aiobotocore)
        for module in KOMBU_CLIENTS:  # Celery's SQS worker polls through kombu's own client
            self._patches.when_imported(module, self._patch_kombu)

    def uninstall(self) -> None:
        self._active = False  # inert, should another patch sit on top of it
        self._patches.undo()

    def _patch_botocore(self, module: ModuleType) -> None:
        self._patches.wrap(module.Endpoint, "_send", self._guarded)

    def _patch_aiobotocore(self, module: ModuleType) -> None:
        self._patches.wrap(module.AioEndpoint, "_send", self._guarded_async)

    def _patch_kombu(self, module: ModuleType) -> None:
        client = getattr(module, KOMBU_CLIENTS[module.__name__], None)
        if client is not None:
            self._patches.wrap(client, "add_request", self._guarded_kombu)

    def _guarded_kombu(self, original: Callable[..., Any]) -> Callable[..., Any]:
        guard = self

        def add_request(self: Any, request: Any) -> Any:
            __tracebackhide__ = True
            from ..transport.kombu_http import is_sqs_request

            if is_sqs_request(request):
                guard.check_sqs(request)
            return original(self, request)

        return add_request

    def _guarded(self, original: Callable[..., Any]) -> Callable[..., Any]:
        guard = self

        def _send(self: Any, request: Any) -> Any:
            __tracebackhide__ = True
            guard.check(self, request)
            return original(self, request)

        return _send

    def _guarded_async(self, original: Callable[..., Any]) -> Callable[..., Any]:
        guard = self

        async def _send(self: Any, request: Any) -> Any:
            __tracebackhide__ = True
            guard.check(self, request)
            return await original(self, request)

        return _send

    # -- refusing ------------------------------------------------------------------------------

    def check(self, endpoint: Any, request: Any) -> None:
        """Raise RealSQSBlocked for an SQS request about to leave the process unserved."""
        __tracebackhide__ = True
        if getattr(endpoint, "_endpoint_prefix", None) != "sqs":
            return  # other AWS services are not ours to block
        self.check_sqs(request)

    def check_sqs(self, request: Any) -> None:
        """Raise RealSQSBlocked for this SQS request (botocore's, or any transport's with a
        `url`, `headers` and `body`): no fake served it and it is about to leave the process."""
        __tracebackhide__ = True
        if not self._active:
            return
        from ..transport.inprocess import _addressed_to_local_server

        if _addressed_to_local_server(request.url or ""):
            return  # one of this process's fake servers answers it over HTTP
        item = self.item
        if item is not None and item.get_closest_marker(ALLOW_MARKER) is not None:
            return
        attempt = Attempt(*action_and_url(request))
        if item is not None:
            with self._lock:
                item.stash.setdefault(ATTEMPTS_KEY, []).append(attempt)
        raise RealSQSBlocked(refusal_text(attempt))

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
            raise pytest.fail.Exception(swallowed_text(attempts, when), pytrace=False)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        attempts = self._take_attempts(item)  # left only by a phase that failed on its own
        if attempts and report.failed and not _only_the_refusal_itself(call, attempts):
            report.sections.append(
                ("fakesqs: real SQS blocked", swallowed_text(attempts, call.when))
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


def refusal_text(attempt: Attempt) -> str:
    from ..fake.text import see

    return (
        f"Real SQS access not allowed: {attempt.action} to {attempt.url} was not served by a "
        f"fake ({INI_NAME} is on).\n{HOW_TO_FIX}\n{see('fail_safe')}"
    )


def swallowed_text(attempts: list[Attempt], when: str) -> str:
    from ..fake.text import plural, see

    during = "" if when == "call" else f" during {when}"
    lines = [
        f"fakesqs: the test tried to reach real SQS{during} "
        f"({plural(len(attempts), 'request')} refused, {INI_NAME} is on):"
    ]
    lines += [f"  - {attempt}" for attempt in attempts]
    lines += [HOW_TO_FIX, see("fail_safe")]
    return "\n".join(lines)


def action_and_url(request: Any) -> tuple[str, str]:
    """The SQS action of a botocore request and the queue URL it names (else its own URL)."""
    headers = request.headers
    target = headers.get("X-Amz-Target")
    body = request.body
    if isinstance(body, bytes | bytearray):
        body = bytes(body).decode("utf-8", "replace")
    params: dict[str, Any] = {}
    if isinstance(body, str) and body:
        if target:
            try:
                loaded = json.loads(body)
            except ValueError:
                loaded = {}
            params = loaded if isinstance(loaded, dict) else {}
        else:
            params = {key: values[0] for key, values in parse_qs(body).items()}
    if isinstance(target, bytes):
        target = target.decode("utf-8", "replace")
    action = str(target).rsplit(".", 1)[-1] if target else str(params.get("Action", "a request"))
    queue_url = params.get("QueueUrl")
    return action, str(queue_url) if isinstance(queue_url, str) and queue_url else request.url
