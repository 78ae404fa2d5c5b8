"""Every action of the action table, through a JSON client and a query client: same answers.

Each scenario runs on a fresh fake per client; the fake's ids, handles and clock are
deterministic, so the two parsed answers must be equal, up to what the two wire formats cannot
say alike (XML has no element for an empty list, and no modelled error members).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.api.actions import ACTIONS

from ..query_era import query_client
from .conftest import QUERY_CLIENT, make_client


def _queue(client: Any, name: str = "work", **attributes: str) -> str:
    url: str = client.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    return url


def _arn(client: Any, url: str) -> str:
    attributes = client.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
    arn: str = attributes["Attributes"]["QueueArn"]
    return arn


def _received(client: Any, body: str = "m") -> tuple[str, str]:
    url = _queue(client)
    client.send_message(QueueUrl=url, MessageBody=body)
    handle: str = client.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    return url, handle


def _dead_lettered(client: Any) -> tuple[str, str]:
    """A source queue whose one message went to its DLQ; returns (source URL, DLQ ARN)."""
    dlq_arn = _arn(client, _queue(client, "dlq"))
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1})
    source = _queue(client, "source", RedrivePolicy=policy, VisibilityTimeout="0")
    client.send_message(QueueUrl=source, MessageBody="poison")
    client.receive_message(QueueUrl=source)
    client.receive_message(QueueUrl=source)
    return source, dlq_arn


def _create_queue(c: Any) -> Any:
    return c.create_queue(QueueName="work", Attributes={"DelaySeconds": "1"}, tags={"team": "a"})


def _list_queues(c: Any) -> Any:
    _queue(c, "a")
    _queue(c, "b")
    return c.list_queues(QueueNamePrefix="", MaxResults=1)


def _send_message(c: Any) -> Any:
    return c.send_message(
        QueueUrl=_queue(c),
        MessageBody="body\r\n<&>",
        DelaySeconds=0,
        MessageAttributes={
            "s": {"DataType": "String", "StringValue": "v"},
            "b": {"DataType": "Binary", "BinaryValue": b"\x00\xff"},
        },
        MessageSystemAttributes={
            "AWSTraceHeader": {"DataType": "String", "StringValue": "Root=1-5759e988-bd862e3fe"}
        },
    )


def _send_message_batch(c: Any) -> Any:
    entries = [{"Id": "ok", "MessageBody": "fine"}, {"Id": "bad", "MessageBody": "\x00"}]
    return c.send_message_batch(QueueUrl=_queue(c), Entries=entries)


def _receive_message(c: Any) -> Any:
    url = _queue(c)
    c.send_message(
        QueueUrl=url,
        MessageBody="m",
        MessageAttributes={"s": {"DataType": "String", "StringValue": "v"}},
    )
    return c.receive_message(
        QueueUrl=url, AttributeNames=["All"], MessageAttributeNames=["All"], WaitTimeSeconds=1
    )


def _delete_message_batch(c: Any) -> Any:
    url, handle = _received(c)
    entries = [{"Id": "a", "ReceiptHandle": handle}, {"Id": "b", "ReceiptHandle": "garbage"}]
    return c.delete_message_batch(QueueUrl=url, Entries=entries)


def _change_visibility(c: Any) -> Any:
    url, handle = _received(c)
    c.change_message_visibility(QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=0)
    return c.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])


def _change_visibility_batch(c: Any) -> Any:
    url, handle = _received(c)
    entries = [{"Id": "a", "ReceiptHandle": handle, "VisibilityTimeout": 5}]
    return c.change_message_visibility_batch(QueueUrl=url, Entries=entries)


def _add_permission(c: Any) -> Any:
    url = _queue(c)
    c.add_permission(
        QueueUrl=url, Label="l", AWSAccountIds=["111122223333"], Actions=["SendMessage"]
    )
    return c.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])


def _remove_permission(c: Any) -> Any:
    url = _queue(c)
    c.add_permission(QueueUrl=url, Label="l", AWSAccountIds=["111122223333"], Actions=["*"])
    c.remove_permission(QueueUrl=url, Label="l")
    return c.remove_permission(QueueUrl=url, Label="l")  # now an error, compared too


def _untag_queue(c: Any) -> Any:
    url = _queue(c)
    c.tag_queue(QueueUrl=url, Tags={"a": "1", "b": "2"})
    c.untag_queue(QueueUrl=url, TagKeys=["a"])
    return c.list_queue_tags(QueueUrl=url)


def _dead_letter_sources(c: Any) -> Any:
    _dead_lettered(c)
    dlq = c.get_queue_url(QueueName="dlq")["QueueUrl"]
    return c.list_dead_letter_source_queues(QueueUrl=dlq, MaxResults=10)


def _start_move_task(c: Any) -> Any:
    _, dlq_arn = _dead_lettered(c)
    return c.start_message_move_task(SourceArn=dlq_arn, MaxNumberOfMessagesPerSecond=1)


def _list_move_tasks(c: Any) -> Any:
    _, dlq_arn = _dead_lettered(c)
    c.start_message_move_task(SourceArn=dlq_arn)
    return c.list_message_move_tasks(SourceArn=dlq_arn, MaxResults=10)


def _cancel_move_task(c: Any) -> Any:
    source, dlq_arn = _dead_lettered(c)
    c.send_message(QueueUrl=source, MessageBody="second")
    c.receive_message(QueueUrl=source)
    c.receive_message(QueueUrl=source)
    task = c.start_message_move_task(SourceArn=dlq_arn, MaxNumberOfMessagesPerSecond=1)
    return c.cancel_message_move_task(TaskHandle=task["TaskHandle"])


SCENARIOS: dict[str, Callable[[Any], Any]] = {
    "CreateQueue": _create_queue,
    "GetQueueUrl": lambda c: (_queue(c), c.get_queue_url(QueueName="work"))[1],
    "ListQueues": _list_queues,
    "DeleteQueue": lambda c: (
        _queue(c, "keep"),
        c.delete_queue(QueueUrl=_queue(c)),
        c.list_queues(),
    ),
    "GetQueueAttributes": lambda c: c.get_queue_attributes(
        QueueUrl=_queue(c, VisibilityTimeout="7"), AttributeNames=["All"]
    ),
    "SetQueueAttributes": lambda c: (
        c.set_queue_attributes(QueueUrl=(url := _queue(c)), Attributes={"DelaySeconds": "5"}),
        c.get_queue_attributes(QueueUrl=url, AttributeNames=["DelaySeconds"]),
    ),
    "PurgeQueue": lambda c: (
        c.purge_queue(QueueUrl=(url := _queue(c))),
        c.purge_queue(QueueUrl=url),
    ),
    "SendMessage": _send_message,
    "SendMessageBatch": _send_message_batch,
    "ReceiveMessage": _receive_message,
    "DeleteMessage": lambda c: c.delete_message(QueueUrl=_queue(c), ReceiptHandle="garbage"),
    "DeleteMessageBatch": _delete_message_batch,
    "ChangeMessageVisibility": _change_visibility,
    "ChangeMessageVisibilityBatch": _change_visibility_batch,
    "AddPermission": _add_permission,
    "RemovePermission": _remove_permission,
    "TagQueue": lambda c: (
        c.tag_queue(QueueUrl=(url := _queue(c)), Tags={"team": "a", "tier": "1"}),
        c.list_queue_tags(QueueUrl=url),
    ),
    "UntagQueue": _untag_queue,
    "ListQueueTags": lambda c: c.list_queue_tags(
        QueueUrl=c.create_queue(QueueName="work", tags={"team": "a"})["QueueUrl"]
    ),
    "ListDeadLetterSourceQueues": _dead_letter_sources,
    "StartMessageMoveTask": _start_move_task,
    "ListMessageMoveTasks": _list_move_tasks,
    "CancelMessageMoveTask": _cancel_move_task,
}


def _answer(client: Any, scenario: Callable[[Any], Any]) -> Any:
    """The parsed answer (or error) of the scenario's last call, on a fresh fake."""
    with fake_sqs():
        try:
            response = scenario(client)
        except ClientError as error:
            status = error.response["ResponseMetadata"]["HTTPStatusCode"]
            return (
                "error",
                error.response["Error"]["Code"],
                error.response["Error"]["Message"],
                status,
            )
    if isinstance(response, tuple):
        response = response[-1]
    return {key: value for key, value in response.items() if key != "ResponseMetadata"}


