"""A soak of `fakesqs serve`: a million messages through it over HTTP, its memory watched.

    python benchmarks/soak.py                       # 1,000,000 messages, --history-limit 10000
    python benchmarks/soak.py --messages 200000 --history-limit none   # the unbounded contrast

A script, not a timed test: it starts `python -m pytest_fakesqs serve` on 127.0.0.1, sends
messages in batches of 10, receives them 10 at a time and deletes them in batches (AWS JSON,
unsigned, over one kept-alive connection), and reads the server's resident memory (VmRSS) from
/proc every --every messages. After --warm-up messages (the history is full by then) the
resident memory must stay within --budget-mib of its warm-up value. The result goes to
benchmarks/results/soak.md. CI runs `drive()` in-process with 100,000 messages
(tests/benchmarks/test_soak.py) and counts retained objects instead.
"""

from __future__ import annotations

import argparse
import http.client
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
BODY = "x" * 100  # one 100-byte message body, as the other benchmarks use
BATCH = 10
# One SQS call: (action, JSON body) -> JSON answer.
Call = Callable[[str, bytes], bytes]


def drive(call: Call, queue_url: str, messages: int, progress: Callable[[int], None]) -> None:
    """Move `messages` through the queue: send a batch, receive it, delete it. `progress` is
    told the number of messages done after each batch."""
    url = json.dumps(queue_url)
    entries = ",".join(f'{{"Id":"{i}","MessageBody":"{BODY}"}}' for i in range(BATCH))
    send = f'{{"QueueUrl":{url},"Entries":[{entries}]}}'.encode()
    receive = f'{{"QueueUrl":{url},"MaxNumberOfMessages":{BATCH}}}'.encode()
    done = 0
    while done < messages:
        answer = json.loads(call("SendMessageBatch", send))
        if len(answer.get("Successful", ())) != BATCH:
            raise RuntimeError(f"send failed: {answer}")
        taken = 0
        while taken < BATCH:
            received = json.loads(call("ReceiveMessage", receive)).get("Messages", [])
            if not received:
                raise RuntimeError("the queue came back empty with messages in it")
            handles = [
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(received)
            ]
            deleted = json.loads(
                call(
                    "DeleteMessageBatch",
                    json.dumps({"QueueUrl": queue_url, "Entries": handles}).encode(),
                )
            )
            if len(deleted.get("Successful", ())) != len(received):
                raise RuntimeError(f"delete failed: {deleted}")
            taken += len(received)
        done += BATCH
        progress(done)


def http_call(host: str, port: int) -> Call:
    connection = http.client.HTTPConnection(host, port, timeout=60)

    def call(action: str, body: bytes) -> bytes:
        connection.request(
            "POST",
            "/",
            body=body,
            headers={
                "Content-Type": "application/x-amz-json-1.0",
                "X-Amz-Target": f"AmazonSQS.{action}",
            },
        )
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            raise RuntimeError(f"{action}: HTTP {response.status}: {answer[:300]!r}")
        return answer

    return call


def resident_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc status")  # pragma: no cover - not Linux


def start_server(history_limit: str) -> tuple[subprocess.Popen[str], str, int]:
    command = [sys.executable, "-m", "pytest_fakesqs", "serve", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--history-limit", history_limit],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    banner = process.stdout.readline()
    if " at http://" not in banner:
        process.kill()
        raise RuntimeError(f"serve did not start: {banner!r}")
    netloc = banner.split(" at http://", 1)[1].split(" ", 1)[0]
    host, _, port = netloc.rpartition(":")
    return process, host, int(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--warm-up", type=int, default=100_000, help="messages before the baseline")
    parser.add_argument("--every", type=int, default=50_000, help="messages between readings")
    parser.add_argument("--history-limit", default="10000", help="passed to serve")
    parser.add_argument("--budget-mib", type=float, default=20.0)
    parser.add_argument("--out", type=Path, default=RESULTS / "soak.md")
    args = parser.parse_args(argv)

    process, host, port = start_server(args.history_limit)
    readings: list[tuple[int, float, float]] = []  # (messages, seconds, resident MiB)
    started = time.perf_counter()
    try:
        call = http_call(host, port)
        created = json.loads(call("CreateQueue", b'{"QueueName":"soak"}'))
        readings.append((0, 0.0, resident_mib(process.pid)))

        def progress(done: int) -> None:
            if done % args.every == 0 or done == args.warm_up:
                reading = (done, time.perf_counter() - started, resident_mib(process.pid))
                readings.append(reading)
                print(f"{done:>9,} messages  {reading[1]:7.1f}s  {reading[2]:6.1f} MiB", flush=True)

        drive(call, created["QueueUrl"], args.messages, progress)
    finally:
        process.terminate()
        process.wait(timeout=60)
    seconds = time.perf_counter() - started
    baseline = next(mib for done, _, mib in readings if done >= args.warm_up)
    after = [mib for done, _, mib in readings if done >= args.warm_up]
    growth = max(after) - baseline
    met = growth <= args.budget_mib
    args.out.write_text(_report(args, readings, seconds, baseline, growth, met), encoding="utf-8")
    print(
        f"growth after warm-up: {growth:+.1f} MiB (budget {args.budget_mib:g}): "
        f"{'met' if met else 'NOT met'}; written to {args.out}"
    )
    return 0 if met else 1


def _report(
    args: argparse.Namespace,
    readings: list[tuple[int, float, float]],
    seconds: float,
    baseline: float,
    growth: float,
    met: bool,
) -> str:
    lines = [
        "# Soak: `fakesqs serve` over HTTP",
        "",
        f"Python {platform.python_version()}, {platform.machine()}; "
        f"`python benchmarks/soak.py --messages {args.messages} "
        f"--history-limit {args.history_limit}`.",
        "",
        f"{args.messages:,} messages of 100 bytes, sent in batches of {BATCH}, received "
        f"{BATCH} at a time and deleted in batches, over one kept-alive HTTP connection "
        f"(AWS JSON); {seconds:.0f} s in all ({args.messages / seconds:,.0f} messages/s, "
        "client and server sharing the machine).",
        "",
        "| messages | seconds | server resident memory (MiB) |",
        "|---:|---:|---:|",
    ]
    lines += [f"| {done:,} | {at:.1f} | {mib:.1f} |" for done, at, mib in readings]
    lines += [
        "",
        f"After the warm-up ({args.warm_up:,} messages): baseline {baseline:.1f} MiB, largest "
        f"growth {growth:+.1f} MiB against a budget of {args.budget_mib:g} MiB: "
        f"**{'met' if met else 'not met'}**.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
