"""The benchmark's results: targets, the markdown table and the PNG chart."""

from __future__ import annotations

import platform
from dataclasses import dataclass, field
from pathlib import Path

import botocore

# The claims the README makes; a run reports each as met or missed.
MAX_FAKE_OVER_FLOOR = 1.3
MIN_MOTO_OVER_FAKE = 300.0
MAX_ENGINE_GROWTH = 1.3
MAX_BYTES_PER_MESSAGE = 1024.0
MAX_PLUGIN_COST_MS = 15.0


@dataclass
class Results:
    messages: int
    moto_messages: int
    cycle_seconds: dict[str, float] = field(default_factory=dict)  # subject -> median
    fake_at_moto_size: float | None = None
    engine: dict[int, dict[str, float]] = field(default_factory=dict)  # depth -> op -> µs
    boto3: dict[int, dict[str, float]] = field(default_factory=dict)
    bytes_per_message: float = 0.0
    plugin_cost: dict[str, float] | None = None  # with / without / added, seconds

    def fake_over_floor(self) -> float:
        return self.cycle_seconds["pytest-fakesqs"] / self.cycle_seconds["botocore floor"]

    def moto_over_fake(self) -> float | None:
        moto = self.cycle_seconds.get("moto mock_aws")
        if moto is None or self.fake_at_moto_size is None:
            return None
        return moto / self.fake_at_moto_size

    def engine_growth(self) -> float | None:
        from depth import per_op

        if len(self.engine) < 2:
            return None
        depths = sorted(self.engine)
        return per_op(self.engine[depths[-1]]) / per_op(self.engine[depths[0]])


def _verdict(met: bool) -> str:
    return "met" if met else "**missed**"


def _depth_table(title: str, rows: dict[int, dict[str, float]]) -> list[str]:
    from depth import OPERATIONS, per_op

    lines = [
        f"| {title} | " + " | ".join(f"{op} (µs)" for op in OPERATIONS) + " | per op (µs) |",
        "|---:|" + "---:|" * (len(OPERATIONS) + 1),
    ]
    for depth_value in sorted(rows):
        costs = rows[depth_value]
        cells = " | ".join(f"{costs[op]:.1f}" for op in OPERATIONS)
        lines.append(f"| {depth_value:,} | {cells} | {per_op(costs):.1f} |")
    return lines


def markdown(results: Results, command: str) -> str:
    lines = [
        f"Python {platform.python_version()}, botocore {botocore.__version__}, "
        f"{platform.machine()}; medians. Reproduce: `{command}`.",
        "",
        f"**Stress cycle** ({results.messages:,} messages sent in batches of 10, received 10 at "
        "a time and deleted in batches until empty, 3 rounds):",
        "",
        "| subject | messages | seconds | ratio |",
        "|---|---:|---:|---|",
    ]
    floor = results.cycle_seconds["botocore floor"]
    fake = results.cycle_seconds["pytest-fakesqs"]
    lines.append(f"| botocore floor | {results.messages:,} | {floor:.3f} | 1 |")
    lines.append(
        f"| pytest-fakesqs | {results.messages:,} | {fake:.3f} | "
        f"{results.fake_over_floor():.2f} x floor |"
    )
    moto_ratio = results.moto_over_fake()
    if moto_ratio is not None and results.fake_at_moto_size is not None:
        lines.append(
            f"| pytest-fakesqs | {results.moto_messages:,} | {results.fake_at_moto_size:.3f} | |"
        )
        lines.append(
            f"| moto mock_aws | {results.moto_messages:,} | "
            f"{results.cycle_seconds['moto mock_aws']:.2f} | {moto_ratio:,.0f} x pytest-fakesqs |"
        )
    lines += ["", "**Per-operation cost against queue depth**:", ""]
    lines += _depth_table("engine: depth", results.engine)
    lines.append("")
    lines += _depth_table("boto3: depth", results.boto3)
    lines += [
        "",
        f"**Memory**: {results.bytes_per_message:,.0f} bytes per queued 100-byte message "
        "(tracemalloc, SendMessage through the api layer).",
        *_plugin_cost_lines(results),
        "",
        "| target | result | |",
        "|---|---:|---|",
    ]
    ratio = results.fake_over_floor()
    lines.append(
        f"| stress cycle ≤ {MAX_FAKE_OVER_FLOOR} x floor | {ratio:.2f} x | "
        f"{_verdict(ratio <= MAX_FAKE_OVER_FLOOR)} |"
    )
    if moto_ratio is not None:
        lines.append(
            f"| ≥ {MIN_MOTO_OVER_FAKE:.0f} x faster than moto ({results.moto_messages:,} "
            f"messages) | {moto_ratio:,.0f} x | {_verdict(moto_ratio >= MIN_MOTO_OVER_FAKE)} |"
        )
    growth = results.engine_growth()
    if growth is not None:
        low, high = min(results.engine), max(results.engine)
        lines.append(
            f"| engine per-op growth {low:,} → {high:,} ≤ {MAX_ENGINE_GROWTH} x | "
            f"{growth:.2f} x | {_verdict(growth <= MAX_ENGINE_GROWTH)} |"
        )
    lines.append(
        f"| ≤ {MAX_BYTES_PER_MESSAGE:.0f} bytes per queued message | "
        f"{results.bytes_per_message:,.0f} B | "
        f"{_verdict(results.bytes_per_message <= MAX_BYTES_PER_MESSAGE)} |"
    )
    if results.plugin_cost is not None:
        added = results.plugin_cost["added"] * 1000
        lines.append(
            f"| ≤ {MAX_PLUGIN_COST_MS:.0f} ms added to a run without SQS tests | {added:+.1f} ms | "
            f"{_verdict(added <= MAX_PLUGIN_COST_MS)} |"
        )
    return "\n".join(lines) + "\n"


def _plugin_cost_lines(results: Results) -> list[str]:
    if results.plugin_cost is None:
        return []
    cost = {name: seconds * 1000 for name, seconds in results.plugin_cost.items()}
    return [
        "",
        f"**Plugin cost**: a pytest run of 20 plain tests takes {cost['without']:.0f} ms of CPU "
        f"without the plugin and {cost['with']:.0f} ms with it: {cost['added']:+.1f} ms "
        "(lower quartiles of interleaved runs, `benchmarks/plugin_cost.py`).",
    ]


def chart(results: Results, path: Path) -> bool:
    """Write a PNG (needs the `bench` group's matplotlib); False when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from depth import per_op

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    names = list(results.cycle_seconds)
    seconds = [results.cycle_seconds[name] for name in names]
    labels = [
        f"{name}\n({results.moto_messages if name == 'moto mock_aws' else results.messages:,})"
        for name in names
    ]
    left.bar(labels, seconds, color=["#999999", "#2a7ab0", "#c0504d"][: len(names)])
    left.set_yscale("log")
    left.set_ylabel("seconds per stress cycle (log)")
    left.set_title("Stress cycle")
    for series, label in ((results.engine, "engine"), (results.boto3, "through boto3")):
        if series:
            depths = sorted(series)
            right.plot(depths, [per_op(series[d]) for d in depths], marker="o", label=label)
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("queued messages")
    right.set_ylabel("µs per operation (log)")
    right.set_title("Cost against queue depth")
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
    return True
