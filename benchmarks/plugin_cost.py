"""What installing the plugin adds to a pytest run that has no SQS test at all.

    python benchmarks/plugin_cost.py            # 15 runs each way, interleaved
    python benchmarks/plugin_cost.py --runs 31

A small suite of plain tests (no fake) runs in a fresh interpreter with the plugin loaded as
installed, and with `-p no:fakesqs`; runs alternate so that a busy machine skews both alike. The
figure is the difference of the medians of wall time (what a developer waits for).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITE = "\n".join(f"def test_plain_{n}():\n    assert {n} + 1 == {n + 1}\n" for n in range(20))
# Other plugins are off both ways, so the figure is this plugin's alone.
COMMON = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]


def one_run(folder: Path, extra: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pytest", *COMMON, *extra],
        check=True,
        capture_output=True,
        cwd=folder,  # `-m` puts the working folder first on sys.path: a checkout must not be it
    )
    return time.perf_counter() - started


def measure(runs: int) -> dict[str, float]:
    """Median seconds of a run with the plugin, without it, and their difference."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        (path / "test_plain.py").write_text(SUITE)
        (path / "pytest.ini").write_text("[pytest]\n")
        one_run(path, [])  # warm the file system cache and the bytecode of both
        with_plugin, without = [], []
        for _ in range(runs):
            with_plugin.append(one_run(path, []))
            without.append(one_run(path, ["-p", "no:fakesqs"]))
    return {
        "with": statistics.median(with_plugin),
        "without": statistics.median(without),
        "added": statistics.median(with_plugin) - statistics.median(without),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs each way")
    parser.add_argument("--out", type=Path, help="also write the line to this file")
    args = parser.parse_args(argv)
    result = measure(args.runs)
    line = (
        f"pytest run of 20 plain tests: {result['without'] * 1000:.0f} ms without the plugin, "
        f"{result['with'] * 1000:.0f} ms with it: {result['added'] * 1000:+.1f} ms added "
        f"(medians of {args.runs} interleaved runs each; Python "
        f"{'.'.join(map(str, sys.version_info[:3]))})"
    )
    print(line)
    if args.out is not None:
        args.out.write_text(line + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
