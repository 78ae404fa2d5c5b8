"""The indexed queue engine. Knows nothing of HTTP, JSON, XML or botocore."""

from .broker import Broker, Outgoing
from .clock import CLOCK_MODES, Clock, ClockMode
from .errors import (
    EngineError,
    MalformedReceiptHandle,
    QueueAlreadyExists,
    QueueNotFound,
    QueueOverLimit,
    StaleReceiptHandle,
    VisibilityLimitExceeded,
)
from .faults import FaultPlan, StandardOrder
from .message import Event, HistoryEntry, Message, State, Story, story_queue, story_timeline
from .move_tasks import (
    DEFAULT_RATE,
    MoveFailure,
    MoveStatus,
    MoveTask,
    MoveTaskRunner,
    TaskAlreadyRunning,
    TaskNotRunning,
)
from .queue import Queue
from .results import Delivery, SendResult
from .settings import DEDUP_WINDOW, MAX_VISIBILITY, QueueKey, QueueSettings, RedriveTarget

__all__ = [
    "CLOCK_MODES",
    "DEDUP_WINDOW",
    "DEFAULT_RATE",
    "MAX_VISIBILITY",
    "Broker",
    "Clock",
    "ClockMode",
    "Delivery",
    "EngineError",
    "Event",
    "FaultPlan",
    "HistoryEntry",
    "MalformedReceiptHandle",
    "Message",
    "MoveFailure",
    "MoveStatus",
    "MoveTask",
    "MoveTaskRunner",
    "Outgoing",
    "Queue",
    "QueueAlreadyExists",
    "QueueKey",
    "QueueNotFound",
    "QueueOverLimit",
    "QueueSettings",
    "RedriveTarget",
    "SendResult",
    "StaleReceiptHandle",
    "StandardOrder",
    "State",
    "Story",
    "TaskAlreadyRunning",
    "TaskNotRunning",
    "VisibilityLimitExceeded",
    "story_queue",
    "story_timeline",
]
