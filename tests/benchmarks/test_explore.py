"""benchmarks/explore.py works: it explores schedules and says how many per second (no timing
is asserted: CI machines are not quiet)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def explore(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import explore

    yield explore
    sys.modules.pop("explore", None)


def test_the_benchmark_explores_every_schedule_it_counts(explore: ModuleType) -> None:
    result = explore.measure(schedules=10, samples=1)
    assert result["schedules"] == 10
    assert result["per_second"] > 0
    assert 0 < result["ms_per_fake_start"] < result["ms_per_schedule"]


def test_its_command_line_prints_one_line(
    explore: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert explore.main(["--schedules", "5", "--samples", "1"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("fault schedules explored: 5 in ")
    assert "per second" in line and "fake start included" in line
