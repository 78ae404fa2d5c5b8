"""The stress cycle in instructions: what 2,000 more messages cost, for the floor and the fake.

    python benchmarks/instructions.py              # both subjects (about 3 minutes on 2 cores)
    python benchmarks/instructions.py --only fake

CPU time on a shared machine moves by 0.15 x either way between processes; instruction counts do not.
Each subject runs under valgrind's callgrind twice, with 500 and with 2,500 messages per round
(3 rounds, `PYTHONHASHSEED=0`): the difference, divided by the rounds, is what one
2,000-message round costs, with interpreter start-up and imports cancelled out. Needs valgrind
(`apt-get install valgrind`); each run is a separate process, two at a time.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUBJECTS = {"floor": "botocore floor", "fake": "pytest-fakesqs"}
SIZES = (500, 2500)
_RUN = """
import sys
sys.path.insert(0, {here!r})
import cycle
with cycle.SUBJECTS[{subject!r}]() as (client, url):
    cycle.stress_cycle(client, url, 100)
    for _ in range(cycle.ROUNDS):
        assert cycle.stress_cycle(client, url, {messages}) == {messages}
"""


def instructions(subject: str, messages: int) -> int:
    """Instructions of one process that runs the cycle's ROUNDS rounds of `messages`."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        code = _RUN.format(here=str(HERE), subject=SUBJECTS[subject], messages=messages)
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        subprocess.run(
            [*command, sys.executable, "-c", code],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = re.search(r"^summary: (\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"callgrind wrote no summary for {subject} at {messages}")
        return int(found.group(1))


def per_round(subject: str) -> float:
    """Instructions one round of 2,000 more messages costs (millions)."""
    import cycle

    with ThreadPoolExecutor(max_workers=2) as pool:
        small, large = pool.map(lambda n: instructions(subject, n), SIZES)
    return (large - small) / cycle.ROUNDS / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SUBJECTS), help="one subject")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    chosen = [args.only] if args.only else list(SUBJECTS)
    costs = {subject: per_round(subject) for subject in chosen}
    for subject, cost in costs.items():
        print(f"{SUBJECTS[subject]}: {cost:,.0f} M instructions per 2,000-message round")
    if len(costs) == 2:
        print(f"ratio: {costs['fake'] / costs['floor']:.3f} x the botocore floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
