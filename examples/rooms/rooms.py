"""Room membership for a game server: join/leave commands go through a FIFO queue with the room
as MessageGroupId, so each room's commands apply in order while rooms proceed independently.

The Lambda handler reports partial batch failures. A FIFO batch must not skip ahead inside a
group, so once a room's command fails, that room's later commands in the batch are returned as
failed too (they come back, in order, after the visibility timeout); other rooms carry on.
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
