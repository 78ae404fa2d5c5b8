"""pytest-fakesqs: Amazon SQS and Yandex Message Queue, faked in-process, with a virtual clock."""

from ._fake import FakeSQS, fake_sqs
from ._options import Options
from ._server import FakeSQSServer
from ._views import Backlog, MessageView, QueueView

__all__ = ["Backlog", "FakeSQS", "FakeSQSServer", "MessageView", "Options", "QueueView", "fake_sqs"]
