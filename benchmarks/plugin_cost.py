"""What installing the plugin adds to a pytest run that has no SQS test at all.

    python benchmarks/plugin_cost.py                 # 21 runs each way, interleaved
    python benchmarks/plugin_cost.py --runs 31
    python benchmarks/plugin_cost.py --all-plugins   # every installed plugin loaded both ways
    python benchmarks/plugin_cost.py --no-bytecode   # nothing cached: every module compiled

A small suite of plain tests (no fake) runs in a fresh interpreter with the plugin and without
it, as a plain `pytest` (header included: the plugin writes a line of it); runs alternate so
that a busy machine skews both alike. By default no other plugin loads
(PYTEST_DISABLE_PLUGIN_AUTOLOAD), and the plugin is loaded with `-p pytest_fakesqs.plugin` one
way and an empty module with `-p` the other: `-p` (as PYTEST_PLUGINS) also makes pytest read
every installed distribution's entry points, a cost of loading anything that way, which a run
that autoloads its plugins pays whether or not this one is installed. The figure is this
plugin's alone: it pays for every module it imports, even those another plugin would have
loaded anyway. With --all-plugins every installed plugin loads both ways and the plugin is
switched off with `-p no:fakesqs`, as a venv with the usual test libraries runs (their own cost,
and its noise, is then in both).

Bytecode: a first run writes what is not cached yet (even under PYTHONDONTWRITEBYTECODE), as the
first run after an install does, and the runs measured read it, as an installed plugin's runs
do (pip compiles at install). --no-bytecode measures a run that finds nothing cached and may
write nothing (a checkout, or an image built with PYTHONDONTWRITEBYTECODE and an installer that
does not compile): every module is compiled on every run, pytest's both ways, the plugin's in one.

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
from dataclasses import dataclass
from pathlib import Path

SUITE = "\n".join(f"def test_plain_{n}():\n    assert {n} + 1 == {n + 1}\n" for n in range(20))
# Plugins that would change what a run does (its order, its workers, its cache) are off both ways.
COMMON = ["-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]


@dataclass(frozen=True)
class Way:
    """How one run is started: its pytest arguments, and whether installed plugins load."""

    arguments: tuple[str, ...] = ()
    autoload: bool = True


NOOP_PLUGIN = "fakesqs_bench_empty_plugin"  # an empty module in the run's folder
# (with the plugin, without it)
ALONE = (
    Way(arguments=("-p", "pytest_fakesqs.plugin"), autoload=False),
    Way(arguments=("-p", NOOP_PLUGIN), autoload=False),
)
ALL_PLUGINS = (Way(), Way(arguments=("-p", "no:fakesqs")))


def one_run(folder: Path, way: Way, *, bytecode: str | None = "read") -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one pytest run in a fresh interpreter. `bytecode`: "read"
    (what is cached), "write" (also cache what is not) or None (compile everything, cache
    nothing: a private empty cache folder, writing off)."""
    env = dict(os.environ)
    for name in ("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_PLUGINS", "PYTHONPYCACHEPREFIX"):
        env.pop(name, None)
    if not way.autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    if bytecode == "write":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    elif bytecode is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = str(folder / "no-bytecode")
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *COMMON, *way.arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=folder,  # `-m` puts the working folder first on sys.path: a checkout must not be it
        env=env,
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"pytest ({way}) exited with {process.returncode}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started


def lower_quartile(values: list[float]) -> float:
    return statistics.quantiles(values, n=4)[0] if len(values) > 1 else values[0]


def measure(runs: int, *, all_plugins: bool = False, bytecode: bool = True) -> dict[str, float]:
    """CPU seconds of a run with the plugin, without it, and the difference (lower quartiles)."""
    on, off = ALL_PLUGINS if all_plugins else ALONE
    reading = "read" if bytecode else None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        (path / "test_plain.py").write_text(SUITE)
        (path / "pytest.ini").write_text("[pytest]\n")
        (path / f"{NOOP_PLUGIN}.py").write_text('"""Loaded as the plugin is, doing nothing."""\n')
        for way in (on, off):  # warm the file system cache (and, with bytecode, write it)
            one_run(path, way, bytecode="write" if bytecode else None)
        with_plugin, without = [], []
        for _ in range(runs):
            with_plugin.append(one_run(path, on, bytecode=reading)[0])
            without.append(one_run(path, off, bytecode=reading)[0])
    low_with, low_without = lower_quartile(with_plugin), lower_quartile(without)
    return {"with": low_with, "without": low_without, "added": low_with - low_without}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs each way")
    parser.add_argument(
        "--all-plugins", action="store_true", help="load every installed plugin both ways"
    )
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="find no cached bytecode and write none: every module compiled on every run",
    )
    parser.add_argument("--out", type=Path, help="also write the line to this file")
    args = parser.parse_args(argv)
    result = measure(args.runs, all_plugins=args.all_plugins, bytecode=not args.no_bytecode)
    others = "every installed plugin loaded" if args.all_plugins else "no other plugin loaded"
    if args.no_bytecode:
        others += ", no bytecode cached"
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
