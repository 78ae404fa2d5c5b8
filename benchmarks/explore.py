"""How many fault schedules a Hypothesis test explores per second, fake start included.

    python benchmarks/explore.py                     # 300 schedules, 3 samples
    python benchmarks/explore.py --schedules 1000 --samples 5
    python benchmarks/explore.py --profile           # where one run's time goes (cProfile)

The test is the one docs/exploring-faults.md starts with: an idempotent consumer of two
payments under `@given(schedule=fault_schedules())`. Each example starts a fake of its own
(`fake_sqs(faults=schedule)`), declares the queue, sends two messages through boto3 and lets
the consumer drain them, whatever the schedule does (duplicates, other orders, empty polls,
throttling and 5xx errors botocore retries). The boto3 client is made once, as a test module
would. The figures are medians of the samples, of the wall clock and of this process's CPU time
(on a shared machine the CPU time is the steadier of the two).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from typing import Any

import boto3
import checkout  # noqa: F401 - this checkout's package, not another copy
from hypothesis import Phase, given, settings

from pytest_fakesqs import FakeSQS, fake_sqs
from pytest_fakesqs.strategies import FaultSchedule, fault_schedules

SQS = boto3.client(
    "sqs", region_name="us-east-1", aws_access_key_id="bench", aws_secret_access_key="bench"
)
PAYMENTS = (("req-1", 30), ("req-2", 12))


def consume_two_payments(fake: FakeSQS) -> dict[str, int]:
    """The consumer under test: applies each payment once, keyed by its request id."""
    url = fake.create_queue("payments")
    for request_id, amount in PAYMENTS:
        body = json.dumps({"request_id": request_id, "amount": amount})
        SQS.send_message(QueueUrl=url, MessageBody=body)
    balance = {"alice": 0}
    applied: set[str] = set()

    def step() -> None:
        for message in SQS.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get(
            "Messages", []
        ):
            payment = json.loads(message["Body"])
            if payment["request_id"] not in applied:
                applied.add(payment["request_id"])
                balance["alice"] += payment["amount"]
            SQS.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

    fake.run_until_idle(step)
    return balance


def explore(schedules: int) -> tuple[float, float]:
    """Seconds to explore `schedules` schedules, of the wall clock and of this process's CPU
    (generation only: the test passes)."""
    explored: list[FaultSchedule] = []

    @settings(max_examples=schedules, deadline=None, database=None, phases=[Phase.generate])
    @given(schedule=fault_schedules())
    def applies_each_payment_once(schedule: FaultSchedule) -> None:
        with fake_sqs(faults=schedule) as fake:
            assert consume_two_payments(fake) == {"alice": 42}
        explored.append(schedule)

    started, cpu_started = time.perf_counter(), time.process_time()
    applies_each_payment_once()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    assert len(explored) == schedules, f"explored {len(explored)} of {schedules}"
    return elapsed, cpu


def fake_starts(runs: int) -> float:
    """Seconds for `runs` fakes to start, declare the queue and stop: each example's set-up."""
    started = time.perf_counter()
    for _ in range(runs):
        with fake_sqs(faults=FaultSchedule()) as fake:
            fake.create_queue("payments")
    return time.perf_counter() - started


def measure(schedules: int, samples: int) -> dict[str, Any]:
    explore(20)  # warm up: imports, botocore's loaders, Hypothesis' own set-up
    runs = [explore(schedules) for _ in range(samples)]
    seconds = statistics.median(wall for wall, _ in runs)
    start = statistics.median(fake_starts(schedules) for _ in range(samples))
    return {
        "schedules": schedules,
        "seconds": seconds,
        "cpu_seconds": statistics.median(cpu for _, cpu in runs),
        "per_second": schedules / seconds,
        "ms_per_schedule": 1000 * seconds / schedules,
        "ms_per_fake_start": 1000 * start / schedules,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", type=int, default=300, help="schedules per sample")
    parser.add_argument("--samples", type=int, default=3, help="samples for the median")
    parser.add_argument("--profile", action="store_true", help="profile one sample instead")
    args = parser.parse_args(argv)
    if args.profile:
        explore(20)
        profiler = cProfile.Profile()
        profiler.runcall(explore, args.schedules)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(40)
        return 0
    result = measure(args.schedules, args.samples)
    print(
        f"fault schedules explored: {result['schedules']} in {result['seconds']:.2f} s, "
        f"{result['cpu_seconds']:.2f} s of CPU "
        f"({result['per_second']:.0f} per second, {result['ms_per_schedule']:.1f} ms each, "
        f"fake start included; a fake's start and stop alone: {result['ms_per_fake_start']:.2f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
