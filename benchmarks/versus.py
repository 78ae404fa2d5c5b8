"""The stress cycle for an earlier revision and the working tree, in one process, paired.

    python benchmarks/versus.py 76cd42a              # 30 samples of each, interleaved
    python benchmarks/versus.py HEAD --samples 40    # the same code twice: the method's noise

Two processes on a shared machine differ by more than most changes do (benchmarks/cycle.py's
ratio moved 1.24-1.44 between runs of one program here). So both versions run in one process:
the revision's package is exported with `git archive` into a temporary folder under another
name, and every sample of the floor is followed by one of each version (their order swapped
each time), each version's fake active only for its own sample. The figure is each version's
median over the floor's, and the median of the paired differences with its 95 % interval (from
the ordered differences, no assumption about their spread): a change is real when the interval
leaves out zero. Both versions patch botocore on their first start and stay patched, passing
calls on while inactive; run the revision against itself first to see what that and the
machine add. The working tree is the checkout this script is in, whatever copy of the package
the environment has installed; its last line says where it was imported from.
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from io import BytesIO
from pathlib import Path
from typing import Any

import checkout
import cycle
import floor
from checkout import PACKAGE, ROOT


def export(revision: str, into: Path) -> str:
    """The package at `revision`, importable from `into` under a name of its own."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", revision], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    name = f"fakesqs_at_{commit.strip()}"
    archive = subprocess.run(
        ["git", "archive", revision, PACKAGE], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    shutil.move(into / PACKAGE, into / name)
    word = re.compile(rf"\b{PACKAGE}\b")
    for source in (into / name).rglob("*.py"):
        source.write_text(word.sub(name, source.read_text()))
    return name


def _sampler(package: str, stack: ExitStack) -> Callable[[int], float]:
    """One sample of the cycle with `package`'s fake active, and only then (until `stack`
    closes)."""
    subject = stack.enter_context(cycle.fake_subject(importlib.import_module(package).fake_sqs))
    with subject.active():
        cycle.stress_cycle(subject.client, subject.queue_url, 100)  # warm caches

    def sample(messages: int) -> float:
        with subject.active():
            return cycle.time_sample(subject.client, subject.queue_url, messages)

    return sample


def measure(packages: list[str], messages: int, samples: int) -> dict[str, Any]:
    """Median ratios to the floor, and the paired differences of the first two packages."""
    floor_client = cycle.make_client()
    floor.install(floor_client, cycle.BODY)
    floors: list[float] = []
    times: dict[str, list[float]] = {package: [] for package in packages}
    with ExitStack() as stack:
        samplers = {package: _sampler(package, stack) for package in packages}
        cycle.stress_cycle(floor_client, floor.QUEUE_URL, 100)
        for index in range(samples):
            floors.append(cycle.time_sample(floor_client, floor.QUEUE_URL, messages))
            for package in packages if index % 2 == 0 else packages[::-1]:
                times[package].append(samplers[package](messages))
    base = statistics.median(floors)
    first, second = packages
    differences = sorted(
        (a - b) / f for a, b, f in zip(times[first], times[second], floors, strict=True)
    )
    low, high = median_interval(len(differences))
    return {
        "ratios": {package: statistics.median(times[package]) / base for package in packages},
        "difference": (differences[low], statistics.median(differences), differences[high]),
    }


def median_interval(count: int, confidence: float = 0.95) -> tuple[int, int]:
    """The positions, in `count` sorted samples, of a `confidence` interval for their median:
    the median lies below the k-th smallest of them with the probability that fewer than k of
    `count` fair coin flips come up heads."""
    tail = (1 - confidence) / 2
    below = 0.0
    k = 0
    while k < count // 2:
        chance = math.comb(count, k) / 2**count
        if below + chance > tail:
            break
        below += chance
        k += 1
    return max(k - 1, 0), min(count - k, count - 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="a commit, tag or branch to compare the working tree with")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args(argv)
    # The working tree's package (benchmarks/checkout.py put it first), not whichever copy the
    # environment installed: an editable install of another checkout would otherwise be
    # measured against the revision.
    working_tree = checkout.imported_from()
    if working_tree != ROOT / PACKAGE:
        raise SystemExit(f"{PACKAGE} was imported from {working_tree}, not from {ROOT}")
    with tempfile.TemporaryDirectory() as folder:
        earlier = export(args.revision, Path(folder))
        sys.path.insert(0, folder)
        result = measure([earlier, PACKAGE], args.messages, args.samples)
    for package, ratio in result["ratios"].items():
        print(f"{package}: {ratio:.3f} x the floor")
    low, middle, high = result["difference"]
    print(
        f"{args.revision} minus the working tree, per sample over the floor's: median "
        f"{middle:+.3f} (95 % interval {low:+.3f} to {high:+.3f})"
    )
    print(f"the working tree: {working_tree}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
