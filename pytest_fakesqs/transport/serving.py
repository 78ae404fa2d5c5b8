"""Who serves SQS in this process now, and what becomes of a request no fake serves.

Every in-process transport (botocore's send step, aiobotocore's, kombu's HTTP client) asks
here: `handler_for(url)` is the active fake that answers a request to `url`, or None; for a
request none answers, `refuse_unserved(url, action)` raises to refuse it (the real-SQS guard's
`RealSQSBlocked`) or returns to let it leave. Nothing here imports botocore: the guard uses
this module on every pytest run, and botocore's patches (inprocess.py) load once botocore does.

A thread that called a fake and is still running when that fake stops (a consumer a test left
behind) is *stray*: a later fake refuses its calls (`StrayThreadRefused`) with a
`FakeSQSWarning` naming the thread and the test it called from, so it cannot consume that
test's messages. Threads are kept as objects (the OS reuses thread idents), and a thread that
started a fake (the test's own) is never stray.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import warnings
import weakref
from types import ModuleType
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from . import KOMBU_CLIENTS
from .patching import Patches

if TYPE_CHECKING:
    from ..protocol import WireHandler


class Gate(Protocol):
    """Decides on an SQS request no fake serves, before it leaves: raise to refuse it."""

    def __call__(self, url: str, action: str, queue_url: str | None) -> None: ...


class StrayThreadRefused(RuntimeError):
    """A call from a thread an earlier fake left running, refused by the fake active now."""


class _Activation:
    """One active fake (a plain class: this module loads on every pytest run)."""

    __slots__ = ("callers", "handler", "label", "owner", "owner_ident", "warned")

    def __init__(self, handler: WireHandler, owner: threading.Thread, label: str | None) -> None:
        self.handler = handler
        self.owner = owner  # the thread that started it
        # Its ident, compared on every call: threading.get_ident() is a C call, while
        # current_thread() is a Python one. (An ident is reused only after its thread ended,
        # and the owner outlives its fake but for a fake left running by a finished thread.)
        self.owner_ident = owner.ident
        self.label = label  # the test that started it, when pytest runs one
        # Every other thread that called it, with the test running at its first call.
        self.callers: weakref.WeakKeyDictionary[threading.Thread, str | None] = (
            weakref.WeakKeyDictionary()
        )
        self.warned: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


_lock = threading.RLock()
_active: list[_Activation] = []  # innermost last; only it serves
_gates: list[Gate] = []  # the innermost pytest run's last: only it decides
# Ports of this process's fake HTTP servers: requests addressed to one go over real HTTP, so a
# session-wide server is never answered by a test's in-process fake.
_served_ports: set[int] = set()
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_stray: weakref.WeakKeyDictionary[threading.Thread, str | None] = weakref.WeakKeyDictionary()
_owners: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
# botocore's and aiobotocore's send step: while a fake is active or a gate is set.
_sending = Patches()
# Their request building, ahead of signing (a refusal must come before credentials are looked
# for): while a gate is set.
_building = Patches()
_while_active = Patches()  # moto's mock followed, kombu's clients served: while a fake is active


# -- the active fakes ----------------------------------------------------------------------------


def activate(handler: WireHandler) -> None:
    """Serve this process's SQS requests from `handler` (until `deactivate`)."""
    thread = threading.current_thread()
    with _lock:
        _owners.add(thread)
        _stray.pop(thread, None)
        if not _active:
            _while_active.when_imported("moto.core.models", _follow_moto)
            # kombu imports its HTTP client lazily, when a worker first polls (kombu_http.py)
            for kombu_module in ("kombu.transport.SQS", *KOMBU_CLIENTS):
                _while_active.when_imported(kombu_module, _patch_kombu)
        _active.append(_Activation(handler, thread, current_test()))
        _patch_sending()


def deactivate(handler: WireHandler) -> None:
    with _lock:
        for activation in [a for a in _active if a.handler is handler]:
            _active.remove(activation)
            for thread, test in list(activation.callers.items()):
                if thread.is_alive() and thread not in _owners:
                    _stray[thread] = test
        if not _active:
            _while_active.undo()
            _unpatch_sending()


def current_handler() -> WireHandler | None:
    try:
        return _active[-1].handler
    except IndexError:
        return None


def handler_for(url: str) -> WireHandler | None:
    """The fake that answers an SQS request to `url` now, or None (none is active, or `url` is
    one of this process's fake HTTP servers). A stray thread's call raises StrayThreadRefused."""
    try:
        activation = _active[-1]
    except IndexError:
        return None
    if _served_ports and addressed_to_local_server(url):
        return None
    if threading.get_ident() != activation.owner_ident:
        thread = threading.current_thread()
        if _stray and thread in _stray:
            _refuse_stray(thread, activation.label, warn=thread not in activation.warned)
            activation.warned.add(thread)
        if thread not in activation.callers:
            with _lock:
                activation.callers[thread] = current_test()
    return activation.handler


def current_test() -> str | None:
    """The test pytest is running now (its node id), if any."""
    running = os.environ.get("PYTEST_CURRENT_TEST")
    return running.rsplit(" (", 1)[0] if running else None


# -- requests no fake serves ---------------------------------------------------------------------


