"""`fakesqs serve` against the other SQS emulators that install from PyPI, side by side, over HTTP.

    python -m venv .venv-peers && .venv-peers/bin/pip install 'moto[server]' ministack
    python benchmarks/http_peers.py                   # every peer found; results/http.md
    python benchmarks/http_peers.py --quick           # small sizes, a smoke run
    python benchmarks/http_peers.py --repeat 5 --baseline /tmp/old-checkout
                                                      # 5 interleaved rounds: medians and
                                                      # quartiles; plus an older fakesqs

Peers: `fakesqs serve` (this checkout), moto's `moto_server`, and MiniStack (a Python
LocalStack replacement), each started as its own process on a free 127.0.0.1 port and stopped
after its turn; a peer whose command is not found (in --peers-venv, or on PATH) is skipped and
says so. LocalStack itself and ElasticMQ are not here: one needs Docker (and an account), the
other a JVM download. Every client is boto3 in this process, signed with test credentials.

Three workloads, each bounded in count and in time (--max-seconds per workload and peer):
- throughput: 4 producer threads send batches of 10, 4 consumer threads receive 10 at a time
  (WaitTimeSeconds=1) and delete in batches, until N messages went through;
- latency: one client sends single messages, one at a time (median and 95th percentile);
- depth: a queue filled to D messages, then send + receive + delete of one message, timed at
  depth ~0 and at depth D (a queue whose cost grows with depth slows down here).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
BODY = "x" * 100


@dataclass
class Peer:
    name: str
    command: Callable[[Path, int], list[str] | None]  # None: not installed
    env: Callable[[int], dict[str, str]] = lambda port: {}
    ready_path: str = "/"
    cwd: Path = ROOT


def _found(venv: Path, name: str) -> str | None:
    candidate = venv / "bin" / name
    return str(candidate) if candidate.exists() else shutil.which(name)


PEERS = [
    Peer(
        "fakesqs serve",
        lambda venv, port: [
            sys.executable,
            "-m",
            "pytest_fakesqs",
            "serve",
            "--port",
            str(port),
        ],
        ready_path="/_fakesqs/health",
    ),
    Peer(
        "moto_server",
        lambda venv, port: (
            None
            if (path := _found(venv, "moto_server")) is None
            else [path, "-H", "127.0.0.1", "-p", str(port)]
        ),
        ready_path="/moto-api/",
    ),
    Peer(
        "ministack",
        lambda venv, port: None if (path := _found(venv, "ministack")) is None else [path],
        env=lambda port: {"BIND_HOST": "127.0.0.1", "GATEWAY_PORT": str(port)},
        ready_path="/_ministack/health",
    ),
]


@dataclass
class Outcome:
    peer: str
    throughput: float | None = None  # messages/s
    moved: int = 0
    send_median_ms: float | None = None
    send_p95_ms: float | None = None
    shallow_ms: float | None = None
    deep_ms: float | None = None
    depth: int = 0
    notes: list[str] = field(default_factory=list)
    server_cpu_us: float | None = None  # the server process's CPU per message moved


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process and its children that ended (Linux' /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def client(endpoint: str, pool: int = 16) -> Any:
    return boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(max_pool_connections=pool, retries={"max_attempts": 2}),
    )


def wait_ready(url: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode} before answering")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {timeout}s")


def throughput(endpoint: str, messages: int, max_seconds: float) -> tuple[float, int]:
    sqs = client(endpoint)
    url = sqs.create_queue(QueueName="throughput")["QueueUrl"]
    per_producer = messages // 4
    received = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + max_seconds
    entries = [{"Id": str(i), "MessageBody": BODY} for i in range(10)]

    def produce() -> None:
        sent = 0
        while sent < per_producer and time.monotonic() < stop_at:
            sqs.send_message_batch(QueueUrl=url, Entries=entries)
            sent += 10

    def consume() -> None:
        while time.monotonic() < stop_at:
            with lock:
                if received[0] >= per_producer * 4:
                    return
            got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)
            batch = got.get("Messages", [])
            if batch:
                sqs.delete_message_batch(
                    QueueUrl=url,
                    Entries=[
                        {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                        for i, m in enumerate(batch)
                    ],
                )
                with lock:
                    received[0] += len(batch)

    threads = [threading.Thread(target=produce) for _ in range(4)]
    threads += [threading.Thread(target=consume) for _ in range(4)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    return received[0] / seconds, received[0]


def latency(endpoint: str, count: int, max_seconds: float) -> tuple[float, float]:
    sqs = client(endpoint)
    url = sqs.create_queue(QueueName="latency")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody=BODY)  # warm the connection
    samples = []
    stop_at = time.monotonic() + max_seconds
    while len(samples) < count and time.monotonic() < stop_at:
        started = time.perf_counter()
        sqs.send_message(QueueUrl=url, MessageBody=BODY)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def cycle_ms(sqs: Any, url: str, rounds: int) -> float:
    """Median ms of send + receive + delete of one message, the queue's depth unchanged."""
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        sqs.send_message(QueueUrl=url, MessageBody=BODY)
        message = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def deep(endpoint: str, depth: int, rounds: int, max_seconds: float) -> tuple[float, float, int]:
    sqs = client(endpoint)
    url = sqs.create_queue(QueueName="deep")["QueueUrl"]
    shallow = cycle_ms(sqs, url, rounds)
    entries = [{"Id": str(i), "MessageBody": BODY} for i in range(10)]
    filled = 0
    stop_at = time.monotonic() + max_seconds
    while filled < depth and time.monotonic() < stop_at:
        sqs.send_message_batch(QueueUrl=url, Entries=entries)
        filled += 10
    # A deep queue hands out its oldest first: the cycle's receive takes one of the filled ones.
    return shallow, cycle_ms(sqs, url, rounds), filled


