"""pytest-fakesqs: Amazon SQS and Yandex Message Queue, faked in-process, with a virtual clock."""

from ._fake import FakeSQS, fake_sqs
from ._options import Options
from ._views import Backlog, MessageView, QueueView

__all__ = ["Backlog", "FakeSQS", "MessageView", "Options", "QueueView", "fake_sqs"]
