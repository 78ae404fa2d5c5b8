"""Record types the fake hands to tests. Exported for type hints; only the fake constructs them."""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from datetime import UTC, datetime
from typing import Any

PRIVATE = object()


def refuse_outside(token: object, name: str) -> None:
    if token is not PRIVATE:
        raise TypeError(f"{name} objects are made by the fake; get them from `fakesqs`")


def moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


@dataclass(frozen=True, kw_only=True)
class HistoryEvent:
    """One thing that happened to a message, on the fake's clock."""

    at: datetime
    event: str  # "sent", "received", "visible again", "moved to dead-letter queue", ...
    detail: str  # e.g. "#2 handle …3f9a1c2e" for a receive, the target queue for a move
    queue: str
    message_id: str
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "HistoryEvent")

    def __str__(self) -> str:
        detail = f" {self.detail}" if self.detail else ""
        return f"{self.at.isoformat()} {self.queue}: {self.event}{detail}"


@dataclass(frozen=True, kw_only=True)
class DeadLetter:
    """A message that reached a dead-letter queue (`fakesqs.dead_letters()`)."""

    body: str
    message_id: str
    message_attributes: dict[str, Any]  # name -> value, as `MessageView` has them
    attributes: dict[str, str]  # system attributes, as ReceiveMessage names them
    source_queue: str
    queue: str  # the dead-letter queue
    receive_count: int
    moved_at: datetime
    history: tuple[HistoryEvent, ...]
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "DeadLetter")


@dataclass(frozen=True, kw_only=True)
class Call:
    """One SQS call the code under test made (`fakesqs.calls()`)."""

    action: str
    params: dict[str, Any]
    queue: str | None  # the queue it named, if any
    at: datetime
    result: dict[str, Any] | None
    error_code: str | None  # as botocore's ClientError has it, e.g. "QueueAlreadyExists"
    error_message: str | None
    injected: bool  # the error was asked for by the test (fault injection)
    # Why the error happened, when the fake can tell (a queue of that name in another region).
    hint: str | None = None
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "Call")

    @property
    def ok(self) -> bool:
        return self.error_code is None

    @property
    def outcome(self) -> str:
        return "ok" if self.error_code is None else self.error_code


@dataclass(frozen=True, kw_only=True)
class RefusedDelivery:
    """A service's delivery (SNS, S3, EventBridge through moto) the queue's Policy refused: the
    message was dropped, as on AWS (`fakesqs.refused_deliveries()`, enforce_policies=True)."""

    at: datetime
    service: str  # "sns.amazonaws.com"
    source_arn: str | None  # the topic, bucket or rule
    queue: str
    reason: str  # "no statement allows sns.amazonaws.com from arn:aws:sns:...:orders"
    body: str
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "RefusedDelivery")

    def __str__(self) -> str:
        return f"{self.service} into {self.queue}: refused, {self.reason}"
