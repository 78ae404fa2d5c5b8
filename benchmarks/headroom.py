"""How far pytest-fakesqs is from the least any in-process fake must cost, on the stress cycle.

    python benchmarks/headroom.py               # 5 runs of 5 interleaved samples each
    python benchmarks/headroom.py --runs 9

Five subjects, their samples interleaved as benchmarks/cycle.py interleaves them: the botocore
floor (nothing computes an answer), the bare fake of benchmarks/bare.py (parses, makes ids,
MD5s and handles, queues in a deque, encodes: the cycle's own work and nothing else), the same
keeping each call's request and answer bytes (what a complete call log holds), pytest-fakesqs
remembering only the last 1,000 finished messages and calls (`history_limit=1000`: what
keeping everything costs a loop this long), and pytest-fakesqs as a test gets it. Each run
prints every subject's ratio to the floor; the next line, the medians over the runs; the last,
where the package measured came from. A goal set against the floor is only as reachable as the
bare fake's ratio leaves room for: what lies between it and pytest-fakesqs is the price of
validation, the engine's model of visibility and retention, histories, the call log and the
guard.
"""

from __future__ import annotations

import argparse
import statistics

import checkout
import cycle

SUBJECTS = [
    "botocore floor",
    "bare fake",
    "bare fake + call log",
    "pytest-fakesqs, history_limit=1000",
    "pytest-fakesqs",
]


def ratios(messages: int, samples: int) -> dict[str, float]:
    """Each subject's median sample over the floor's, from one interleaved measurement."""
    medians = cycle.measure(SUBJECTS, messages, samples)
    floor = medians["botocore floor"]
    return {name: medians[name] / floor for name in SUBJECTS[1:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args(argv)
    runs = []
    for number in range(1, args.runs + 1):
        runs.append(ratios(args.messages, args.samples))
        cells = ", ".join(f"{name} {ratio:.3f} x" for name, ratio in runs[-1].items())
        print(f"run {number}: {cells}", flush=True)
    medians = {name: statistics.median(run[name] for run in runs) for name in SUBJECTS[1:]}
    print("median: " + ", ".join(f"{name} {ratio:.3f} x" for name, ratio in medians.items()))
    print(f"pytest-fakesqs from {checkout.imported_from()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
