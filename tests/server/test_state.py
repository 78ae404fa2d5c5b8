"""`fakesqs serve --state PATH`: what a restart keeps, a crash loses at most a second of, and a
file that cannot be restored stops the start with a line naming it."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.server import state

from .conftest import PYTHON, SUBPROCESS_TIMEOUT, LineReader, subprocess_env

START = "2024-01-01T00:00:00Z"


def _client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s"
    )


def _populate(sqs: Any) -> dict[str, Any]:
    dlq = sqs.create_queue(QueueName="jobs-dlq")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    redrive = json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": "2"})
    policy = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage"}],
        }
    )
    jobs = sqs.create_queue(
        QueueName="jobs",
        Attributes={"VisibilityTimeout": "60", "RedrivePolicy": redrive, "Policy": policy},
        tags={"team": "payments"},
    )["QueueUrl"]
    fifo = sqs.create_queue(QueueName="orders.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    sqs.send_message(
        QueueUrl=jobs,
        MessageBody="in flight",
        MessageAttributes={
            "kind": {"DataType": "String", "StringValue": "x"},
            "blob": {"DataType": "Binary", "BinaryValue": b"\x00\xff"},
        },
    )
    sqs.send_message(QueueUrl=jobs, MessageBody="visible")
    sqs.send_message(QueueUrl=jobs, MessageBody="delayed", DelaySeconds=120)
    for number in (1, 2):
        sqs.send_message(
            QueueUrl=fifo,
            MessageBody=f"o{number}",
            MessageGroupId="g",
            MessageDeduplicationId=f"d{number}",
        )
    held = sqs.receive_message(QueueUrl=jobs, AttributeNames=["All"])["Messages"][0]
    held_fifo = sqs.receive_message(QueueUrl=fifo)["Messages"][0]
    return {"jobs": jobs, "fifo": fifo, "dlq": dlq, "held": held, "held_fifo": held_fifo}


def test_a_restored_fake_is_the_fake_that_was_saved(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with fake_sqs(start=START) as before:
        made = _populate(_client())
        before.advance(10)
        state.save(path, state.snapshot(before))
        attributes_before = _client().get_queue_attributes(
            QueueUrl=made["jobs"], AttributeNames=["All"]
        )["Attributes"]

    with fake_sqs(start=START) as after:
        restored = state.restore(after, state.load(path), path)
        sqs = _client()

        assert restored == 5
        assert after.now().timestamp() == before.now().timestamp()  # the virtual clock too
        attributes = sqs.get_queue_attributes(QueueUrl=made["jobs"], AttributeNames=["All"])
        # All as saved: LastModifiedTimestamp too, though the restore re-created the queue 10 s
        # after it was last modified.
        assert attributes["Attributes"] == attributes_before
        modified = int(attributes_before["LastModifiedTimestamp"])
        assert modified == int(before.now().timestamp()) - 10
        assert sqs.list_queue_tags(QueueUrl=made["jobs"])["Tags"] == {"team": "payments"}
        # The visible message is there, once; the one in flight stays hidden until its deadline.
        received = sqs.receive_message(QueueUrl=made["jobs"], MaxNumberOfMessages=10)
        assert [m["Body"] for m in received["Messages"]] == ["visible"]
        after.advance(50)  # 60 s after the receive: the held message is back, counted once
        again = sqs.receive_message(
            QueueUrl=made["jobs"],
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
        )["Messages"][0]
        assert again["Body"] == "in flight"
        assert again["MessageId"] == made["held"]["MessageId"]
        assert again["Attributes"]["ApproximateReceiveCount"] == "2"
        assert again["Attributes"]["SentTimestamp"] == made["held"]["Attributes"]["SentTimestamp"]
        assert again["MessageAttributes"]["blob"]["BinaryValue"] == b"\x00\xff"
        assert again["MD5OfMessageAttributes"]
        after.advance(120)
        assert after.queue("jobs").bodies() == ["in flight", "visible", "delayed"]  # sent order


def test_a_consumer_holding_a_receipt_handle_can_still_delete(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with fake_sqs(start=START) as before:
        made = _populate(_client())
        state.save(path, state.snapshot(before))

    with fake_sqs(start=START) as after:
        state.restore(after, state.load(path), path)
        sqs = _client()
        sqs.delete_message(QueueUrl=made["jobs"], ReceiptHandle=made["held"]["ReceiptHandle"])

        after.advance(3600)
        assert "in flight" not in after.queue("jobs").bodies()


def test_fifo_order_groups_and_deduplication_survive(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with fake_sqs(start=START) as before:
        made = _populate(_client())
        state.save(path, state.snapshot(before))

    with fake_sqs(start=START) as after:
        state.restore(after, state.load(path), path)
        sqs = _client()
        fifo = made["fifo"]

        assert "Messages" not in sqs.receive_message(QueueUrl=fifo)  # group g waits on o1
        duplicate = sqs.send_message(
            QueueUrl=fifo, MessageBody="o1", MessageGroupId="g", MessageDeduplicationId="d1"
        )
        assert duplicate["MessageId"] == made["held_fifo"]["MessageId"]
        sqs.delete_message(QueueUrl=fifo, ReceiptHandle=made["held_fifo"]["ReceiptHandle"])
        nxt = sqs.receive_message(QueueUrl=fifo, AttributeNames=["SequenceNumber"])["Messages"]
        assert [m["Body"] for m in nxt] == ["o2"]
        later = sqs.send_message(
            QueueUrl=fifo, MessageBody="o3", MessageGroupId="g", MessageDeduplicationId="d3"
        )
        assert int(later["SequenceNumber"]) > int(nxt[0]["Attributes"]["SequenceNumber"])


def test_dead_letters_keep_their_source(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with fake_sqs(start=START) as before:
        sqs = _client()
        made = _populate(sqs)
        for _ in range(3):  # "visible" is received twice and dead-lettered on the third try
            sqs.receive_message(QueueUrl=made["jobs"], MaxNumberOfMessages=10)
            before.advance(61)
        assert before.queue("jobs-dlq").bodies()
        state.save(path, state.snapshot(before))

    with fake_sqs(start=START) as after:
        state.restore(after, state.load(path), path)
        sqs = _client()
        dead = sqs.receive_message(
            QueueUrl=made["dlq"], AttributeNames=["All"], MaxNumberOfMessages=10
        )["Messages"]
        assert {m["Attributes"]["DeadLetterQueueSourceArn"] for m in dead} == {
            "arn:aws:sqs:us-east-1:123456789012:jobs"
        }


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not valid JSON ("),
        ('{"hello": 1}', "not a pytest-fakesqs state file (no format marker)"),
        (
            '{"format": "pytest-fakesqs state", "version": 99, "written_by": "9.9"}',
            "written in format version 99 (by pytest-fakesqs 9.9); this version reads version 1",
        ),
        (
            '{"format": "pytest-fakesqs state", "version": 1, "flavor": "aws", "clock": 0,'
            ' "queues": [{"name": "q"}]}',
            "corrupt or incomplete (KeyError: 'attributes')",
        ),
        (
            '{"format": "pytest-fakesqs state", "version": 1, "flavor": "ymq", "clock": 0,'
            ' "queues": []}',
            "written by a 'ymq' server; this one is --flavor aws",
        ),
    ],
)
def test_a_file_that_cannot_be_restored_names_itself_and_why(
    tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "state.json"
    path.write_text(content)

    with fake_sqs() as fake, pytest.raises(state.StateFileError) as raised:
        state.restore(fake, state.load(path), path)

    assert str(raised.value).startswith(f"state file {path}: {reason}")


def test_a_missing_file_is_an_empty_start(tmp_path: Path) -> None:
    assert state.load(tmp_path / "not-yet.json") is None


def test_a_save_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("old")
    with fake_sqs() as fake:
        fake.create_queue("orders")
        state.save(path, state.snapshot(fake))

    assert json.loads(path.read_text())["queues"][0]["name"] == "orders"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]  # no partial left


# -- the command, restarted and killed --------------------------------------------------------


class Serve:
    def __init__(self, path: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [PYTHON, "-m", "pytest_fakesqs", "serve", "--port", "0", "--state", str(path), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=subprocess_env(),
        )
        assert self.process.stdout is not None
        self.output = LineReader(self.process.stdout)
        self.banner = self.output.next_line()
        assert self.banner.startswith("fakesqs: serving SQS at"), self.banner + self.output.rest()
        self.endpoint = self.banner.split(" at ", 1)[1].split(" ", 1)[0]
        self.state_line = self.output.next_line()

    def client(self) -> Any:
        return boto3.client(
            "sqs",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="k",
            aws_secret_access_key="s",
        )

    def stop(self, signum: int = signal.SIGTERM) -> str:
        """Signal it and wait (SIGKILL: `kill -9`, no chance to save)."""
        self.process.send_signal(signum)
        self.process.wait(timeout=SUBPROCESS_TIMEOUT)
        rest = self.output.rest()
        assert self.process.stdout is not None
        self.process.stdout.close()
        return rest


@pytest.fixture
def served() -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait(timeout=SUBPROCESS_TIMEOUT)


def test_serve_restores_at_start_and_saves_at_sigterm(tmp_path: Path, served: list[Serve]) -> None:
    path = tmp_path / "data" / "state.json"
    path.parent.mkdir()
    first = Serve(path)
    served.append(first)
    assert first.state_line == f"fakesqs: state in {path} (a new file)\n"
    sqs = first.client()
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="kept")
    first.stop()

    second = Serve(path)
    served.append(second)

    assert second.state_line == f"fakesqs: state in {path} (restored 1 queue, 1 message)\n"
    received = second.client().receive_message(QueueUrl=url)["Messages"]
    assert [m["Body"] for m in received] == ["kept"]
    second.stop()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serve_saves_what_changed_within_a_second_so_kill_9_loses_at_most_that(
    tmp_path: Path, served: list[Serve], signum: int
) -> None:
    path = tmp_path / "state.json"
    first = Serve(path)
    served.append(first)
    sqs = first.client()
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="before the crash")

    deadline = time.monotonic() + 10
    while "before the crash" not in path.read_text():  # saved within about a second
        assert time.monotonic() < deadline, "not saved within 10 s"
        time.sleep(0.1)  # real-time: waits for the server's once-a-second save
    first.stop(signal.SIGKILL)

    second = Serve(path)
    served.append(second)
    assert "restored 1 queue, 1 message" in second.state_line
    second.stop(signum)


def test_serve_refuses_a_corrupt_state_file_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text('{"format": "pytest-fakesqs state", "version": 1, "queues": ')

    done = subprocess.run(
        [PYTHON, "-m", "pytest_fakesqs", "serve", "--port", "0", "--state", str(path)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )

    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"fakesqs: cannot start: state file {path}: not valid JSON")
    assert len(done.stderr.splitlines()) == 1
    assert path.read_text().endswith('"queues": ')  # left as it was, for its owner to look at


def test_serve_refuses_a_state_file_it_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "missing-folder" / "state.json"

    done = subprocess.run(
        [PYTHON, "-m", "pytest_fakesqs", "serve", "--port", "0", "--state", str(path)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )

    assert done.returncode == 1
    assert done.stderr.startswith(f"fakesqs: cannot start: state file {path}: cannot be written")


def test_a_running_move_task_goes_on_after_a_restore(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    with fake_sqs(start=START) as before:
        sqs = _client()
        made = _populate(sqs)
        arn = sqs.get_queue_attributes(QueueUrl=made["dlq"], AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
        for number in range(3):
            sqs.send_message(QueueUrl=made["dlq"], MessageBody=f"dead {number}")
        target = sqs.get_queue_attributes(QueueUrl=made["jobs"], AttributeNames=["QueueArn"])
        sqs.start_message_move_task(
            SourceArn=arn,
            DestinationArn=target["Attributes"]["QueueArn"],
            MaxNumberOfMessagesPerSecond=1,
        )
        before.advance(1.5)
        moved_before = len(before.queue("jobs-dlq").bodies())
        state.save(path, state.snapshot(before))

    with fake_sqs(start=START) as after:
        state.restore(after, state.load(path), path)
        sqs = _client()
        tasks = sqs.list_message_move_tasks(SourceArn=arn)["Results"]
        assert [task["Status"] for task in tasks] == ["RUNNING"]
        assert len(after.queue("jobs-dlq").bodies()) == moved_before

        after.advance(10)
        assert after.queue("jobs-dlq").bodies() == []
        assert sqs.list_message_move_tasks(SourceArn=arn)["Results"][0]["Status"] == "COMPLETED"
