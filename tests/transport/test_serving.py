"""Which fake serves a request, what becomes of one none serves, and threads left running."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest

from pytest_fakesqs import FakeSQSWarning
from pytest_fakesqs.protocol import WireHandler
from pytest_fakesqs.transport import serving
from pytest_fakesqs.transport.serving import StrayThreadRefused

URL = "https://sqs.eu-west-1.amazonaws.com/"


def handler() -> WireHandler:
    return cast(WireHandler, object())  # serving only hands it on


class Recorder:
    def __init__(self, refuse: bool = False) -> None:
        self.asked: list[tuple[str, str, str | None]] = []
        self.refuse = refuse

    def __call__(self, url: str, action: str, queue_url: str | None) -> None:
        self.asked.append((url, action, queue_url))
        if self.refuse:
            raise RuntimeError(f"refused {action}")


@pytest.fixture
def gate() -> Iterator[Recorder]:
    recorder = Recorder()
    serving.add_gate(recorder)
    try:
        yield recorder
    finally:
        serving.remove_gate(recorder)


def in_thread(call: Callable[[], Any], name: str = "worker") -> Any:
    """Run `call` in a thread of its own; its result, or the exception it raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    thread.join()
    return outcome[0]


def test_the_innermost_fake_serves_except_its_own_http_servers() -> None:
    outer, inner = handler(), handler()
    assert serving.handler_for(URL) is None
    serving.activate(outer)
    serving.activate(inner)
    serving.pass_through(4566)
    try:
        assert serving.handler_for(URL) is inner
        assert serving.handler_for("http://127.0.0.1:4566/") is None
        assert serving.handler_for("http://localstack:4566/") is inner
    finally:
        serving.stop_passing_through(4566)
        serving.deactivate(inner)
        assert serving.handler_for(URL) is outer
        serving.deactivate(outer)
    assert serving.handler_for(URL) is None


def test_the_last_gate_decides_on_unserved_requests(gate: Recorder) -> None:
    serving.refuse_unserved(URL, "ListQueues")
    inner = Recorder(refuse=True)
    serving.add_gate(inner)
    try:
        with pytest.raises(RuntimeError, match="refused SendMessage"):
            serving.refuse_unserved(URL, "SendMessage", URL + "1/jobs")
    finally:
        serving.remove_gate(inner)
    assert gate.asked == [(URL, "ListQueues", None)]
    assert inner.asked == [(URL, "SendMessage", URL + "1/jobs")]


def test_without_a_gate_every_unserved_request_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "_gates", [])  # this run's own guard aside
    assert not serving.gated()
    serving.refuse_unserved(URL, "ListQueues")  # nothing to ask: it leaves


def test_a_thread_left_calling_an_earlier_fake_is_refused_by_the_next() -> None:
    first, second = handler(), handler()
    release = threading.Event()
    served: list[WireHandler | None] = []

    def consumer() -> None:
        served.append(serving.handler_for(URL))  # it calls the first fake...
        release.wait(30)  # real-time: ...and is still running when that fake stops
        try:
            served.append(serving.handler_for(URL))
        except StrayThreadRefused as error:
            served.append(None)
            refusals.append(str(error))

    refusals: list[str] = []
    serving.activate(first)
    thread = threading.Thread(target=consumer, name="orders-consumer")
    thread.start()
    while not served:  # real-time: the thread's first call
        thread.join(0.001)
    serving.deactivate(first)
    serving.activate(second)
    try:
        assert serving.handler_for(URL) is second  # the starting thread is never stray
        with pytest.warns(FakeSQSWarning, match="thread 'orders-consumer'"):
            release.set()
            thread.join()
        # A new thread is a new object, whatever ident the OS gives it: it is served.
        assert in_thread(lambda: serving.handler_for(URL), name="fresh") is second
    finally:
        serving.deactivate(second)
    assert served == [first, None]
    assert "still calling it after that fake stopped" in refusals[0]
