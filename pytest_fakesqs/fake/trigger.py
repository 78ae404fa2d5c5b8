"""Trigger drivers: feed a queue to a handler as AWS Lambda's SQS event source mapping or
Yandex Cloud Functions' YMQ trigger does, on the fake's clock.

Semantics shared by both services: receive a batch, invoke the handler with the event, delete
the batch on success; on an exception leave it alone, so it returns after its visibility
timeout (and reaches the dead-letter queue through the redrive policy). Lambda's partial batch
response (`batchItemFailures`) is honoured when `report_batch_item_failures=True`.
"""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from ..api import receiving
from ..engine import Delivery, Message, Queue
from ..engine.errors import MalformedReceiptHandle, StaleReceiptHandle

if TYPE_CHECKING:
    from .directory import QueueDirectory

Shape = Literal["lambda", "ymq"]
# `handler(event, context)` as on Lambda and Cloud Functions; `handler(event)` is accepted too.
TriggerHandler = Callable[..., Any]  # the function a trigger invokes with each batch
Handler = TriggerHandler  # the earlier name, kept importable
# (shape, fifo) -> largest batch the service allows; Lambda FIFO mappings take at most 10.
MAX_BATCH: dict[tuple[str, bool], int] = {
    ("lambda", False): 10_000,
    ("lambda", True): 10,
    ("ymq", False): 1000,
    ("ymq", True): 1000,
}
MAX_WINDOW = {"lambda": 300.0, "ymq": 60.0}  # MaximumBatchingWindowInSeconds / batch_cutoff
RECEIVE_LIMIT = 10  # one ReceiveMessage call returns at most 10 messages
EMPTY_POLLS_LIMIT = 100  # consecutive empty short polls (injected faults) before giving up


@dataclass(frozen=True)
class InvocationContext:
    """The second argument of the handler, like Lambda's and Cloud Functions' context."""

    request_id: str
    function_name: str
    invocation: int  # 1-based

    @property
    def aws_request_id(self) -> str:
        return self.request_id


@dataclass
class TriggerReport:
    """What a `fakesqs.trigger(...)` run did."""

    invocations: int = 0
    messages_processed: int = 0  # deleted after the handler succeeded with them
    retries: int = 0  # deliveries of a message that had been delivered before
    dead_lettered: int = 0  # moved to the dead-letter queue while the trigger ran
    failed_invocations: int = 0  # the handler raised (or reported the whole batch failed)
    errors: list[str] = field(default_factory=list)  # one line per raised exception
    # "drained": nothing left; "idle": what is left is in flight or delayed past idle_limit;
    # "max_invocations": the cap was reached.
    stopped: str = ""

    def __str__(self) -> str:
        return (
            f"{self.invocations} invocations ({self.failed_invocations} failed), "
            f"{self.messages_processed} messages processed, {self.retries} retries, "
            f"{self.dead_lettered} dead-lettered; stopped: {self.stopped}"
        )


