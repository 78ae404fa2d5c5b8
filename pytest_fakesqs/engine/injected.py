"""What a queue does differently while the fake injects misbehaviour (FaultPlan): shuffled
standard-queue order and at-least-once second deliveries. The caller holds the queue's lock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .message import Event, Message, State
from .results import Delivery

if TYPE_CHECKING:
    from .faults import FaultPlan
    from .order import MessageOrder
    from .settings import QueueKey


class MisbehavingQueue(Protocol):
    """What injected misbehaviour uses of a queue (engine.queue.Queue)."""

    key: QueueKey
    name: str
    faults: FaultPlan | None
    work: int
    duplicates: int
    _ready: MessageOrder

    def enqueue(self, message: Message, delay: float, now: float) -> None: ...


def shuffled_window(queue: MisbehavingQueue, max_messages: int) -> list[Message] | None:
    """With standard_order="shuffled": up to 10x the batch of available entries, shuffled."""
    faults = queue.faults
    if faults is None or faults.standard_order != "shuffled":
        return None
    window: list[Message] = []
    ready = queue._ready
    while ready and len(window) < max_messages * 10:
        message = ready.pop()
        queue.work += 1
        if message.state is State.VISIBLE:
            window.append(message)
    faults.shuffle(window)  # type: ignore[arg-type]
    return window


def enqueue_duplicates(queue: MisbehavingQueue, deliveries: list[Delivery], now: float) -> None:
    """At-least-once delivery: a second copy of each delivered message the plan picks, same
    MessageId and body, delivered later. At most one per message: copies are skipped."""
    faults = queue.faults
    assert faults is not None
    for delivery in deliveries:
        original = delivery.message
        if (
            original.key != original.message_id
            or original.duplicated
            or not faults.duplicate(queue.key)
        ):
            continue
        queue.duplicates += 1
        copy = original.copy()
        copy.key = f"{original.message_id}#duplicate-{queue.duplicates}"
        copy.receive_count = original.receive_count
        copy.first_received_at = original.first_received_at
        copy.enqueued_at = original.enqueued_at
        original.duplicated = True
        copy.duplicated = True
        detail = "injected: SQS will deliver this message once more"
        original.record(now, Event.DUPLICATED, detail)
        copy.record(now, Event.DUPLICATED, detail)
        queue.enqueue(copy, 0.0, now)
        faults.notify("duplicate_delivery", queue.name, original.message_id, detail)
