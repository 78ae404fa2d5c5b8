"""What a crowd of clients costs `fakesqs serve` (and its peers): idle keep-alive connections and
long polls, in another process over loopback.

    python benchmarks/connections.py                       # 2,000 idle, 500 long polls
    python benchmarks/connections.py --baseline /tmp/old   # also an older checkout's serve
    python benchmarks/connections.py --idle 300 --polls 100 --quick

For each server (started as in http_peers.py, on a free 127.0.0.1 port):
- idle: N sockets connect and send nothing; then a new boto3 client's ListQueues is timed
  (median of 5) and the server's threads and resident memory are read from /proc;
- long polls: P sockets each send ReceiveMessage with WaitTimeSeconds=20 to one queue; while
  they wait a ListQueues is timed, the threads and memory are read; then one message is sent
  and the benchmark times how long until one poll answers, and counts how many answered within
  0.5 s (one is right: a send of one message wakes one poll).
Every wait is bounded; every socket is closed at the end; the server is stopped after its turn.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from http_peers import PEERS, ROOT, Peer, baseline_peer, client, free_port, wait_ready

RESULTS = ROOT / "benchmarks" / "results"


@dataclass
class Crowd:
    peer: str
    idle: int = 0
    idle_list_ms: float | None = None
    idle_threads: int | None = None
    idle_rss_mib: float | None = None
    polls: int = 0
    polls_list_ms: float | None = None
    polls_threads: int | None = None
    polls_rss_mib: float | None = None
    wake_ms: float | None = None
    woken: int | None = None
    notes: list[str] = field(default_factory=list)


def proc_status(pid: int) -> tuple[int | None, float | None]:
    """(threads, resident MiB) of a process, from /proc (Linux)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None, None
    values = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    threads = int(values["Threads"].strip())
    rss_kib = int(values["VmRSS"].split()[0])
    return threads, rss_kib / 1024


def timed_list(endpoint: str, rounds: int = 5) -> float:
    sqs = client(endpoint, pool=1)
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        sqs.list_queues()
        samples.append((time.perf_counter() - started) * 1000)
    sqs.close()
    return statistics.median(samples)


def receive_request(url: str, port: int) -> bytes:
    body = json.dumps({"QueueUrl": url, "WaitTimeSeconds": 20}).encode()
    return (
        f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
        "Authorization: AWS4-HMAC-SHA256 Credential=test/20240101/us-east-1/sqs/aws4_request, "
        f"SignedHeaders=host, Signature={'0' * 64}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def connect_all(port: int, count: int, deadline: float) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        if time.monotonic() > deadline:
            break
        sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))
    return sockets


def run(peer: Peer, args: argparse.Namespace, say: Any) -> Crowd | None:
    port = free_port()
    command = peer.command(args.peers_venv, port)
    if command is None:
        say(f"{peer.name}: not installed, skipped")
        return None
    env = {**os.environ, **peer.env(port)}
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS", "AWS_PROFILE"):
        env.pop(name, None)
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=peer.cwd
    )
    endpoint = f"http://127.0.0.1:{port}"
    crowd = Crowd(peer.name)
    sockets: list[socket.socket] = []
    try:
        wait_ready(endpoint + peer.ready_path, process)
        sqs = client(endpoint, pool=2)
        url = sqs.create_queue(QueueName="crowd")["QueueUrl"]
        deadline = time.monotonic() + args.max_seconds
        say(f"{peer.name}: {args.idle:,} idle connections")
        sockets = connect_all(port, args.idle, deadline)
        crowd.idle = len(sockets)
        time.sleep(1.0)  # let the server accept them all
        crowd.idle_list_ms = timed_list(endpoint)
        crowd.idle_threads, crowd.idle_rss_mib = proc_status(process.pid)
        for sock in sockets:
            sock.close()
        sockets = []
        say(f"{peer.name}: {args.polls:,} long polls")
        sockets = connect_all(port, args.polls, deadline)
        request = receive_request(url, port)
        for sock in sockets:
            sock.sendall(request)
        crowd.polls = len(sockets)
        time.sleep(2.0)  # every poll is waiting by now (each had a whole request at once)
        crowd.polls_list_ms = timed_list(endpoint)
        crowd.polls_threads, crowd.polls_rss_mib = proc_status(process.pid)
        started = time.perf_counter()
        sqs.send_message(QueueUrl=url, MessageBody="wake one")
        readable, _, _ = select.select(sockets, [], [], 10)
        if readable:
            crowd.wake_ms = (time.perf_counter() - started) * 1000
            time.sleep(0.5)
            crowd.woken = len(select.select(sockets, [], [], 0)[0])
        else:
            crowd.notes.append("no poll answered within 10 s of the send")
    except Exception as error:  # a peer that breaks is reported, the others still run
        crowd.notes.append(f"failed: {type(error).__name__}: {str(error)[:200]}")
    finally:
        for sock in sockets:
            sock.close()
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
    return crowd