def run_peer(peer: Peer, args: argparse.Namespace, say: Callable[[str], None]) -> Outcome | None:
    port = free_port()
    command = peer.command(args.peers_venv, port)
    if command is None:
        say(f"{peer.name}: not installed, skipped (see this script's docstring)")
        return None
    env = {**os.environ, **peer.env(port)}
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS", "AWS_PROFILE"):
        env.pop(name, None)
    if args.realtime:  # a shared machine: the server always gets the CPU it asks for
        command = ["chrt", "--rr", "5", *command]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=peer.cwd
    )
    endpoint = f"http://127.0.0.1:{port}"
    outcome = Outcome(peer.name)
    try:
        wait_ready(endpoint + peer.ready_path, process)
        say(f"{peer.name}: throughput, {args.messages:,} messages")
        cpu_before = process_cpu_seconds(process.pid)
        outcome.throughput, outcome.moved = throughput(endpoint, args.messages, args.max_seconds)
        cpu_after = process_cpu_seconds(process.pid)
        if cpu_before is not None and cpu_after is not None and outcome.moved:
            outcome.server_cpu_us = (cpu_after - cpu_before) / outcome.moved * 1e6
        if outcome.moved < args.messages:
            outcome.notes.append(f"throughput: {outcome.moved:,} moved in the time cap")
        say(f"{peer.name}: latency, {args.sends} sends")
        outcome.send_median_ms, outcome.send_p95_ms = latency(
            endpoint, args.sends, args.max_seconds
        )
        say(f"{peer.name}: depth {args.depth:,}")
        outcome.shallow_ms, outcome.deep_ms, outcome.depth = deep(
            endpoint, args.depth, args.rounds, args.max_seconds
        )
        if outcome.depth < args.depth:
            outcome.notes.append(f"depth: filled to {outcome.depth:,} in the time cap")
    except Exception as error:  # a peer that breaks is reported, the others still run
        outcome.notes.append(f"failed: {type(error).__name__}: {str(error)[:200]}")
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
    return outcome


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _spread(values: list[float | None], digits: int) -> str:
    """The median, with the quartiles when there are several rounds: `3,120 (3,050-3,190)`."""
    present = sorted(v for v in values if v is not None)
    if not present:
        return "-"
    if len(present) < 3:
        return _num(statistics.median(present), digits)
    low, _, high = statistics.quantiles(present, n=4, method="inclusive")
    median = statistics.median(present)
    return f"{_num(median, digits)} ({_num(low, digits)}-{_num(high, digits)})"