class TriggerDriver:
    """One run of a trigger over one queue. Use `FakeSQS.trigger`, which builds and runs it."""

    def __init__(
        self,
        directory: QueueDirectory,
        queue: Queue,
        handler: TriggerHandler,
        *,
        shape: Shape,
        batch_size: int,
        batch_window: float,
        report_batch_item_failures: bool,
        max_invocations: int | None,
        idle_limit: float,
    ) -> None:
        _validate(shape, queue.settings.fifo, batch_size, batch_window, report_batch_item_failures)
        if max_invocations is not None and max_invocations < 1:
            raise ValueError(f"max_invocations must be at least 1; got {max_invocations}")
        self.directory = directory
        self.queue = queue
        self.handler = handler
        self.shape = shape
        self.batch_size = batch_size
        self.batch_window = float(batch_window)
        self.report_batch_item_failures = report_batch_item_failures
        self.max_invocations = max_invocations
        self.idle_limit = idle_limit
        self.report = TriggerReport()
        self._seen: set[str] = set()
        self._takes_context = _takes_context(handler)

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> TriggerReport:
        listener = self._count_dead_letter
        self.directory.broker.dead_letter_listeners.append(listener)
        try:
            while True:
                if (
                    self.max_invocations is not None
                    and self.report.invocations >= self.max_invocations
                ):
                    self.report.stopped = "max_invocations"
                    break
                batch = self._collect()
                if batch:
                    self._invoke(batch)
                    continue
                stop = self._wait_for_work()
                if stop:
                    self.report.stopped = stop
                    break
        finally:
            self.directory.broker.dead_letter_listeners.remove(listener)
        return self.report

    def _count_dead_letter(self, source: Queue, _target: Queue, _message: Message) -> None:
        if source is self.queue:
            self.report.dead_lettered += 1

    def _receive(self, count: int) -> list[Delivery]:
        empty_polls = 0
        while True:
            deliveries = self.directory.broker.receive(self.queue, count)
            if deliveries or self.directory.broker.refresh(self.queue).visible == 0:
                break
            empty_polls += 1  # an injected empty short poll: poll again, as the poller does
            if empty_polls >= EMPTY_POLLS_LIMIT:
                break
        for delivery in deliveries:
            if delivery.message.message_id in self._seen or delivery.receive_count > 1:
                self.report.retries += 1
            self._seen.add(delivery.message.message_id)
        return deliveries

    def _collect(self) -> list[Delivery]:
        """Gather up to batch_size messages, waiting at most batch_window on the clock."""
        clock = self.directory.clock
        deadline = clock.now() + self.batch_window
        batch: list[Delivery] = []
        while len(batch) < self.batch_size:
            received = self._receive(min(RECEIVE_LIMIT, self.batch_size - len(batch)))
            batch.extend(received)
            if received:
                continue
            if not batch or self.batch_window <= 0 or clock.now() >= deadline:
                break
            next_at = self._next_event_at()
            if next_at is None or next_at > deadline:
                clock.advance_to(deadline)  # the window closes with what it has
                break
            clock.advance_to(max(next_at, clock.now()))
        return batch

    def _next_event_at(self) -> float | None:
        return self.directory.broker.next_visible_at(self.queue)

    def _wait_for_work(self) -> str | None:
        """Nothing to receive now: move the clock to the next message, or say why we stop."""
        broker = self.directory.broker
        queue = broker.refresh(self.queue)
        feeding = broker.move_tasks.next_move_at(into=queue.key) is not None  # a redrive task
        if queue.visible + queue.in_flight + queue.delayed == 0 and not feeding:
            return "drained"
        next_at = self._next_event_at()
        now = self.directory.clock.now()
        if next_at is None or next_at - now > self.idle_limit:
            return "idle"
        self.directory.clock.advance_to(max(next_at, now))
        return None

    # -- one invocation --------------------------------------------------------------------------

    def _invoke(self, batch: list[Delivery]) -> None:
        self.report.invocations += 1
        context = InvocationContext(
            request_id=str(uuid.uuid4()),
            function_name=f"fakesqs-{self.shape}-trigger",
            invocation=self.report.invocations,
        )
        event = self._event(batch)
        try:
            result = self._call(event, context)
        except Exception as error:  # the batch returns after its visibility timeout
            self.report.failed_invocations += 1
            self.report.errors.append(f"invocation {context.invocation}: {error!r}")
            return
        failed = self._failed_ids(result, batch)
        if failed is None:  # Lambda reads a malformed partial response as a failed batch
            self.report.failed_invocations += 1
            self.report.errors.append(
                f"invocation {context.invocation}: invalid batchItemFailures {result!r}"
            )
            return
        for delivery in batch:
            if delivery.message.message_id in failed:
                continue
            try:
                self.directory.broker.delete(
                    self.queue, delivery.receipt_handle, in_flight_only=True
                )
            except (MalformedReceiptHandle, StaleReceiptHandle):
                continue  # the visibility timeout ran out during the job: it comes back
            self.report.messages_processed += 1

    def _call(self, event: dict[str, Any], context: InvocationContext) -> Any:
        if self._takes_context:
            return self.handler(event, context)
        return self.handler(event)

    def _failed_ids(self, result: Any, batch: list[Delivery]) -> set[str] | None:
        """The message ids the handler reported as failed; None means "the whole batch"."""
        if not self.report_batch_item_failures or result is None or result == {}:
            return set()
        if not isinstance(result, dict):
            return None
        failures = result.get("batchItemFailures")
        if failures is None:
            return set()
        if not isinstance(failures, list):
            return None
        in_batch = {d.message.message_id for d in batch}
        failed: set[str] = set()
        for item in failures:
            identifier = item.get("itemIdentifier") if isinstance(item, dict) else None
            if not isinstance(identifier, str) or identifier not in in_batch:
                return None
            failed.add(identifier)
        return failed

    # -- event shapes --------------------------------------------------------------------------

    def _event(self, batch: list[Delivery]) -> dict[str, Any]:
        service = self.directory.service
        arn = service.addressing.queue_arn(self.queue.key)
        rendered = [
            receiving.render_delivery(service, delivery, {"All"}, ["All"]) for delivery in batch
        ]
        if self.shape == "ymq":
            return {"messages": [self._ymq_message(arn, wire) for wire in rendered]}
        region = self.queue.key[0]
        return {"Records": [_lambda_record(arn, region, wire) for wire in rendered]}

    def _ymq_message(self, arn: str, wire: dict[str, Any]) -> dict[str, Any]:
        now = self.directory.clock.now_datetime().astimezone(UTC)
        message: dict[str, Any] = {
            "message_id": wire["MessageId"],
            "md5_of_body": wire["MD5OfBody"],
            "body": wire["Body"],
            "attributes": {"SentTimestamp": wire["Attributes"]["SentTimestamp"]},
            "message_attributes": {
                name: _attribute_value(value)
                for name, value in wire.get("MessageAttributes", {}).items()
            },
        }
        if "MD5OfMessageAttributes" in wire:
            message["md5_of_message_attributes"] = wire["MD5OfMessageAttributes"]
        return {
            "event_metadata": {
                "event_id": wire["MessageId"],
                "event_type": "yandex.cloud.events.messagequeue.QueueMessage",
                "created_at": _rfc3339(now),
            },
            "details": {"queue_id": arn, "message": message},
        }


