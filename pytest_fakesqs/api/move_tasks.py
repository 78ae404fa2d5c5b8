"""StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask over the engine's runner."""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING, Any

from ..engine import MoveFailure, MoveStatus, MoveTask, Queue, TaskAlreadyRunning, TaskNotRunning
from .context import RequestContext
from .dead_letter_sources import sources_of
from .error_texts import ErrorText
from .errors import ErrorCode
from .params import get_int, get_str, require_str

if TYPE_CHECKING:
    from .core import Service

MAX_RATE = 500
MAX_LIST_RESULTS = 10
# The engine's failure kinds, as AWS reports them in FailureReason.
FAILURE_REASONS = {MoveFailure.QUEUE_MISSING: ErrorCode.QueueDoesNotExist.spec.query_code}


def _queue_by_arn(service: Service, arn: str, parameter: str) -> Queue:
    key = service.addressing.key_from_arn(arn)
    if key is None:
        raise ErrorText.ARN_FORMAT(parameter=parameter)
    queue = service.broker.find(key)
    if queue is None:
        raise ErrorText.RESOURCE_NOT_FOUND(parameter=parameter)
    return queue


def encode_handle(task_id: str, source_arn: str) -> str:
    """AWS's task handle: base64 of a small JSON document naming the task and its source."""
    document = json.dumps({"taskId": task_id, "sourceArn": source_arn}, separators=(",", ":"))
    return base64.b64encode(document.encode()).decode()


def decode_handle(handle: str) -> tuple[str, str] | None:
    try:
        document = json.loads(base64.b64decode(handle, validate=True))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(document, dict):
        return None
    task_id, source_arn = document.get("taskId"), document.get("sourceArn")
    if not isinstance(task_id, str) or not isinstance(source_arn, str):
        return None
    return task_id, source_arn


def start_message_move_task(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    source_arn = require_str(params, "SourceArn")
    destination_arn = get_str(params, "DestinationArn")
    rate = get_int(params, "MaxNumberOfMessagesPerSecond")
    if rate is not None and not 1 <= rate <= MAX_RATE:
        raise ErrorText.MOVE_RATE(name="MaxNumberOfMessagesPerSecond", value=rate, maximum=MAX_RATE)
    source = _queue_by_arn(service, source_arn, "SourceArn")
    if not sources_of(service, source):
        raise ErrorText.SOURCE_NOT_A_DLQ()
    destination = (
        _queue_by_arn(service, destination_arn, "DestinationArn") if destination_arn else None
    )
    try:
        task = service.broker.move_tasks.start(
            source, None if destination is None else destination.key, rate
        )
    except TaskAlreadyRunning:
        raise ErrorText.TASK_ALREADY_RUNNING() from None
    return {"TaskHandle": encode_handle(task.task_id, service.addressing.queue_arn(source.key))}


def list_message_move_tasks(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    source = _queue_by_arn(service, require_str(params, "SourceArn"), "SourceArn")
    max_results = get_int(params, "MaxResults")
    if max_results is not None and not 1 <= max_results <= MAX_LIST_RESULTS:
        raise ErrorText.MOVE_LIST_MAX_RESULTS(
            name="MaxResults", value=max_results, maximum=MAX_LIST_RESULTS
        )
    tasks = service.broker.move_tasks.for_source(source.key)
    # Only the most recent task unless the caller asks for more (AWS's default is 1).
    return {"Results": [_describe(service, task) for task in tasks[: max_results or 1]]}


def _describe(service: Service, task: MoveTask) -> dict[str, Any]:
    source_arn = service.addressing.queue_arn(task.source)
    entry: dict[str, Any] = {"SourceArn": source_arn, "Status": task.status.value}
    if task.status is MoveStatus.RUNNING:  # the handle is listed only while it can be used
        entry["TaskHandle"] = encode_handle(task.task_id, source_arn)
    if task.destination is not None:
        entry["DestinationArn"] = service.addressing.queue_arn(task.destination)
    if task.requested_rate is not None:
        entry["MaxNumberOfMessagesPerSecond"] = task.requested_rate
    entry["ApproximateNumberOfMessagesMoved"] = task.moved
    entry["ApproximateNumberOfMessagesToMove"] = task.to_move
    if task.failure is not None:
        entry["FailureReason"] = FAILURE_REASONS[task.failure]
    entry["StartedTimestamp"] = int(task.started_at * 1000)
    return entry


def cancel_message_move_task(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    handle = require_str(params, "TaskHandle")
    decoded = decode_handle(handle)
    if decoded is None or service.addressing.key_from_arn(decoded[1]) is None:
        raise ErrorText.TASK_HANDLE_INVALID()
    task_id, source_arn = decoded
    source = _queue_by_arn(service, source_arn, "SourceArn")
    runner = service.broker.move_tasks
    task = runner.get(task_id)
    if task is None or task.source != source.key:
        raise ErrorText.TASK_NOT_FOUND()
    try:
        runner.cancel(task_id)
    except TaskNotRunning:
        # Only a RUNNING task can be cancelled; a finished one is no longer an active task.
        raise ErrorText.TASK_NOT_FOUND() from None
    return {"ApproximateNumberOfMessagesMoved": task.moved}