def _median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def markdown(rounds: dict[str, list[Outcome]], args: argparse.Namespace, command: str) -> str:
    names = list(rounds)
    fake = rounds.get("fakesqs serve") or rounds[names[0]]
    fake_throughput = _median([o.throughput for o in fake])
    repeat = max(len(outcomes) for outcomes in rounds.values())
    lines = [
        "# `fakesqs serve` and its peers over HTTP",
        "",
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores "
        f"shared with other work (load average {args.load[0]:.1f} at the start, "
        f"{args.load[1]:.1f} at the end); boto3 clients in one process; "
        + ("servers under `chrt --rr 5`; " if getattr(args, "realtime", False) else "")
        + f"{repeat} round{'s' if repeat != 1 else ''}, the peers interleaved in each"
        + (": medians, quartiles in brackets" if repeat >= 3 else "")
        + f". Reproduce: `{command}`.",
        "",
        f"**Throughput**: 4 producers + 4 consumers moving {args.messages:,} messages "
        "(batches of 10); the server's own CPU time (user + system) per message moved.",
        f"**Latency**: {args.sends} single SendMessage calls from one client.",
        f"**Depth**: send + receive + delete of one message (median of {args.rounds}), "
        f"at depth ~0 and at depth {args.depth:,}.",
        "",
        "| peer | messages/s | fakesqs / peer | server CPU per message (µs) | send median (ms) "
        "| send p95 (ms) | cycle at ~0 (ms) | cycle deep (ms) | deep / shallow |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, outcomes in rounds.items():
        throughput = _median([o.throughput for o in outcomes])
        ratio = (
            None
            if throughput is None or fake_throughput is None or not throughput
            else fake_throughput / throughput
        )
        slowdowns = [
            None if o.deep_ms is None or not o.shallow_ms else o.deep_ms / o.shallow_ms
            for o in outcomes
        ]
        depth = min(o.depth for o in outcomes)
        relative = "1" if outcomes is fake else ("-" if ratio is None else f"{ratio:.2f}x")
        lines.append(
            f"| {name} | {_spread([o.throughput for o in outcomes], 0)} | {relative} | "
            f"{_spread([o.server_cpu_us for o in outcomes], 0)} | "
            f"{_spread([o.send_median_ms for o in outcomes], 2)} | "
            f"{_spread([o.send_p95_ms for o in outcomes], 2)} | "
            f"{_spread([o.shallow_ms for o in outcomes], 2)} | "
            f"{_spread([o.deep_ms for o in outcomes], 2)} (depth {depth:,}) | "
            f"{_num(_median(slowdowns), 2)}x |"
        )
    notes = list(
        dict.fromkeys(
            f"- {name}: {n}" for name, outs in rounds.items() for o in outs for n in o.notes
        )
    )
    if notes:
        lines += ["", "Notes:", *notes]
    lines.append("")
    return "\n".join(lines)


def baseline_peer(checkout: Path) -> Peer:
    """`fakesqs serve` from another checkout (an older version, say), run from its folder."""
    return Peer(
        f"fakesqs serve ({checkout.name})",
        lambda venv, port: [sys.executable, "-m", "pytest_fakesqs", "serve", "--port", str(port)],
        env=lambda port: {"PYTHONPATH": str(checkout)},
        ready_path="/_fakesqs/health",
        cwd=checkout,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--messages", type=int, default=None, help="throughput (20,000)")
    parser.add_argument("--sends", type=int, default=None, help="latency samples (500)")
    parser.add_argument("--depth", type=int, default=None, help="deep queue (50,000)")
    parser.add_argument("--rounds", type=int, default=50, help="cycles timed per depth")
    parser.add_argument("--max-seconds", type=float, default=180.0, help="cap per workload")
    parser.add_argument("--peers-venv", type=Path, default=ROOT / ".venv-peers")
    parser.add_argument("--only", action="append", default=[], help="peer names to run")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds of every peer")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="also run `fakesqs serve` from this checkout (repeatable)",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="run each server under `chrt --rr 5` (Linux, root): on a machine busy with other "
        "work, CPU shares are per thread, so a one-thread server gets less of it than a "
        "thread-per-connection one; this takes that out of the comparison",
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    args.messages = args.messages or (1_000 if args.quick else 20_000)
    args.sends = args.sends or (50 if args.quick else 500)
    args.depth = args.depth or (1_000 if args.quick else 50_000)
    if args.quick:
        args.rounds, args.max_seconds = 10, min(args.max_seconds, 30.0)
    out = args.out or RESULTS / ("http-quick.md" if args.quick else "http.md")

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    peers = PEERS[:1] + [baseline_peer(path.resolve()) for path in args.baseline] + PEERS[1:]
    rounds: dict[str, list[Outcome]] = {}
    start_load = os.getloadavg()[0]
    for number in range(args.repeat):
        for peer in peers:
            if args.only and peer.name not in args.only:
                continue
            say(f"round {number + 1} of {args.repeat}")
            outcome = run_peer(peer, args, say)
            if outcome is not None:
                rounds.setdefault(peer.name, []).append(outcome)
                say(f"{peer.name}: {outcome}")
    args.load = (start_load, os.getloadavg()[0])
    command = " ".join(
        ["python benchmarks/http_peers.py", *(argv if argv is not None else sys.argv[1:])]
    )
    out.write_text(markdown(rounds, args, command), encoding="utf-8")
    say(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