def _lambda_record(arn: str, region: str, wire: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {
        "messageId": wire["MessageId"],
        "receiptHandle": wire["ReceiptHandle"],
        "body": wire["Body"],
        "attributes": dict(wire["Attributes"]),
        "messageAttributes": {
            name: {
                **_attribute_value(value),
                "stringListValues": [],
                "binaryListValues": [],
            }
            for name, value in wire.get("MessageAttributes", {}).items()
        },
        "md5OfBody": wire["MD5OfBody"],
    }
    if "MD5OfMessageAttributes" in wire:
        record["md5OfMessageAttributes"] = wire["MD5OfMessageAttributes"]
    record.update({"eventSource": "aws:sqs", "eventSourceARN": arn, "awsRegion": region})
    return record


def _attribute_value(wire: dict[str, str]) -> dict[str, Any]:
    value: dict[str, Any] = {}
    if "StringValue" in wire:
        value["stringValue"] = wire["StringValue"]
    if "BinaryValue" in wire:
        value["binaryValue"] = wire["BinaryValue"]  # base64, as both services deliver it
    value["dataType"] = wire["DataType"]
    return value


def _takes_context(handler: TriggerHandler) -> bool:
    """False only for a handler that certainly accepts a single positional argument."""
    try:
        parameters = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):  # some builtins and C callables have no signature
        return True
    positional = [
        p
        for p in parameters
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    variadic = any(p.kind is p.VAR_POSITIONAL for p in parameters)
    return variadic or len(positional) != 1


def _rfc3339(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _validate(shape: str, fifo: bool, batch_size: int, batch_window: float, partial: bool) -> None:
    if shape not in ("lambda", "ymq"):
        raise ValueError(f'shape must be "lambda" or "ymq"; got {shape!r}')
    largest = MAX_BATCH[(shape, fifo)]
    if not 1 <= batch_size <= largest:
        kind = "FIFO" if fifo else "standard"
        raise ValueError(
            f"batch_size for a {shape} trigger on a {kind} queue must be 1 to {largest}; "
            f"got {batch_size}"
        )
    if not 0 <= batch_window <= MAX_WINDOW[shape]:
        raise ValueError(
            f"batch_window for a {shape} trigger must be 0 to {MAX_WINDOW[shape]:g} seconds; "
            f"got {batch_window}"
        )
    if shape == "lambda" and batch_size > RECEIVE_LIMIT and batch_window < 1:
        raise ValueError(
            "Lambda needs batch_window >= 1 second when batch_size is above 10 "
            "(MaximumBatchingWindowInSeconds)"
        )
    if partial and shape != "lambda":
        raise ValueError(
            "report_batch_item_failures is Lambda's partial batch response; "
            "a YMQ trigger retries the whole batch"
        )
