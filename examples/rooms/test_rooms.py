"""FIFO join/leave commands per room, consumed by a Lambda handler with partial batch responses."""

from __future__ import annotations

import json

import pytest

from pytest_fakesqs import FakeSQS

from .rooms import CommandConsumer, Rooms, send_command


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


def test_a_worker_that_fails_the_whole_batch_dead_letters_every_room_in_it(
    fakesqs: FakeSQS, commands: str
) -> None:
    """One bad command and nothing of the batch is deleted: every room's commands spend a
    receive each time, and all of them reach the dead-letter queue with the poison."""
    send_poison_and_friends(commands)
    rooms = Rooms()
    worker = CommandConsumer(commands, rooms, per_group=False)

    report = fakesqs.run_until_idle(worker.poll_once)

    assert rooms.log == []
    assert dead_players(fakesqs) == ["ghost", "ann", "bob", "cid"]
    assert (report.steps, report.dead_lettered) == (4, 4)


def test_per_room_stopping_at_the_first_failure_spares_the_other_rooms(
    fakesqs: FakeSQS, commands: str
) -> None:
    """The fix: the arena goes through at once. The lobby's command behind the poison was
    received with it each time, so it still reaches maxReceiveCount with it."""
    send_poison_and_friends(commands)
    rooms = Rooms()

    fakesqs.run_until_idle(CommandConsumer(commands, rooms).poll_once)

    assert rooms.log == ["arena: join bob", "arena: join cid"]
    assert dead_players(fakesqs) == ["ghost", "ann"]


def test_one_message_per_receive_spares_the_commands_behind_the_poison_too(
    fakesqs: FakeSQS, commands: str
) -> None:
    """A room's next command is not received while its poison is in flight, so it spends no
    receive: once the poison is dead-lettered (3 receives, 20 s apart) it applies in order."""
    send_poison_and_friends(commands)
    rooms = Rooms()

    report = fakesqs.run_until_idle(CommandConsumer(commands, rooms, batch_size=1).poll_once)

    assert rooms.log == ["arena: join bob", "arena: join cid", "lobby: join ann"]
    assert dead_players(fakesqs) == ["ghost"]
    assert report.elapsed == 60
