"""benchmarks/http_peers.py's workloads run (against this process's server; nothing is timed)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def peers() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import http_peers

        yield http_peers
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("http_peers", None)


@pytest.mark.fakesqs(clock="real")
def test_the_workloads_move_what_they_say(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer, peers: ModuleType
) -> None:
    endpoint = fakesqs_server.endpoint_url

    rate, moved = peers.throughput(endpoint, 200, 60)
    median, p95 = peers.latency(endpoint, 5, 60)
    shallow, deep, depth = peers.deep(endpoint, 100, 3, 60)

    assert moved == 200 and rate > 0
    assert 0 < median <= p95
    assert shallow > 0 and deep > 0 and depth == 100
    assert fakesqs.queue("deep").backlog().count == 100  # the cycles left the depth as it was


def test_the_report_names_every_peer_and_a_missing_one_is_skipped(
    peers: ModuleType, tmp_path: Path
) -> None:
    fake = peers.Outcome("fakesqs serve", 1000.0, 10, 1.0, 2.0, 3.0, 3.3, 50)
    other = peers.Outcome("moto_server", 100.0, 10, 10.0, 20.0, 30.0, 90.0, 50, ["capped"])
    args = argparse.Namespace(
        messages=10, sends=5, rounds=3, depth=50, peers_venv=tmp_path, load=(1.0, 2.0)
    )

    text = peers.markdown(
        {"fakesqs serve": [fake], "moto_server": [other]}, args, "python benchmarks/http_peers.py"
    )
    missing = peers.Peer("nothing", lambda venv, port: None)

    assert "| moto_server | 100 | 10.00x | - |" in text  # fakesqs moves 10 times as many
    assert "- moto_server: capped" in text
    assert peers.run_peer(missing, args, lambda _text: None) is None


def test_repeated_rounds_report_medians_and_quartiles(peers: ModuleType, tmp_path: Path) -> None:
    rounds = {
        "fakesqs serve": [
            peers.Outcome("fakesqs serve", rate, 10, 1.0, 2.0, 3.0, 3.3, 50, server_cpu_us=90.0)
            for rate in (900.0, 1000.0, 1100.0, 1200.0, 1300.0)
        ]
    }
    args = argparse.Namespace(
        messages=10, sends=5, rounds=3, depth=50, peers_venv=tmp_path, load=(1.0, 2.0)
    )

    text = peers.markdown(rounds, args, "python benchmarks/http_peers.py --repeat 5")

    assert "| fakesqs serve | 1,100 (1,000-1,200) | 1 | 90 (90-90) |" in text
    assert "5 rounds, the peers interleaved in each: medians, quartiles in brackets" in text
