"""Tier 2: message move tasks. One test per recorded AWS scenario (sqs-move-task.snapshot.json),
driven by the virtual clock instead of real sleeps and retries."""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .conftest import QUERY_CLIENT, wire_error
from .recorded import Recording
from .redrive_helpers import (
    approximate_count,
    dead_letter,
    dead_letter_pipe,
    queue_arn,
    redrive_policy,
)

STARTED = 1704067200000  # the fake's default start, 2024-01-01, in epoch ms


def status_and_error(call: Any, **kwargs: Any) -> tuple[int, dict[str, Any]]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    response = caught.value.response
    return response["ResponseMetadata"]["HTTPStatusCode"], response


def invalid_parameter(message: str) -> dict[str, Any]:
    return wire_error("InvalidParameterValue", message, "InvalidParameterValueException")


def not_found(message: str) -> dict[str, Any]:
    return wire_error("ResourceNotFoundException", message, "ResourceNotFoundException")


def handle_of(task_id: str, source_arn: str) -> str:
    document = json.dumps({"taskId": task_id, "sourceArn": source_arn}, separators=(",", ":"))
    return base64.b64encode(document.encode()).decode()


def collect(sqs: Any, url: str) -> list[str]:
    """Receive and delete until a long poll comes back empty (instant on the frozen clock)."""
    bodies: list[str] = []
    while messages := sqs.receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1
    ).get("Messages"):
        for message in messages:
            bodies.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return bodies


def results(sqs: Any, source_arn: str, **kwargs: Any) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = sqs.list_message_move_tasks(SourceArn=source_arn, **kwargs)[
        "Results"
    ]
    return listed


@pytest.fixture
def pipe(sqs: Any) -> dict[str, str]:
    """some-queue -> dlq (the task's source), and a destination queue, as the recordings use."""
    source, dlq = dead_letter_pipe(sqs)
    destination = sqs.create_queue(QueueName="destination")["QueueUrl"]
    return {
        "queue": source,
        "dlq": dlq,
        "source_arn": queue_arn(sqs, dlq),
        "destination": destination,
        "destination_arn": queue_arn(sqs, destination),
    }


def test_cancel_with_invalid_task_handle(fakesqs: FakeSQS, sqs: Any) -> None:
    status, response = status_and_error(sqs.cancel_message_move_task, TaskHandle="foobared")
    assert status == 400
    assert response["Error"] == invalid_parameter("Value for parameter TaskHandle is invalid.")


def test_cancel_with_invalid_source_arn_in_task_handle(fakesqs: FakeSQS, sqs: Any) -> None:
    source_arn = "arn:aws:sqs:us-east-1:878966065785:test-queue-doesnt-exist-123456"
    handle = handle_of("10f57157-fc38-4da9-a113-4de7e12d05dd", source_arn)
    status, response = status_and_error(sqs.cancel_message_move_task, TaskHandle=handle)
    message = "The resource that you specified for the SourceArn parameter doesn't exist."
    assert status == 404
    assert response["Error"] == not_found(message)
    if not QUERY_CLIENT:  # JSON also parses the modelled `message` member; XML has only <Error>
        assert response["message"] == message


def test_cancel_with_invalid_task_id_in_task_handle(
    fakesqs: FakeSQS, sqs: Any, queue_url: str
) -> None:
    handle = handle_of("10f57157-fc38-4da9-a113-4de7e12d05aa", queue_arn(sqs, queue_url))
    status, response = status_and_error(sqs.cancel_message_move_task, TaskHandle=handle)
    assert status == 404
    assert response["Error"] == not_found("Task does not exist.")
    if not QUERY_CLIENT:  # JSON also parses the modelled `message` member; XML has only <Error>
        assert response["message"] == "Task does not exist."


def test_source_needs_redrive_policy(fakesqs: FakeSQS, sqs: Any) -> None:
    source = sqs.create_queue(QueueName="plain-source")["QueueUrl"]
    destination = sqs.create_queue(QueueName="plain-destination")["QueueUrl"]
    status, response = status_and_error(
        sqs.start_message_move_task,
        SourceArn=queue_arn(sqs, source),
        DestinationArn=queue_arn(sqs, destination),
    )
    assert status == 400
    assert response["Error"] == invalid_parameter(
        "Source queue must be configured as a Dead Letter Queue."
    )


