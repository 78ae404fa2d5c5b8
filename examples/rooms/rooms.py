"""Room membership for a game server: join/leave commands go through a FIFO queue with the room
as MessageGroupId, so each room's commands apply in order while rooms proceed independently.

The Lambda handler reports partial batch failures. A FIFO batch must not skip ahead inside a
group, so once a room's command fails, that room's later commands in the batch are returned as
failed too (they come back, in order, after the visibility timeout); other rooms carry on.
`CommandConsumer` is the same rule in a boto3 worker, next to the whole-batch failure it fixes.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import boto3


def send_command(queue_url: str, room: str, op: str, player: str, command_id: str) -> None:
    boto3.client("sqs", region_name="us-east-1").send_message(
        QueueUrl=queue_url,
        MessageBody=json.dumps({"op": op, "player": player, "room": room}),
        MessageGroupId=room,
        MessageDeduplicationId=command_id,
    )


class BadCommand(Exception):
    pass


class Rooms:
    def __init__(self) -> None:
        self.members: dict[str, list[str]] = defaultdict(list)
        self.log: list[str] = []  # every command applied, in the order applied

    def apply(self, command: dict[str, Any]) -> None:
        room, player, op = command["room"], command["player"], command["op"]
        if op == "join":
            self.members[room].append(player)
        elif op == "leave" and player in self.members[room]:
            self.members[room].remove(player)
        else:
            raise BadCommand(f"{op} {player} in {room}")
        self.log.append(f"{room}: {op} {player}")

    def handler(self, event: dict[str, Any], context: object) -> dict[str, Any]:
        failures: list[dict[str, str]] = []
        failed_rooms: set[str] = set()
        for record in event["Records"]:
            room = record["attributes"]["MessageGroupId"]
            if room in failed_rooms:  # keep the room's order: don't apply past its failure
                failures.append({"itemIdentifier": record["messageId"]})
                continue
            try:
                self.apply(json.loads(record["body"]))
            except BadCommand:
                failed_rooms.add(room)
                failures.append({"itemIdentifier": record["messageId"]})
        return {"batchItemFailures": failures}


class CommandConsumer:
    """The same commands consumed with boto3 (a worker, not Lambda): receive a batch, apply it.

    `per_group=False` fails the whole batch on one bad command (nothing is deleted, so every
    message of the batch comes back, whichever room it is for). `per_group=True` is the fix:
    each room's commands in order, deleting each once applied, stopping at the room's first
    failure (its later commands must not skip ahead) while the other rooms carry on.
    """

    def __init__(
        self, queue_url: str, rooms: Rooms, *, per_group: bool = True, batch_size: int = 10
    ) -> None:
        self.sqs = boto3.client("sqs", region_name="us-east-1")
        self.queue_url = queue_url
        self.rooms = rooms
        self.per_group = per_group
        self.batch_size = batch_size

    def poll_once(self) -> None:
        messages = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=self.batch_size,
            MessageSystemAttributeNames=["MessageGroupId"],
        ).get("Messages", [])
        if self.per_group:
            self._apply_per_group(messages)
        else:
            self._apply_whole_batch(messages)

    def _apply_whole_batch(self, messages: list[dict[str, Any]]) -> None:
        try:
            for message in messages:
                self.rooms.apply(json.loads(message["Body"]))
        except BadCommand:
            return  # the whole batch comes back after the visibility timeout
        for message in messages:
            self._delete(message)

    def _apply_per_group(self, messages: list[dict[str, Any]]) -> None:
        failed_rooms: set[str] = set()
        for message in messages:
            room = message["Attributes"]["MessageGroupId"]
            if room in failed_rooms:
                continue  # behind a failure of its room: it comes back with it, in order
            try:
                self.rooms.apply(json.loads(message["Body"]))
            except BadCommand:
                failed_rooms.add(room)
                continue
            self._delete(message)

    def _delete(self, message: dict[str, Any]) -> None:
        self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
