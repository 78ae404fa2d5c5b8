"""The benchmark script's parts work (no timing is asserted: CI machines are not quiet).

Memory is deterministic, so the ≤ 1 KiB per queued message target is checked here for real.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType

import pytest

from pytest_fakesqs.transport.serving import current_handler

from ..query_era import QUERY_CLIENT

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, ModuleType]]:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bare
    import cycle
    import depth
    import headroom
    import memory
    import report
    import versus

    modules = {
        "bare": bare,
        "cycle": cycle,
        "depth": depth,
        "headroom": headroom,
        "memory": memory,
        "report": report,
        "versus": versus,
    }
    yield modules
    for name in (*modules, "floor"):
        sys.modules.pop(name, None)


@pytest.fixture
def decoy_first(tmp_path: Path) -> dict[str, str]:
    """An environment with another copy of the package ahead of the installed one (another
    checkout's, say) that fails if imported: a benchmark must time its own checkout."""
    decoy = tmp_path / "pytest_fakesqs"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise ImportError('the decoy was imported')\n")
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


@pytest.mark.skipif(QUERY_CLIENT, reason="the botocore floor answers AWS JSON 1.0 only")
def test_floor_and_fake_both_drain_the_stress_cycle(bench: dict[str, ModuleType]) -> None:
    # time_sample raises unless every message sent comes back exactly once.
    medians = bench["cycle"].measure(["botocore floor", "pytest-fakesqs"], 30, 1)
    assert set(medians) == {"botocore floor", "pytest-fakesqs"}
    assert all(seconds > 0 for seconds in medians.values())


def test_each_fake_subject_is_answered_by_its_own_fake(bench: dict[str, ModuleType]) -> None:
    # The innermost active fake answers every client of the process: measured together, the
    # bounded fake's client was answered by the other fake until each was on for its own samples.
    cycle = bench["cycle"]
    with ExitStack() as stack:
        bounded, keeping = (
            cycle.Subject(*stack.enter_context(cycle.SUBJECTS[name]()))
            for name in ("pytest-fakesqs, history_limit=1000", "pytest-fakesqs")
        )
        with bounded.active() as fake:
            assert cycle.time_sample(bounded.client, bounded.queue_url, 30) > 0
            assert fake.options.history_limit == 1000
            assert len(fake.calls("SendMessageBatch")) == 3 * 3
        with keeping.active() as fake:
            assert fake.options.history_limit is None
            assert fake.calls("SendMessageBatch") == []
        assert current_handler() is None  # off between its samples


@pytest.mark.skipif(QUERY_CLIENT, reason="the botocore floor answers AWS JSON 1.0 only")
@pytest.mark.parametrize("subject", ["floor", "fake"])
def test_the_instruction_count_program_drains_the_cycle(
    subject: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The program instructions.py runs under callgrind, run plainly: it asserts every round.
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import instructions

    try:
        code = instructions._RUN.format(
            here=str(BENCHMARKS), subject=instructions.SUBJECTS[subject], messages=30
        )
    finally:
        sys.modules.pop("instructions", None)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.skipif(QUERY_CLIENT, reason="the cycle's requests are captured as AWS JSON 1.0")
def test_in_situ_times_each_action_inside_the_cycle_and_back_to_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import in_situ

    try:
        results = in_situ.measure(1, 2, messages=30, calls=3)
    finally:
        for name in ("in_situ", "cycle", "floor"):
            sys.modules.pop(name, None)
    assert set(results) == set(in_situ.ACTIONS)
    assert all(inside > 0 and replayed > 0 for inside, replayed in results.values())


def test_engine_costs_cover_every_operation(bench: dict[str, ModuleType]) -> None:
    costs = bench["depth"].engine_costs(1_000, rounds=3, samples=1)
    assert set(costs) == set(bench["depth"].OPERATIONS)


def test_a_queued_100_byte_message_takes_under_one_kibibyte(bench: dict[str, ModuleType]) -> None:
    assert bench["memory"].bytes_per_message(2_000) <= 1024


def test_the_report_states_each_target_and_whether_it_was_met(
    bench: dict[str, ModuleType],
) -> None:
    report = bench["report"]
    results = report.Results(messages=2000, moto_messages=1000)
    results.cycle_seconds = {"botocore floor": 1.0, "pytest-fakesqs": 1.25, "moto mock_aws": 30.0}
    results.fake_at_moto_size = 0.125
    costs = {"send": 3.0, "receive 10": 10.0, "delete": 2.0}
    results.engine = {1_000: costs, 1_000_000: {**costs, "receive 10": 20.0}}
    results.bytes_per_message = 800.0
    table = report.markdown(results, "python benchmarks/run.py")
    assert "| pytest-fakesqs | 2,000 | 1.250 | 1.25 x floor |" in table
    assert "| moto mock_aws | 1,000 | 30.00 | 240 x pytest-fakesqs |" in table
    assert "| stress cycle ≤ 1.3 x floor | 1.25 x | met |" in table
    assert "| ≥ 300 x faster than moto (1,000 messages) | 240 x | **missed** |" in table
    assert "| engine per-op growth 1,000 → 1,000,000 ≤ 1.3 x | 1.17 x | met |" in table
    assert "| ≤ 1024 bytes per queued message | 800 B | met |" in table


@pytest.mark.skipif(QUERY_CLIENT, reason="the bare fake answers AWS JSON 1.0 only")
def test_the_bare_fake_drains_the_cycle_and_keeps_each_call_when_asked(
    bench: dict[str, ModuleType],
) -> None:
    cycle = bench["cycle"]
    client = cycle.make_client()
    kept = bench["bare"].install(client, keep_calls=True)
    url = client.create_queue(QueueName="bench")["QueueUrl"]
    # time_sample raises unless every message sent comes back exactly once.
    assert cycle.time_sample(client, url, 30) > 0
    ratios = bench["headroom"].ratios(30, 1)
    assert not kept.visible and not kept.in_flight  # every message received, then deleted
    actions = [action for action, _request, _answer in kept.calls or []]
    assert actions[0] == "CreateQueue" and actions.count("SendMessageBatch") == 3 * 3
    assert set(ratios) == {
        "bare fake",
        "bare fake + call log",
        "pytest-fakesqs, history_limit=1000",
        "pytest-fakesqs",
    }
    assert all(ratio > 0 for ratio in ratios.values())


def _output(arguments: list[str], env: dict[str, str], *, cwd: Path | None = None) -> list[str]:
    """The lines a Python process with these arguments printed; it must succeed."""
    done = subprocess.run(
        [sys.executable, *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_versus_runs_a_revision_beside_the_working_tree_in_one_process(
    decoy_first: dict[str, str],
) -> None:
    # The working tree is measured, not the decoy. A process of its own: the revision's copy
    # patches botocore and stays patched.
    script = str(BENCHMARKS / "versus.py")
    lines = _output([script, "HEAD", "--samples", "3", "--messages", "20"], decoy_first)
    assert re.fullmatch(r"fakesqs_at_[0-9a-f]+: \d+\.\d{3} x the floor", lines[0])
    assert re.fullmatch(r"pytest_fakesqs: \d+\.\d{3} x the floor", lines[1])
    assert lines[2].startswith("HEAD minus the working tree, per sample over the floor's: median ")
    assert lines[3] == f"the working tree: {BENCHMARKS.parent / 'pytest_fakesqs'}"


@pytest.mark.parametrize("script", ["cycle", "depth", "memory", "explore", "headroom"])
def test_a_benchmark_measures_its_own_checkout_not_another_copy(
    script: str, decoy_first: dict[str, str], tmp_path: Path
) -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r}); import {script}; "
        "import pytest_fakesqs; print(pytest_fakesqs.__file__)"
    )
    # `-c` puts the working folder first on sys.path: the decoy's, not the checkout's.
    lines = _output(["-c", code], decoy_first, cwd=tmp_path)
    assert lines == [str(BENCHMARKS.parent / "pytest_fakesqs" / "__init__.py")]


@pytest.mark.skipif(QUERY_CLIENT, reason="the botocore floor answers AWS JSON 1.0 only")
def test_headroom_says_which_copy_it_measured(decoy_first: dict[str, str]) -> None:
    arguments = ["--runs", "1", "--samples", "1", "--messages", "20"]
    lines = _output([str(BENCHMARKS / "headroom.py"), *arguments], decoy_first)
    assert lines[-2].startswith("median: bare fake ")
    assert lines[-1] == f"pytest-fakesqs from {BENCHMARKS.parent / 'pytest_fakesqs'}"


def test_the_median_interval_is_the_order_statistics_of_a_fair_coin(
    bench: dict[str, ModuleType],
) -> None:
    median_interval = bench["versus"].median_interval
    # The textbook 95 % intervals: x(2)..x(9) of 10, x(10)..x(21) of 30 (1-based).
    assert median_interval(10) == (1, 8)
    assert median_interval(30) == (9, 20)
    assert median_interval(3) == (0, 2)


def test_the_plugin_cost_is_measured_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import plugin_cost

    try:
        result = plugin_cost.measure(1)
    finally:
        sys.modules.pop("plugin_cost", None)
    assert set(result) == {"with", "without", "added"}
    assert result["added"] == pytest.approx(result["with"] - result["without"])


def test_instructions_with_the_cache_counts_what_one_round_adds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # callgrind itself is too slow for the suite: its totals are given, the arithmetic checked.
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import instructions

    names = ("Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
    # Per subject and size: each event grows by (3 rounds) x (a per-round cost) from 500 to 2,500.
    per_round = {"floor": (1000, 30, 0, 0, 1, 0, 0), "fake": (1200, 30, 6, 0, 1, 1, 0)}

    def recorded(subject: str, messages: int, *, cache: bool = False) -> dict[str, int]:
        rounds = 3 if messages == 2500 else 0
        return {
            name: 10_000_000 + rounds * cost * 1_000_000
            for name, cost in zip(names, per_round[subject], strict=True)
        }

    monkeypatch.setattr(instructions, "events", recorded)
    try:
        assert instructions.per_round("fake", cache=True) == {
            "instructions": 1200,
            "first-level misses": 36,
            "last-level misses": 2,
            "estimated cycles": 1200 + 360 + 200,
        }
        assert instructions.per_round("fake") == {"instructions": 1200}
        assert instructions.main(["--cache"]) == 0
    finally:
        for name in ("instructions", "cycle", "floor"):
            sys.modules.pop(name, None)
    assert capsys.readouterr().out.splitlines() == [
        "botocore floor: 1,000 M instructions, 30.00 M first-level and 1.000 M last-level misses,"
        " 1,400 M estimated cycles per 2,000-message round",
        "pytest-fakesqs: 1,200 M instructions, 36.00 M first-level and 2.000 M last-level misses,"
        " 1,760 M estimated cycles per 2,000-message round",
        "instructions: 1.200 x the botocore floor",
        "first-level misses: 1.200 x the botocore floor",
        "last-level misses: 2.000 x the botocore floor",
        "estimated cycles: 1.257 x the botocore floor",
    ]


@pytest.mark.skipif(QUERY_CLIENT, reason="the botocore floor answers AWS JSON 1.0 only")
def test_footprint_times_the_floor_with_and_without_distinct_code_per_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import footprint

    functions = footprint.generated(5)
    assert len({function.__code__.co_code for function in functions}) > 1  # distinct bytecode
    assert isinstance(footprint.step(functions)(), int)
    # One sample's calls, counted as the floor answers them: 3 rounds of 2 sends, 3
    # receives (the last one empty) and 2 deletes.
    assert footprint.calls_per_sample(20) == 21
    cost = footprint.measure(5, 20, 1)
    assert set(cost) == {"floor", "added", "alone"}
    assert cost["floor"] > 0 and cost["alone"] > 0
    for name in ("footprint", "cycle", "floor"):
        sys.modules.pop(name, None)
