"""pytest-fakesqs: Amazon SQS and Yandex Message Queue, faked in-process, with a virtual clock.

The public names load on first use: pytest imports this package for every run, SQS tests or not,
and botocore alone costs a quarter of a second to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

if TYPE_CHECKING:
    from .engine.errors import FakeSQSWarning
    from .fake.facade import FakeSQS, fake_sqs
    from .fake.idle import IdleReport
    from .fake.options import Options
    from .fake.records import Call, DeadLetter, HistoryEvent, RefusedDelivery
    from .fake.trigger import InvocationContext, TriggerReport
    from .fake.views import Backlog, MessageView, QueueView
    from .plugin.refusals import RealSQSBlocked
    from .server.server import FakeSQSServer

__all__ = [
    "Backlog",
    "Call",
    "DeadLetter",
    "FakeSQS",
    "FakeSQSServer",
    "FakeSQSWarning",
    "HistoryEvent",
    "IdleReport",
    "InvocationContext",
    "MessageView",
    "Options",
    "QueueView",
    "RealSQSBlocked",
    "RefusedDelivery",
    "TriggerReport",
    "fake_sqs",
]

# Names load on first use (see pytest_fakesqs._lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Backlog": ".fake.views",
        "Call": ".fake.records",
        "DeadLetter": ".fake.records",
        "FakeSQS": ".fake.facade",
        "FakeSQSServer": ".server.server",
        "FakeSQSWarning": ".engine.errors",
        "HistoryEvent": ".fake.records",
        "IdleReport": ".fake.idle",
        "InvocationContext": ".fake.trigger",
        "MessageView": ".fake.views",
        "Options": ".fake.options",
        "QueueView": ".fake.views",
        "RealSQSBlocked": ".plugin.refusals",
        "RefusedDelivery": ".fake.records",
        "TriggerReport": ".fake.trigger",
        "fake_sqs": ".fake.facade",
    },
)
