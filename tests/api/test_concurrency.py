"""The concurrency stress, smaller, through real boto3 clients on the real clock."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS

from .conftest import make_client

PRODUCERS = 4
CONSUMERS = 4
MESSAGES = 2_000
DEADLINE_SECONDS = 45.0  # real-time: past this the run is declared stuck and fails


@pytest.mark.fakesqs(clock="real")
def test_boto3_producers_and_consumers_deliver_every_message_once(fakesqs: FakeSQS) -> None:
    # Clients are made here: creating boto3 clients is not thread-safe, using them is.
    url = make_client().create_queue(QueueName="stress", Attributes={"VisibilityTimeout": "300"})[
        "QueueUrl"
    ]
    producers = [make_client() for _ in range(PRODUCERS)]
    consumers = [make_client() for _ in range(CONSUMERS)]
    lock = threading.Lock()
    holders: dict[str, int] = {}
    deleted: set[str] = set()
    problems: list[str] = []
    done = threading.Event()

    def produce(index: int, client: Any) -> None:
        try:
            per_producer = MESSAGES // PRODUCERS
            for start in range(0, per_producer, 10):
                client.send_message_batch(
                    QueueUrl=url,
                    Entries=[
                        {"Id": str(i), "MessageBody": f"p{index}-{start + i}"} for i in range(10)
                    ],
                )
        except Exception as exc:  # reported by the main thread
            problems.append(f"producer {index}: {exc!r}")

    def consume(index: int, client: Any) -> None:
        try:
            while not done.is_set():
                got = client.receive_message(
                    QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1
                ).get("Messages", [])
                with lock:
                    for message in got:
                        if message["MessageId"] in holders:
                            problems.append(f"{message['MessageId']} held twice")
                        holders[message["MessageId"]] = index
                if not got:
                    continue
                answer = client.delete_message_batch(
                    QueueUrl=url,
                    Entries=[
                        {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                        for i, m in enumerate(got)
                    ],
                )
                if answer.get("Failed"):
                    problems.append(f"consumer {index}: failed deletes {answer['Failed']}")
                with lock:
                    for message in got:
                        del holders[message["MessageId"]]
                        deleted.add(message["Body"])
                    if len(deleted) == MESSAGES:
                        done.set()
        except Exception as exc:
            problems.append(f"consumer {index}: {exc!r}")

    threads = [
        threading.Thread(target=produce, args=(i, client)) for i, client in enumerate(producers)
    ] + [threading.Thread(target=consume, args=(i, client)) for i, client in enumerate(consumers)]
    for thread in threads:
        thread.start()
    finished = done.wait(timeout=DEADLINE_SECONDS)  # real-time: threads on the real clock
    done.set()
    for thread in threads:
        thread.join(timeout=5)  # real-time: a bounded join; a stuck thread fails the test
    assert [t.name for t in threads if t.is_alive()] == []
    assert problems == []
    assert finished, f"only {len(deleted)} of {MESSAGES} messages were deleted in time"
    assert deleted == {f"p{p}-{i}" for p in range(PRODUCERS) for i in range(MESSAGES // PRODUCERS)}
    backlog = fakesqs.queue("stress").backlog()
    assert (backlog.count, backlog.in_flight, backlog.delayed) == (0, 0, 0)
