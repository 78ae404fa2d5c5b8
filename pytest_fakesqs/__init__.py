"""pytest-fakesqs: Amazon SQS and Yandex Message Queue, faked in-process, with a virtual clock."""

from ._fake import FakeSQS, fake_sqs
from ._options import Options
from ._records import Call, DeadLetter, HistoryEvent
from ._server import FakeSQSServer
from ._trigger import InvocationContext, TriggerReport
from ._views import Backlog, MessageView, QueueView

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