def _num(value: float | int | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _spread(values: list[Any], digits: int) -> str:
    present = sorted(v for v in values if v is not None)
    if not present:
        return "-"
    if len(present) < 3:
        return _num(statistics.median(present), digits)
    low, _, high = statistics.quantiles(present, n=4, method="inclusive")
    return f"{_num(statistics.median(present), digits)} ({_num(low, digits)}-{_num(high, digits)})"


def markdown(rounds: dict[str, list[Crowd]], args: argparse.Namespace, command: str) -> str:
    lines = [
        "# What a crowd of clients costs `fakesqs serve` and its peers",
        "",
        f"{os.cpu_count()} cores shared with other work (load average {args.load[0]:.1f} at the "
        f"start, {args.load[1]:.1f} at the end); {args.repeat} round(s), peers interleaved; "
        f"medians (quartiles in brackets from 3 rounds). Reproduce: `{command}`.",
        "",
        "| server | idle sockets | ListQueues meanwhile (ms) | threads | RSS (MiB) "
        "| long polls | ListQueues meanwhile (ms) | threads | RSS (MiB) "
        "| send to first answer (ms) | polls answered |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, crowds in rounds.items():
        lines.append(
            f"| {name} | {min(c.idle for c in crowds):,} "
            f"| {_spread([c.idle_list_ms for c in crowds], 1)} "
            f"| {_spread([c.idle_threads for c in crowds], 0)} "
            f"| {_spread([c.idle_rss_mib for c in crowds], 0)} "
            f"| {min(c.polls for c in crowds):,} "
            f"| {_spread([c.polls_list_ms for c in crowds], 1)} "
            f"| {_spread([c.polls_threads for c in crowds], 0)} "
            f"| {_spread([c.polls_rss_mib for c in crowds], 0)} "
            f"| {_spread([c.wake_ms for c in crowds], 1)} "
            f"| {_spread([c.woken for c in crowds], 0)} |"
        )
    notes = list(
        dict.fromkeys(f"- {name}: {n}" for name, cs in rounds.items() for c in cs for n in c.notes)
    )
    if notes:
        lines += ["", "Notes:", *notes]
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=2_000, help="idle connections (2,000)")
    parser.add_argument("--polls", type=int, default=500, help="long polls (500)")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="cap per server")
    parser.add_argument("--peers-venv", type=Path, default=ROOT / ".venv-peers")
    parser.add_argument("--only", action="append", default=[], help="server names to run")
    parser.add_argument("--baseline", type=Path, action="append", default=[])
    parser.add_argument("--quick", action="store_true", help="300 idle, 100 polls")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.idle, args.polls = min(args.idle, 300), min(args.polls, 100)
    out = args.out or RESULTS / ("connections-quick.md" if args.quick else "connections.md")

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    peers = PEERS[:1] + [baseline_peer(path.resolve()) for path in args.baseline] + PEERS[1:]
    rounds: dict[str, list[Crowd]] = {}
    start_load = os.getloadavg()[0]
    for _ in range(args.repeat):
        for peer in peers:
            if args.only and peer.name not in args.only:
                continue
            crowd = run(peer, args, say)
            if crowd is not None:
                rounds.setdefault(peer.name, []).append(crowd)
                say(f"{peer.name}: {crowd}")
    args.load = (start_load, os.getloadavg()[0])
    command = " ".join(
        ["python benchmarks/connections.py", *(argv if argv is not None else sys.argv[1:])]
    )
    out.write_text(markdown(rounds, args, command), encoding="utf-8")
    say(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
