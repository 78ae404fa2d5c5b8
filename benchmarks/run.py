"""One command for every number in the README's Performance section.

    python benchmarks/run.py            # full run (a few minutes; moto alone takes ~1.5 min)
    python benchmarks/run.py --quick    # smaller sizes, no moto: a smoke run

Needs the `bench` dependency group (`pip install -e . --group bench`) for moto and the chart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cycle
import depth
import memory
import plugin_cost
import report

RESULTS = Path(__file__).resolve().parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, no moto")
    parser.add_argument("--no-moto", action="store_true", help="skip the moto comparison")
    parser.add_argument("--samples", type=int, default=5, help="samples per median")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where results are written")
    args = parser.parse_args(argv)
    quick = args.quick
    messages = 200 if quick else 2000
    moto_messages = 1000
    engine_depths = [10**3, 10**4] if quick else [10**3, 10**4, 10**5, 10**6]
    boto3_depths = [10**3] if quick else [10**3, 10**4, 10**5]
    results = report.Results(messages=messages, moto_messages=moto_messages)

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    say(f"stress cycle: botocore floor and pytest-fakesqs, {messages} messages")
    results.cycle_seconds.update(
        cycle.measure(["botocore floor", "pytest-fakesqs"], messages, args.samples)
    )
    if not (quick or args.no_moto):
        say(f"stress cycle: pytest-fakesqs, {moto_messages} messages")
        fake = cycle.measure(["pytest-fakesqs"], moto_messages, args.samples)
        results.fake_at_moto_size = fake["pytest-fakesqs"]
        say(f"stress cycle: moto mock_aws, {moto_messages} messages (slow)")
        results.cycle_seconds.update(cycle.measure(["moto mock_aws"], moto_messages, 1))
    for depth_value in engine_depths:
        say(f"engine at depth {depth_value:,}")
        results.engine[depth_value] = depth.engine_costs(depth_value, 200, args.samples)
    for depth_value in boto3_depths:
        say(f"boto3 at depth {depth_value:,}")
        results.boto3[depth_value] = depth.boto3_costs(depth_value, 20, args.samples)
    say("memory per queued message")
    results.bytes_per_message = memory.bytes_per_message(2_000 if quick else 20_000)
    say("what the plugin adds to a pytest run without SQS tests")
    results.plugin_cost = plugin_cost.measure(3 if quick else 15)

    command = "python benchmarks/run.py" + (" --quick" if quick else "")
    table = report.markdown(results, command)
    print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    name = "quick" if quick else "results"
    (args.out / f"{name}.md").write_text(table, encoding="utf-8")
    if report.chart(results, args.out / f"{name}.png"):
        say(f"wrote {args.out / (name + '.md')} and {name}.png")
    else:
        say(f"wrote {args.out / (name + '.md')}; install the `bench` group for the chart")
    return 0


if __name__ == "__main__":
    sys.exit(main())
