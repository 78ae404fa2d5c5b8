"""What installing the plugin adds to a pytest run that has no SQS test at all.

    python benchmarks/plugin_cost.py                 # 15 runs each way, interleaved
    python benchmarks/plugin_cost.py --runs 31
    python benchmarks/plugin_cost.py --all-plugins   # every installed plugin loaded both ways

A small suite of plain tests (no fake) runs in a fresh interpreter with the plugin and without
it; runs alternate so that a busy machine skews both alike. By default no other plugin loads
(PYTEST_DISABLE_PLUGIN_AUTOLOAD, the plugin given with `-p`): the figure is this plugin's alone,
and it pays for every module it imports, even those another plugin would have loaded anyway.
With --all-plugins every installed plugin loads both ways and the plugin is switched off with
`-p no:fakesqs`, as a venv with the usual test libraries runs (their own cost, and its noise,
is then in both).

The figure is the CPU time (user + system) of each run's interpreter, as the OS counts it: the
difference of the lower quartiles of the two ways. CPU time, not wall time, because a shared
machine stretches the wall clock of a run by whatever else runs; the lower quartile, because
noise only ever adds time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITE = "\n".join(f"def test_plain_{n}():\n    assert {n} + 1 == {n + 1}\n" for n in range(20))
# Other plugins are off both ways, so the figure is this plugin's alone.
COMMON = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]


# (arguments with the plugin, arguments without it, whether other plugins load)
ALONE = (["-p", "pytest_fakesqs.plugin"], [], False)
ALL_PLUGINS = ([], ["-p", "no:fakesqs"], True)


def one_run(folder: Path, extra: list[str], autoload: bool = True) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one pytest run in a fresh interpreter."""
    env = dict(os.environ)
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *COMMON, *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=folder,  # `-m` puts the working folder first on sys.path: a checkout must not be it
        env=env,
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"pytest {' '.join(extra)} exited with {process.returncode}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started


def lower_quartile(values: list[float]) -> float:
    return statistics.quantiles(values, n=4)[0] if len(values) > 1 else values[0]


def measure(runs: int, *, all_plugins: bool = False) -> dict[str, float]:
    """CPU seconds of a run with the plugin, without it, and the difference (lower quartiles)."""
    on, off, autoload = ALL_PLUGINS if all_plugins else ALONE
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        (path / "test_plain.py").write_text(SUITE)
        (path / "pytest.ini").write_text("[pytest]\n")
        one_run(path, on, autoload)  # warm the file system cache
        with_plugin, without = [], []
        for _ in range(runs):
            with_plugin.append(one_run(path, on, autoload)[0])
            without.append(one_run(path, off, autoload)[0])
    low_with, low_without = lower_quartile(with_plugin), lower_quartile(without)
    return {"with": low_with, "without": low_without, "added": low_with - low_without}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs each way")
    parser.add_argument(
        "--all-plugins", action="store_true", help="load every installed plugin both ways"
    )
    parser.add_argument("--out", type=Path, help="also write the line to this file")
    args = parser.parse_args(argv)
    result = measure(args.runs, all_plugins=args.all_plugins)
    others = "every installed plugin loaded" if args.all_plugins else "no other plugin loaded"
    line = (
        f"pytest run of 20 plain tests ({others}): {result['without'] * 1000:.0f} ms of CPU "
        f"without the plugin, {result['with'] * 1000:.0f} ms with it: "
        f"{result['added'] * 1000:+.1f} ms added (lower quartiles of {args.runs} interleaved "
        f"runs each; Python {'.'.join(map(str, sys.version_info[:3]))})"
    )
    print(line)
    if args.out is not None:
        args.out.write_text(line + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
