"""A chat service's broadcast path, as in the course: the HTTP API publishes to Yandex Message
Queue and a Cloud Function, started by a YMQ trigger, fans each message out to the room.

Delivery is at least once, so the function is idempotent: it remembers the request ids it has
broadcast (in production, a table with a unique key) and skips a second delivery.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import boto3

YMQ_ENDPOINT = "https://message-queue.api.cloud.yandex.net"


def ymq_client() -> Any:
    return boto3.client("sqs", region_name="ru-central1", endpoint_url=YMQ_ENDPOINT)


def publish(queue_url: str, *, request_id: str, room: str, author: str, text: str) -> str:
    """What the HTTP API does for POST /rooms/{room}/messages; returns the MessageId."""
    response = ymq_client().send_message(
        QueueUrl=queue_url,
        MessageBody=json.dumps({"request_id": request_id, "room": room, "text": text}),
        MessageAttributes={"author": {"DataType": "String", "StringValue": author}},
    )
    message_id: str = response["MessageId"]
    return message_id


class UnknownRoom(Exception):
    pass


class Broadcaster:
    """The Cloud Function: `handler(event, context)` for the YMQ trigger."""

    def __init__(
        self,
        members: dict[str, list[str]],
        *,
        work: Callable[[float], object] = lambda seconds: None,
        job_seconds: float = 0.0,
    ) -> None:
        self.members = members
        self.work = work  # how the job spends its time (the test passes fakesqs.advance)
        self.job_seconds = job_seconds
        self.sent: dict[str, list[str]] = defaultdict(list)  # connection -> texts pushed
        self.broadcast_ids: set[str] = set()  # the idempotency table
        self.runs = 0  # how many times a message reached the function

    def handler(self, event: dict[str, Any], context: object) -> dict[str, Any]:
        for item in event["messages"]:
            self.broadcast(item["details"]["message"])
        return {"statusCode": 200}

    def broadcast(self, message: dict[str, Any]) -> None:
        self.runs += 1
        payload = json.loads(message["body"])  # a malformed body raises: the batch is retried
        if payload["request_id"] in self.broadcast_ids:
            return  # delivered again: already broadcast, acknowledge and move on
        if payload["room"] not in self.members:
            raise UnknownRoom(payload["room"])
        self.work(self.job_seconds)
        author = message["message_attributes"]["author"]["stringValue"]
        for connection in self.members[payload["room"]]:
            self.sent[connection].append(f"{author}: {payload['text']}")
        self.broadcast_ids.add(payload["request_id"])