def test_destination_needs_to_exist(fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]) -> None:
    status, response = status_and_error(
        sqs.start_message_move_task,
        SourceArn=pipe["source_arn"],
        DestinationArn=pipe["destination_arn"] + "doesntexist",
    )
    message = "The resource that you specified for the DestinationArn parameter doesn't exist."
    assert status == 404
    assert response["Error"] == not_found(message)
    if not QUERY_CLIENT:  # JSON also parses the modelled `message` member; XML has only <Error>
        assert response["message"] == message


def test_basic_move_task_workflow(fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]) -> None:
    dead_letter(sqs, pipe["queue"], 2)
    assert approximate_count(sqs, pipe["dlq"]) == 2
    response = sqs.start_message_move_task(
        SourceArn=pipe["source_arn"], DestinationArn=pipe["destination_arn"]
    )
    handle = base64.b64decode(response["TaskHandle"])
    decoded = json.loads(handle)
    assert uuid.UUID(decoded["taskId"])
    assert decoded["sourceArn"] == pipe["source_arn"]
    assert sorted(collect(sqs, pipe["destination"])) == ["message-0", "message-1"]
    assert results(sqs, pipe["source_arn"]) == [
        {
            "ApproximateNumberOfMessagesMoved": 2,
            "ApproximateNumberOfMessagesToMove": 2,
            "DestinationArn": pipe["destination_arn"],
            "SourceArn": pipe["source_arn"],
            "StartedTimestamp": STARTED,
            "Status": "COMPLETED",
        }
    ]
    assert "Messages" not in sqs.receive_message(QueueUrl=pipe["dlq"], WaitTimeSeconds=1)


def test_move_task_with_throughput_limit(fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]) -> None:
    dead_letter(sqs, pipe["queue"], 4)
    assert approximate_count(sqs, pipe["dlq"]) == 4
    response = sqs.start_message_move_task(
        SourceArn=pipe["source_arn"],
        DestinationArn=pipe["destination_arn"],
        MaxNumberOfMessagesPerSecond=1,
    )
    assert set(response) == {"TaskHandle", "ResponseMetadata"}
    started = fakesqs.now()
    assert sorted(collect(sqs, pipe["destination"])) == [f"message-{i}" for i in range(4)]
    # One message per second: the first at once, the fourth 3 virtual seconds later.
    assert (fakesqs.now() - started).total_seconds() >= 3


def collect_one_at_a_time(sqs: Any, url: str, expected: int) -> list[str]:
    """LocalStack's sqs_collect_messages: long polls for one message, each deleted, until
    `expected` arrived (a long poll on the frozen clock jumps to the next move)."""
    bodies: list[str] = []
    while len(bodies) < expected:
        for message in sqs.receive_message(
            QueueUrl=url, WaitTimeSeconds=5, MaxNumberOfMessages=1
        ).get("Messages", []):
            bodies.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return bodies


def listed_once_a_second(
    fakesqs: FakeSQS, sqs: Any, source_arn: str, done: Any, tries: int = 30
) -> dict[str, Any]:
    """LocalStack's retry(..., retries=30, sleep=1) around ListMessageMoveTasks, on the clock."""
    for _ in range(tries):
        response: dict[str, Any] = sqs.list_message_move_tasks(SourceArn=source_arn)
        if done(response["Results"][0]):
            return response
        fakesqs.advance(1)
    raise AssertionError(f"the task never ended: {response['Results']}")


def test_move_task_cancel(fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]) -> None:
    """Replays LocalStack's AWS-validated test_move_task_cancel: a cancelled task goes on
    moving for a while (2 moved when cancelled, 8 once CANCELLED)."""
    recording = Recording("test_move_task_cancel", sqs)
    dead_letter(sqs, pipe["queue"], 10)
    assert approximate_count(sqs, pipe["dlq"]) == 10
    handle = sqs.start_message_move_task(
        SourceArn=pipe["source_arn"],
        DestinationArn=pipe["destination_arn"],
        MaxNumberOfMessagesPerSecond=1,
    )["TaskHandle"]
    assert len(collect_one_at_a_time(sqs, pipe["destination"], 2)) == 2
    recording.match("list-while", sqs.list_message_move_tasks(SourceArn=pipe["source_arn"]))
    recording.match("cancel", sqs.cancel_message_move_task(TaskHandle=handle))
    cancelling = results(sqs, pipe["source_arn"])[0]
    assert (cancelling["Status"], "TaskHandle" in cancelling) == ("CANCELLING", False)
    recording.match(
        "list-after",
        listed_once_a_second(
            fakesqs, sqs, pipe["source_arn"], lambda task: task["Status"] == "CANCELLED"
        ),
    )
    recording.verify()
    assert sqs.receive_message(QueueUrl=pipe["dlq"])["Messages"]  # the rest stayed behind