# Ids from the fake's process-wide counters: compared by where they recur, as in the recordings.
_IDS = frozenset({"MessageId", "ReceiptHandle", "TaskHandle"})


def _comparable(value: Any, ids: dict[str, str] | None = None, key: str = "") -> Any:
    """Ids as `<MessageId:1>` (same N = same value); empty lists dropped, as XML cannot send them."""
    ids = {} if ids is None else ids
    if isinstance(value, dict):
        return {k: _comparable(v, ids, k) for k, v in value.items() if v != []}
    if isinstance(value, list):
        return [_comparable(item, ids, key) for item in value]
    if key in _IDS:
        return ids.setdefault(value, f"<{key}:{len(ids) + 1}>")
    return value


@pytest.fixture(scope="module")
def old_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return query_client(Path(tmp_path_factory.mktemp("query-era-model")))


def test_every_action_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(ACTIONS)


@pytest.mark.parametrize("action", list(SCENARIOS))
def test_both_protocols_answer_alike(old_client: Any, action: str) -> None:
    over_query = _answer(old_client, SCENARIOS[action])
    assert over_query  # every scenario ends in an answer with content, or an error
    if QUERY_CLIENT:
        pytest.skip("botocore < 1.31.81 has no JSON client to compare with; served over query")
    over_json = _answer(make_client(), SCENARIOS[action])
    assert _comparable(over_query) == _comparable(over_json)
