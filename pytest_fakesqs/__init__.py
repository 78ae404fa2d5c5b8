"""pytest-fakesqs: Amazon SQS and Yandex Message Queue, faked in-process, with a virtual clock."""

from .fake.facade import FakeSQS, fake_sqs
from .fake.options import Options
from .fake.records import Call, DeadLetter, HistoryEvent
from .fake.trigger import InvocationContext, TriggerReport
from .fake.views import Backlog, MessageView, QueueView
from .server.server import FakeSQSServer

__all__ = [
    "Backlog",
    "Call",
    "DeadLetter",
    "FakeSQS",
    "FakeSQSServer",
    "HistoryEvent",
    "InvocationContext",
    "MessageView",
    "Options",
    "QueueView",
    "TriggerReport",
    "fake_sqs",
]
