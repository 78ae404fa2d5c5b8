"""Domain errors of the engine. The api layer maps each one to AWS's error table."""

from __future__ import annotations


class FakeSQSWarning(UserWarning):
    """Something that lets a test pass without testing what it claims: a fault it configured
    that never happened, a call from a thread an earlier test left running. Public as
    `pytest_fakesqs.FakeSQSWarning`; `-W error::pytest_fakesqs.FakeSQSWarning` makes it fail
    the test. Defined at the bottom layer so that every layer can issue it."""


class EngineError(Exception):
    """Base of every error the engine raises."""


class QueueNotFound(EngineError):
    def __init__(self, name: str) -> None:
        super().__init__(f"queue {name!r} does not exist")
        self.name = name


class QueueAlreadyExists(EngineError):
    def __init__(self, name: str) -> None:
        super().__init__(f"queue {name!r} already exists")
        self.name = name


class MalformedReceiptHandle(EngineError):
    """The handle was never issued by any queue: it cannot be decoded."""

    def __init__(self, handle: str) -> None:
        super().__init__(f"receipt handle {handle!r} is not valid")
        self.handle = handle


class StaleReceiptHandle(EngineError):
    """A well-formed handle that no longer names an in-flight message."""

    def __init__(self, handle: str, *, message_exists: bool) -> None:
        super().__init__(f"receipt handle {handle!r} is not in flight")
        self.handle = handle
        self.message_exists = message_exists


class VisibilityLimitExceeded(EngineError):
    """A visibility change that would keep a message in flight past 12 hours since receive."""

    def __init__(self, handle: str, timeout: float) -> None:
        super().__init__("total visibility timeout is beyond the 43200-second limit")
        self.handle = handle
        self.timeout = timeout


class QueueOverLimit(EngineError):
    """Too many messages in flight for a receive to take more."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__(f"queue {name!r} has {limit} messages in flight")
        self.name = name
        self.limit = limit
