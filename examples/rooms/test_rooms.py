"""FIFO join/leave commands per room, consumed by a Lambda handler with partial batch responses."""

from __future__ import annotations

import json

import pytest

from pytest_fakesqs import FakeSQS

from .rooms import Rooms, send_command


@pytest.fixture
def commands(fakesqs: FakeSQS) -> str:
    dlq = fakesqs.create_queue("room-commands-dlq.fifo")
    policy = json.dumps({"deadLetterTargetArn": fakesqs.queue(dlq).arn, "maxReceiveCount": 3})
    return fakesqs.create_queue("room-commands.fifo", VisibilityTimeout=20, RedrivePolicy=policy)


def test_each_rooms_commands_apply_in_order(fakesqs: FakeSQS, commands: str) -> None:
    send_command(commands, "lobby", "join", "ann", "c1")
    send_command(commands, "arena", "join", "bob", "c2")
    send_command(commands, "lobby", "leave", "ann", "c3")
    send_command(commands, "lobby", "join", "cid", "c4")
    rooms = Rooms()

    fakesqs.trigger(commands, rooms.handler, report_batch_item_failures=True)

    assert [line for line in rooms.log if line.startswith("lobby")] == [
        "lobby: join ann",
        "lobby: leave ann",
        "lobby: join cid",
    ]
    assert dict(rooms.members) == {"lobby": ["cid"], "arena": ["bob"]}


def send_poison_and_friends(commands: str) -> None:
    send_command(commands, "lobby", "leave", "ghost", "c1")  # poison: ghost never joined
    send_command(commands, "lobby", "join", "ann", "c2")
    send_command(commands, "arena", "join", "bob", "c3")
    send_command(commands, "arena", "join", "cid", "c4")


def dead_players(fakesqs: FakeSQS) -> list[str]:
    dlq = fakesqs.queue("room-commands-dlq.fifo")
    return [json.loads(body)["player"] for body in dlq.bodies()]


def test_a_failing_room_does_not_block_the_others(fakesqs: FakeSQS, commands: str) -> None:
    send_poison_and_friends(commands)
    rooms = Rooms()
    start = fakesqs.now()

    report = fakesqs.trigger(commands, rooms.handler, batch_size=1, report_batch_item_failures=True)

    # The arena went through at once; the lobby waited behind its poison command until it
    # was dead-lettered (3 receives, 20 s apart), then went on in order.
    assert rooms.log == ["arena: join bob", "arena: join cid", "lobby: join ann"]
    assert (report.dead_lettered, dead_players(fakesqs)) == (1, ["ghost"])
    assert (fakesqs.now() - start).total_seconds() == 60


def test_in_a_batch_the_commands_behind_a_poison_share_its_fate(
    fakesqs: FakeSQS, commands: str
) -> None:
    """The pitfall the fake makes visible: returning a room's later commands as failed (to keep
    order) costs them a receive each time, so they reach maxReceiveCount with the poison."""
    send_poison_and_friends(commands)
    rooms = Rooms()

    report = fakesqs.trigger(commands, rooms.handler, report_batch_item_failures=True)

    assert rooms.log == ["arena: join bob", "arena: join cid"]
    assert (report.dead_lettered, dead_players(fakesqs)) == (2, ["ghost", "ann"])