def add_gate(gate: Gate) -> None:
    """Let `gate` decide on unserved SQS requests (the last one added decides) until removed."""
    with _lock:
        _gates.append(gate)
        _patch_sending()
        _building.when_imported("botocore.endpoint", _patch_building)
        _building.when_imported("aiobotocore.endpoint", _patch_aio_building)
        for kombu_module in KOMBU_CLIENTS:
            _building.when_imported(kombu_module, _patch_kombu_refusing)


def remove_gate(gate: Gate) -> None:
    with _lock:
        if gate in _gates:
            _gates.remove(gate)
        if not _gates:
            _building.undo()
            _unpatch_sending()


def gated() -> bool:
    return bool(_gates)


def refuse_unserved(url: str, action: str, queue_url: str | None = None) -> None:
    """For every in-process transport: an SQS request to `url` (naming `queue_url`, if any)
    that no fake serves is about to leave the process. Raises to refuse it, returns to let it
    go: requests to this process's fake HTTP servers pass; a stray thread's is refused while
    blocking is on; otherwise the guard decides (RealSQSBlocked)."""
    __tracebackhide__ = True
    if not _gates or (_served_ports and addressed_to_local_server(url)):
        return
    thread = threading.current_thread()
    if _stray and thread in _stray:
        _refuse_stray(thread, current_test(), warn=True)
    _gates[-1](url, action, queue_url)


def _refuse_stray(thread: threading.Thread, refused_by: str | None, *, warn: bool) -> None:
    __tracebackhide__ = True
    started = _stray.get(thread)
    by = f"the fake of {refused_by}" if refused_by else "the fake active now"
    text = (
        f"fakesqs: thread {thread.name!r}, which called SQS during "
        f"{started or 'an earlier fake'}, is still calling it after that fake stopped; {by} "
        "refused the call so the thread cannot take this test's messages. Stop the threads a "
        "test starts before it ends (an Event the thread checks, then join())."
    )
    from ..engine.errors import FakeSQSWarning  # the engine's package: only when it is needed

    escalated = None
    if warn:
        filename, line, module = _callers_line()
        try:
            # No registry: each stray thread warns once per fake (activation.warned), whatever
            # an earlier run in this process showed.
            warnings.warn_explicit(text, FakeSQSWarning, filename, line, module, registry=None)
        except FakeSQSWarning as error:  # -W error: still the same refusal, for the same reason
            escalated = error
    raise StrayThreadRefused(text) from escalated


# The libraries between the stray thread's own code and the refusal.
_LIBRARIES = ("pytest_fakesqs", "botocore", "boto3", "aiobotocore", "aioboto3", "kombu", "urllib3")


def _callers_line() -> tuple[str, int, str]:
    """Where the thread's own code called SQS: the line the warning is shown at."""
    frame = sys._getframe(1)
    while frame.f_back is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.split(".")[0] not in _LIBRARIES:
            break
        frame = frame.f_back
    return frame.f_code.co_filename, frame.f_lineno, str(frame.f_globals.get("__name__", ""))


# -- this process's fake HTTP servers ------------------------------------------------------------


def pass_through(port: int) -> None:
    """Let requests to this local port reach the HTTP server listening there."""
    with _lock:
        _served_ports.add(port)


def stop_passing_through(port: int) -> None:
    with _lock:
        _served_ports.discard(port)


def addressed_to_local_server(url: str) -> bool:
    if not _served_ports:
        return False
    try:
        parts = urlsplit(url)
        return parts.port in _served_ports and parts.hostname in _LOOPBACK
    except ValueError:
        return False


# -- the patches, installed as the libraries are imported ---------------------------------------


def _patch_sending() -> None:
    if not _sending:
        _sending.when_imported("botocore.endpoint", _patch_botocore)
        _sending.when_imported("aiobotocore.endpoint", _patch_aiobotocore)


def _unpatch_sending() -> None:
    if not _active and not _gates:
        _sending.undo()


def _transport(name: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.{name}")


def _patch_botocore(endpoint_module: ModuleType) -> None:
    _transport("inprocess").patch_sending(_sending, endpoint_module)


def _patch_building(endpoint_module: ModuleType) -> None:
    _transport("inprocess").patch_building(_building, endpoint_module)


def _patch_aiobotocore(endpoint_module: ModuleType) -> None:
    try:
        aio = _transport("aio")
    except ImportError:  # a broken or incompatible install: serve botocore alone
        return
    aio.patch_sending(_sending, endpoint_module)


def _patch_aio_building(endpoint_module: ModuleType) -> None:
    try:
        aio = _transport("aio")
    except ImportError:
        return
    aio.patch_building(_building, endpoint_module)


def _follow_moto(_models: ModuleType) -> None:
    moto_bridge = _transport("moto_bridge")
    moto_bridge.follow()
    _while_active.when_undone(moto_bridge.unfollow)


def _patch_kombu(module: ModuleType) -> None:
    _transport("kombu_http").patch(_while_active, module)


def _patch_kombu_refusing(module: ModuleType) -> None:
    _transport("kombu_http").patch_refusing(_building, module)


def moto_mock_on() -> bool:
    """Whether moto's mock is on (moto answers SQS itself, before botocore sends)."""
    if "moto.core.models" not in sys.modules:
        return False
    return bool(_transport("moto_lifecycle").moto_is_active())
