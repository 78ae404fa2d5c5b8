"""The fake's wire handler per call, inside the stress cycle and replayed back to back.

    python benchmarks/in_situ.py             # 3 samples of the cycle, then 7 replays
    python benchmarks/in_situ.py --samples 5

Inside the cycle, botocore's ~250 us of work runs between two calls the fake answers, and
leaves little of the fake's code and data in the CPU's caches; replayed back to back, the same
requests find them warm. The factor between the two medians is what the instruction count
(benchmarks/instructions.py) cannot see: why the cycle's CPU ratio sits above its instruction
ratio, and why trimming what each call touches pays more than its instructions suggest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import cycle

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.protocol import WireHandler, WireRequest
from pytest_fakesqs.transport.serving import current_handler

ACTIONS = ("SendMessageBatch", "ReceiveMessage", "DeleteMessageBatch")
REPLAYS = 200  # calls of each action per replay


def _timed(handler: WireHandler, spent: dict[str, list[float]]) -> Any:
    """`handler.handle`, noting each call's seconds under its action."""
    handle = handler.handle

    def timed(request: WireRequest) -> Any:
        start = time.perf_counter()
        response = handle(request)
        seconds = time.perf_counter() - start
        action = request.headers["x-amz-target"].rpartition(".")[2]
        spent.setdefault(action, []).append(seconds)
        return response

    return timed


def _replayed(
    handler: WireHandler, requests: dict[str, WireRequest], url: str, calls: int
) -> dict[str, float]:
    """Seconds per call of each action, `calls` calls of one action after another."""
    seconds: dict[str, float] = {}
    send, receive, delete = (requests[action] for action in ACTIONS)
    start = time.perf_counter()
    for _ in range(calls):
        handler.handle(send)
    seconds["SendMessageBatch"] = (time.perf_counter() - start) / calls
    start = time.perf_counter()
    answers = [handler.handle(receive) for _ in range(calls)]
    seconds["ReceiveMessage"] = (time.perf_counter() - start) / calls
    deletes = [
        WireRequest(
            delete.method,
            delete.url,
            delete.headers,
            json.dumps({"QueueUrl": url, "Entries": _entries(answer.body)}).encode(),
        )
        for answer in answers
    ]
    start = time.perf_counter()
    for request in deletes:
        handler.handle(request)
    seconds["DeleteMessageBatch"] = (time.perf_counter() - start) / calls
    return seconds


def _entries(body: bytes) -> list[dict[str, str]]:
    messages = json.loads(body)["Messages"]
    return [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)]


def measure(
    samples: int, replays: int, *, messages: int = 2000, calls: int = REPLAYS
) -> dict[str, tuple[float, float]]:
    """Per action: (median us inside the cycle, lower quartile us replayed back to back)."""
    spent: dict[str, list[float]] = {}
    with fake_sqs():
        client = cycle.make_client()
        url = client.create_queue(QueueName="bench")["QueueUrl"]
        handler = current_handler()
        assert handler is not None
        captured: dict[str, WireRequest] = {}
        handle = handler.handle

        def capture(request: WireRequest) -> Any:
            captured.setdefault(request.headers["x-amz-target"].rpartition(".")[2], request)
            return handle(request)

        handler.handle = capture  # type: ignore[method-assign]
        cycle.stress_cycle(client, url, 100)  # warm up, and keep one request of each action
        handler.handle = _timed(handler, spent)  # type: ignore[method-assign]
        for _ in range(samples):
            cycle.time_sample(client, url, messages)
        handler.handle = handle  # type: ignore[method-assign]
        rounds = [_replayed(handler, captured, url, calls) for _ in range(replays)]
    return {
        action: (
            statistics.median(spent[action]) * 1e6,
            statistics.quantiles([r[action] for r in rounds], n=4, method="inclusive")[0] * 1e6,
        )
        for action in ACTIONS
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=3, help="cycle samples (3 rounds each)")
    parser.add_argument("--replays", type=int, default=7, help="back-to-back replays")
    args = parser.parse_args(argv)
    results = measure(args.samples, args.replays)
    print(f"{'action':<20} {'in the cycle':>13} {'back to back':>13} {'factor':>7}")
    for action, (inside, replayed) in results.items():
        print(f"{action:<20} {inside:>10.1f} us {replayed:>10.1f} us {inside / replayed:>6.2f}x")
    inside = sum(values[0] for values in results.values())
    replayed = sum(values[1] for values in results.values())
    print(f"{'all three':<20} {inside:>10.1f} us {replayed:>10.1f} us {inside / replayed:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