def test_move_task_delete_destination_queue_while_running(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    """Replays LocalStack's AWS-validated test_move_task_delete_destination_queue_while_running:
    the destination is deleted right after the start, and the task notices late (3 moved)."""
    recording = Recording("test_move_task_delete_destination_queue_while_running", sqs)
    dead_letter(sqs, pipe["queue"], 10)
    sqs.start_message_move_task(
        SourceArn=pipe["source_arn"],
        DestinationArn=pipe["destination_arn"],
        MaxNumberOfMessagesPerSecond=1,
    )
    sqs.delete_queue(QueueUrl=pipe["destination"])
    recording.match(
        "list",
        listed_once_a_second(
            fakesqs, sqs, pipe["source_arn"], lambda task: task["Status"] != "RUNNING"
        ),
    )
    recording.verify()
    assert sqs.receive_message(QueueUrl=pipe["dlq"])["Messages"]  # the rest stayed behind


def test_start_multiple_move_tasks(fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]) -> None:
    dead_letter(sqs, pipe["queue"], 10)
    start = {
        "SourceArn": pipe["source_arn"],
        "DestinationArn": pipe["destination_arn"],
        "MaxNumberOfMessagesPerSecond": 1,
    }
    sqs.start_message_move_task(**start)
    status, response = status_and_error(sqs.start_message_move_task, **start)
    assert status == 400
    assert response["Error"] == invalid_parameter(
        "There is already a task running. Only one active task is allowed for a source queue arn at a given time."
    )


