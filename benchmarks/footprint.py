"""What Python code run between botocore's steps costs on the clock, against its cost alone.

    python benchmarks/footprint.py                  # 50 and 200 functions per call
    python benchmarks/footprint.py --functions 100 --samples 9

The botocore floor, and the floor with a `before-send` step that calls `functions` small,
distinct, generated functions on every call (a few dozen opcodes each, no memory kept) before
the canned answer: the same amount of extra code per call as a fake's layers run, but none of
a fake's data. Samples interleave as benchmarks/cycle.py's do. Printed: the time the step added
to a sample, the time the same calls take in a tight loop (hot caches and predictors), and the
factor between them. A factor above 1 is what code costs for being interleaved with botocore's
(its caches and branch predictors shared with a larger program); callgrind's instruction counts
and cache model (benchmarks/instructions.py) do not see it, so a fake's share of the floor by
the clock is about this factor times its share by instructions.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import cycle
import floor

_STATEMENTS = (
    "x = x + {a}",
    "x = (x * {a}) % 1009",
    "y = d.get({a}, {b})",
    "x ^= {b}",
    "if x > {c}: x -= {a}",
)
_LOOKUP = {i: i for i in range(100)}


def generated(count: int, *, seed: int = 1) -> list[Callable[[int, dict[int, int]], int]]:
    """`count` functions, each with its own bytecode (8 statements drawn from _STATEMENTS)."""
    chooser = random.Random(seed)
    functions = []
    for number in range(count):
        lines = [f"def f{number}(x, d):", "    y = 0"]
        for _ in range(8):
            a, b = chooser.randint(1, 99), chooser.randint(1, 99)
            lines.append("    " + chooser.choice(_STATEMENTS).format(a=a, b=b, c=5 * a))
        lines.append("    return x + y")
        namespace: dict[str, Any] = {}
        exec("\n".join(lines), namespace)  # our own generated source, nothing read in
        functions.append(namespace[f"f{number}"])
    return functions


def step(functions: list[Callable[[int, dict[int, int]], int]]) -> Callable[[], int]:
    def run_all() -> int:
        x = 1
        for function in functions:
            x = function(x, _LOOKUP)
        return x

    return run_all


@contextmanager
def _client(extra: Callable[[], int] | None) -> Iterator[tuple[Any, str]]:
    """The floor's client; with `extra`, its canned answer comes after that step."""
    client = cycle.make_client()
    canned = floor.CannedSqs(cycle.BODY)
    answer: Callable[..., Any] = canned
    if extra is not None:
        run_first = extra

        def step_then_canned(request: Any, **kwargs: Any) -> Any:
            run_first()
            return canned(request, **kwargs)

        answer = step_then_canned

    client.meta.events.register("before-send.sqs", answer)
    yield client, client.create_queue(QueueName="bench")["QueueUrl"]


def calls_per_sample(messages: int) -> int:
    """The floor's calls in one sample: per round, the sends, as many full receives and
    deletes, and the empty receive that ends it."""
    batches = -(-messages // floor.BATCH)
    return cycle.ROUNDS * (3 * batches + 1)


def measure(count: int, messages: int, samples: int) -> dict[str, float]:
    """Seconds per sample: the floor's, the step's addition to it, and the step alone."""
    extra = step(generated(count))
    factories = {"floor": lambda: _client(None), "with the step": lambda: _client(extra)}
    medians = cycle.measure(list(factories), messages, samples, factories)
    start = time.process_time()
    for _ in range(calls_per_sample(messages)):
        extra()
    alone = time.process_time() - start
    return {
        "floor": medians["floor"],
        "added": medians["with the step"] - medians["floor"],
        "alone": alone,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, action="append", help="per call (repeatable)")
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args(argv)
    for count in args.functions or [50, 200]:
        cost = measure(count, args.messages, args.samples)
        factor = cost["added"] / cost["alone"] if cost["alone"] else float("nan")
        print(
            f"{count} functions per call: floor {cost['floor']:.3f} s, added"
            f" {cost['added']:.3f} s ({cost['added'] / cost['floor']:.1%} of the floor),"
            f" alone {cost['alone']:.3f} s: {factor:.2f} x its cost alone",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
