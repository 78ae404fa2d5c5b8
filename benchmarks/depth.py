"""Per-operation cost against queue depth: the engine alone, and through boto3.

The queue is filled straight through the engine (fast), then a steady workload runs on top:
each round sends 10 messages one by one, receives 10 and deletes them one by one, so the
depth stays where it was filled.
"""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any

import checkout  # noqa: F401 - this checkout's package, not another copy

from pytest_fakesqs.engine import Broker, Clock, Outgoing, Queue, QueueSettings
from pytest_fakesqs.fake.facade import core_of

BODY = "x" * 100
OPERATIONS = ("send", "receive 10", "delete")


def fill(broker: Broker, queue: Queue, depth: int) -> None:
    outgoing = Outgoing(body=BODY, size=len(BODY), system={"SenderId": "AKIABENCHMARK"})
    for _ in range(depth):
        broker.send(queue, outgoing)


def engine_costs(depth: int, rounds: int, samples: int) -> dict[str, float]:
    """Median microseconds per operation at `depth` queued messages, engine only."""
    broker = Broker(Clock())
    queue = broker.create_queue(("us-east-1", "123456789012", "deep"), QueueSettings())
    fill(broker, queue, depth)
    outgoing = Outgoing(body=BODY, size=len(BODY), system={"SenderId": "AKIABENCHMARK"})

    def one_sample() -> dict[str, float]:
        spent = dict.fromkeys(OPERATIONS, 0.0)
        clock = time.process_time
        for _ in range(rounds):
            start = clock()
            for _ in range(10):
                broker.send(queue, outgoing)
            sent = clock()
            deliveries = broker.receive(queue, 10)
            received = clock()
            for delivery in deliveries:
                broker.delete(queue, delivery.receipt_handle)
            spent["send"] += sent - start
            spent["receive 10"] += received - sent
            spent["delete"] += clock() - received
        return _microseconds_per_call(spent, rounds)

    return _median_of(one_sample, samples)


def boto3_costs(depth: int, rounds: int, samples: int) -> dict[str, float]:
    """Median microseconds per boto3 call at `depth` queued messages, through the fake."""
    from cycle import make_client

    from pytest_fakesqs import fake_sqs

    with fake_sqs() as fake:
        client = make_client()
        url = client.create_queue(QueueName="deep")["QueueUrl"]
        fill(core_of(fake).broker, core_of(fake).broker.get(fake.key("deep")), depth)

        def one_sample() -> dict[str, float]:
            spent = dict.fromkeys(OPERATIONS, 0.0)
            clock = time.process_time
            for _ in range(rounds):
                start = clock()
                for _ in range(10):
                    client.send_message(QueueUrl=url, MessageBody=BODY)
                sent = clock()
                got: list[dict[str, Any]] = client.receive_message(
                    QueueUrl=url, MaxNumberOfMessages=10
                ).get("Messages", [])
                received = clock()
                for message in got:
                    client.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
                spent["send"] += sent - start
                spent["receive 10"] += received - sent
                spent["delete"] += clock() - received
            return _microseconds_per_call(spent, rounds)

        return _median_of(one_sample, samples)


def _microseconds_per_call(spent: dict[str, float], rounds: int) -> dict[str, float]:
    """Each round is 10 sends, one receive of 10 and 10 deletes."""
    return {
        "send": spent["send"] / (rounds * 10) * 1e6,
        "receive 10": spent["receive 10"] / rounds * 1e6,
        "delete": spent["delete"] / (rounds * 10) * 1e6,
    }


def per_op(costs: dict[str, float]) -> float:
    """Mean microseconds per call over one round (10 sends, 1 receive, 10 deletes)."""
    return (costs["send"] * 10 + costs["receive 10"] + costs["delete"] * 10) / 21


def _median_of(sample: Any, samples: int) -> dict[str, float]:
    gc.collect()
    sample()  # warm-up: first heap pops and dict growth after the fill
    results = [sample() for _ in range(samples)]
    return {op: statistics.median(r[op] for r in results) for op in OPERATIONS}