def test_move_task_workflow_with_default_destination(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    dead_letter(sqs, pipe["queue"], 2)
    sqs.start_message_move_task(SourceArn=pipe["source_arn"])
    assert sorted(collect(sqs, pipe["queue"])) == ["message-0", "message-1"]
    assert results(sqs, pipe["source_arn"]) == [
        {
            "ApproximateNumberOfMessagesMoved": 2,
            "ApproximateNumberOfMessagesToMove": 2,
            "SourceArn": pipe["source_arn"],
            "StartedTimestamp": STARTED,
            "Status": "COMPLETED",
        }
    ]


def test_move_task_workflow_with_multiple_sources_as_default_destination(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    second = sqs.create_queue(
        QueueName="second-source",
        Attributes={"RedrivePolicy": redrive_policy(pipe["source_arn"])},
    )["QueueUrl"]
    dead_letter(sqs, pipe["queue"], 2)
    for index in range(2):
        sqs.send_message(QueueUrl=second, MessageBody=f"second-{index}")
    for _ in range(4):
        sqs.receive_message(QueueUrl=second, VisibilityTimeout=0)
    assert approximate_count(sqs, pipe["dlq"]) == 4
    sqs.start_message_move_task(SourceArn=pipe["source_arn"])
    assert sorted(collect(sqs, pipe["queue"])) == ["message-0", "message-1"]
    assert sorted(collect(sqs, second)) == ["second-0", "second-1"]
    listed = results(sqs, pipe["source_arn"])
    assert [(r["Status"], r["ApproximateNumberOfMessagesMoved"]) for r in listed] == [
        ("COMPLETED", 4)
    ]
    assert listed[0]["ApproximateNumberOfMessagesToMove"] == 4


def test_list_shows_the_most_recent_tasks_first(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    dead_letter(sqs, pipe["queue"], 1)
    sqs.start_message_move_task(SourceArn=pipe["source_arn"])
    fakesqs.advance(10)
    dead_letter(sqs, pipe["queue"], 1)
    sqs.start_message_move_task(SourceArn=pipe["source_arn"], MaxNumberOfMessagesPerSecond=5)
    assert [r.get("MaxNumberOfMessagesPerSecond") for r in results(sqs, pipe["source_arn"])] == [5]
    everything = results(sqs, pipe["source_arn"], MaxResults=10)
    assert [r["StartedTimestamp"] for r in everything] == [STARTED + 10_000, STARTED]


@pytest.mark.parametrize(
    ("call", "arguments", "message"),
    [
        (
            "list_message_move_tasks",
            {"MaxResults": 11},
            "Value 11 for parameter MaxResults is invalid. Reason: You must enter a number that's between 1 and 10.",
        ),
        (
            "start_message_move_task",
            {"MaxNumberOfMessagesPerSecond": 501},
            "Value 501 for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and 500, if provided.",
        ),
    ],
)
def test_range_errors(
    fakesqs: FakeSQS,
    sqs: Any,
    pipe: dict[str, str],
    call: str,
    arguments: dict[str, Any],
    message: str,
) -> None:
    status, response = status_and_error(
        getattr(sqs, call), SourceArn=pipe["source_arn"], **arguments
    )
    assert status == 400
    assert response["Error"] == invalid_parameter(message)


def test_unknown_source_of_a_listing(fakesqs: FakeSQS, sqs: Any) -> None:
    status, response = status_and_error(
        sqs.list_message_move_tasks, SourceArn="arn:aws:sqs:us-east-1:123456789012:nope"
    )
    assert status == 404
    assert response["Error"] == not_found(
        "The resource that you specified for the SourceArn parameter doesn't exist."
    )


def test_a_finished_task_cannot_be_cancelled(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    dead_letter(sqs, pipe["queue"], 1)
    handle = sqs.start_message_move_task(SourceArn=pipe["source_arn"])["TaskHandle"]
    status, response = status_and_error(sqs.cancel_message_move_task, TaskHandle=handle)
    assert status == 404
    assert response["Error"] == not_found("Task does not exist.")


@pytest.mark.parametrize("call", ["start_message_move_task", "list_message_move_tasks"])
def test_source_arn_must_be_an_arn(fakesqs: FakeSQS, sqs: Any, call: str) -> None:
    status, response = status_and_error(getattr(sqs, call), SourceArn="not-an-arn")
    assert status == 400
    assert response["Error"] == invalid_parameter(
        "You must use this format to specify the SourceArn: arn:<partition>:<service>:<region>:<account-id>:<resource-id>"
    )


def test_a_trigger_on_the_destination_keeps_running_while_a_task_feeds_it(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    """Replaying dead letters into a queue a Lambda consumes: the trigger waits on the clock for
    the task's next move instead of stopping at the first empty receive."""
    dead_letter(sqs, pipe["queue"], 3)
    handled: list[str] = []

    def handler(event: dict[str, Any], context: Any) -> None:
        handled.extend(record["body"] for record in event["Records"])

    started = fakesqs.now()
    sqs.start_message_move_task(SourceArn=pipe["source_arn"], MaxNumberOfMessagesPerSecond=1)
    report = fakesqs.trigger("source", handler, batch_size=1)
    assert sorted(handled) == ["message-0", "message-1", "message-2"]
    assert (report.stopped, report.messages_processed) == ("drained", 3)
    assert (fakesqs.now() - started).total_seconds() == 2  # the last move, not a deadline


def test_advance_to_next_event_steps_through_a_running_task(
    fakesqs: FakeSQS, sqs: Any, pipe: dict[str, str]
) -> None:
    dead_letter(sqs, pipe["queue"], 3)
    started = fakesqs.now()
    sqs.start_message_move_task(
        SourceArn=pipe["source_arn"],
        DestinationArn=pipe["destination_arn"],
        MaxNumberOfMessagesPerSecond=1,
    )
    changes = fakesqs.advance_to_next_event("destination")
    assert (fakesqs.now() - started).total_seconds() == 1  # the next move, not a retention expiry
    assert [(c.queue, c.event, c.detail) for c in changes] == [  # sorted by moment, then queue
        ("destination", "arrived from", "dlq"),
        ("dlq", "moved back", "destination"),
    ]
    fakesqs.advance_to_next_event()
    assert [r["Status"] for r in results(sqs, pipe["source_arn"])] == ["COMPLETED"]
    assert fakesqs.queue("destination").bodies() == ["message-0", "message-1", "message-2"]
