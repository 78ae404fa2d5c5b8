"""The stress cycle in instructions: what 2,000 more messages cost, for the floor and the fake.

    python benchmarks/instructions.py              # both subjects (about 3 minutes on 2 cores)
    python benchmarks/instructions.py --only fake
    python benchmarks/instructions.py --cache      # also cache misses (about 5 minutes)

CPU time on a shared machine moves by 0.15 x either way between processes; instruction counts do not.
Each subject runs under valgrind's callgrind twice, with 500 and with 2,500 messages per round
(3 rounds, `PYTHONHASHSEED=0`, address randomisation off where `setarch -R` can turn it off):
the difference, divided by the rounds, is what one 2,000-message round costs, with interpreter
start-up and imports cancelled out. What exists after the warm-up is frozen (`gc.freeze()`): a
full collection walks every object, and where one lands depends on everything the process
imported, which moved the floor's count by 10 M and its misses by 2 x between two programs
that differ only in an unused import; the collections a subject's own objects bring are still
counted (a sample's median in benchmarks/run.py has none of the rare full ones either). Needs
valgrind (`apt-get install valgrind`); each run is a separate process, two at a time.

`--cache` adds callgrind's cache simulation with the project machine's caches per core (lscpu:
32 KiB L1i, 48 KiB L1d, 1 MiB L2, the L2 as the simulated last level): misses per round and
kcachegrind's cycle estimate (instructions + 10 per first-level miss + 100 per last-level
miss). Instructions alone miss what a cold cache costs (benchmarks/in_situ.py): the estimate
does not. Without `setarch -R`, where a run's memory lands moves its misses by up to 2 x.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUBJECTS = {"floor": "botocore floor", "fake": "pytest-fakesqs"}
SIZES = (500, 2500)
_RUN = """
import gc
import sys
sys.path.insert(0, {here!r})
import cycle
with cycle.SUBJECTS[{subject!r}]() as made:
    client, url, active = cycle.Subject(*made)
    with active():
        cycle.stress_cycle(client, url, 100)
        gc.collect()
        gc.freeze()
        for _ in range(cycle.ROUNDS):
            assert cycle.stress_cycle(client, url, {messages}) == {messages}
"""


# The project machine's caches per core (lscpu): size, associativity, line size.
CACHES = ("--I1=32768,8,64", "--D1=49152,12,64", "--LL=1048576,16,64")
FIRST_LEVEL_MISSES = ("I1mr", "D1mr", "D1mw")
LAST_LEVEL_MISSES = ("ILmr", "DLmr", "DLmw")


def events(subject: str, messages: int, *, cache: bool = False) -> dict[str, int]:
    """callgrind's totals (Ir, and with `cache` the misses) of one process that runs the
    cycle's ROUNDS rounds of `messages`."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        code = _RUN.format(here=str(HERE), subject=SUBJECTS[subject], messages=messages)
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        if cache:
            command += ["--cache-sim=yes", *CACHES]
        if shutil.which("setarch"):  # the same addresses every run: reproducible misses
            command = ["setarch", os.uname().machine, "-R", *command]
        subprocess.run(
            [*command, sys.executable, "-c", code],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        text = out.read_text()
        names = re.search(r"^events: (.+)$", text, re.MULTILINE)
        totals = re.search(r"^summary: (.+)$", text, re.MULTILINE)
        if names is None or totals is None:
            raise RuntimeError(f"callgrind wrote no summary for {subject} at {messages}")
        return dict(zip(names.group(1).split(), map(int, totals.group(1).split()), strict=True))


def per_round(subject: str, *, cache: bool = False) -> dict[str, float]:
    """What one round of 2,000 more messages costs (millions): instructions, and with `cache`
    first- and last-level misses and the cycle estimate."""
    import cycle

    with ThreadPoolExecutor(max_workers=2) as pool:
        small, large = pool.map(lambda n: events(subject, n, cache=cache), SIZES)
    cost = {name: (large[name] - small[name]) / cycle.ROUNDS / 1e6 for name in small}
    result = {"instructions": cost["Ir"]}
    if cache:
        first = sum(cost[name] for name in FIRST_LEVEL_MISSES)
        last = sum(cost[name] for name in LAST_LEVEL_MISSES)
        result["first-level misses"] = first
        result["last-level misses"] = last
        result["estimated cycles"] = cost["Ir"] + 10 * first + 100 * last
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SUBJECTS), help="one subject")
    parser.add_argument(
        "--cache", action="store_true", help="simulate the caches too: misses, cycle estimate"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    chosen = [args.only] if args.only else list(SUBJECTS)
    costs = {subject: per_round(subject, cache=args.cache) for subject in chosen}
    for subject, cost in costs.items():
        line = f"{SUBJECTS[subject]}: {cost['instructions']:,.0f} M instructions"
        if args.cache:
            line += (
                f", {cost['first-level misses']:.2f} M first-level and"
                f" {cost['last-level misses']:.3f} M last-level misses,"
                f" {cost['estimated cycles']:,.0f} M estimated cycles"
            )
        print(line + " per 2,000-message round")
    if len(costs) == 2:
        for measure in costs["fake"]:
            ratio = costs["fake"][measure] / costs["floor"][measure]
            print(f"{measure}: {ratio:.3f} x the botocore floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
