"""The indexed queue engine. Knows nothing of HTTP, JSON, XML or botocore."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
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
    from .fault_options import StandardOrder
    from .faults import FaultPlan
    from .message import (
        Event,
        HistoryEntry,
        Message,
        State,
        Story,
        finished_stories,
        story_queue,
        story_timeline,
    )
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
    "finished_stories",
    "story_queue",
    "story_timeline",
]

# Names load on first use (see pytest_fakesqs._lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Broker": ".broker",
        "CLOCK_MODES": ".clock",
        "Clock": ".clock",
        "ClockMode": ".clock",
        "DEDUP_WINDOW": ".settings",
        "DEFAULT_RATE": ".move_tasks",
        "Delivery": ".results",
        "EngineError": ".errors",
        "Event": ".message",
        "FaultPlan": ".faults",
        "HistoryEntry": ".message",
        "MAX_VISIBILITY": ".settings",
        "MalformedReceiptHandle": ".errors",
        "Message": ".message",
        "MoveFailure": ".move_tasks",
        "MoveStatus": ".move_tasks",
        "MoveTask": ".move_tasks",
        "MoveTaskRunner": ".move_tasks",
        "Outgoing": ".broker",
        "Queue": ".queue",
        "QueueAlreadyExists": ".errors",
        "QueueKey": ".settings",
        "QueueNotFound": ".errors",
        "QueueOverLimit": ".errors",
        "QueueSettings": ".settings",
        "RedriveTarget": ".settings",
        "SendResult": ".results",
        "StaleReceiptHandle": ".errors",
        "StandardOrder": ".fault_options",
        "State": ".message",
        "Story": ".message",
        "TaskAlreadyRunning": ".move_tasks",
        "TaskNotRunning": ".move_tasks",
        "VisibilityLimitExceeded": ".errors",
        "finished_stories": ".message",
        "story_queue": ".message",
        "story_timeline": ".message",
    },
)
