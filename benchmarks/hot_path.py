"""Each micro-optimisation of the request path against the plain code it replaces.

    python benchmarks/hot_path.py               # 31 interleaved rounds
    python benchmarks/hot_path.py --rounds 61

The inputs are the stress cycle's own (benchmarks/cycle.py): a botocore request as the fake's
transport receives it, reused for every shortcut. Each round
times every shortcut and its plain twin alike, alternating, and the figure is the lower quartile
of each (a busy machine only ever adds time). A shortcut is kept when it saves a measurable share
of the cycle: "per sample" is the saving times the calls one stress-cycle sample makes (2,000
messages, 3 rounds: 1,800 requests), against the botocore floor's own sample.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import cycle
import floor

from pytest_fakesqs.api import as_is, md5, receiving
from pytest_fakesqs.protocol import WireRequest, json10
from pytest_fakesqs.transport import inprocess

REQUESTS = 1800  # per stress-cycle sample: 3 rounds of 200 sends, 200 receives, 200 deletes
LOOPS = 200  # calls per timing


def _captured_requests() -> dict[str, Any]:
    """The prepared botocore requests of one send batch, receive and delete batch."""
    client = cycle.make_client()
    floor.install(client, cycle.BODY)
    seen: dict[str, Any] = {}

    def keep(request: Any, **_kwargs: Any) -> None:
        seen[request.headers["X-Amz-Target"].decode().split(".")[1]] = request

    client.meta.events.register_first("before-send.sqs", keep)
    url = client.create_queue(QueueName="bench")["QueueUrl"]
    cycle.stress_cycle(client, url, cycle.BATCH)
    return seen


def pairs() -> list[tuple[str, int, Callable[[], object], Callable[[], object]]]:
    """(what, calls per sample, shortcut, plain code)."""
    requests = _captured_requests()
    send = requests["SendMessageBatch"]
    send_body = send.body if isinstance(send.body, bytes) else send.body.encode()
    params = json.loads(send_body.decode())
    wire = WireRequest("POST", send.url, inprocess.wire_headers(send.headers), send_body)
    body = cycle.BODY.encode()
    return [
        (
            "request headers: HeadersDict._dict",
            REQUESTS,
            lambda: inprocess.wire_headers(send.headers),
            lambda: inprocess.plain_wire_headers(send.headers),
        ),
        (
            "nesting check: bracket count",
            REQUESTS * 2 // 3,  # sends and deletes are long enough to be checked at all
            lambda: (
                json10._may_nest_deeper_than(wire.body, json10.MAX_NESTING)
                and json10._nested_deeper_than(params, json10.MAX_NESTING)
            ),
            lambda: json10._nested_deeper_than(params, json10.MAX_NESTING),
        ),
        (
            "body MD5: CPython's builtin _md5",
            REQUESTS // 3 * cycle.BATCH,  # one per message sent
            lambda: md5.md5(body).hexdigest(),
            lambda: hashlib.md5(body).hexdigest(),
        ),
        *[
            (
                f"answer JSON, {action}: vouched rows (AsIsRows)",
                REQUESTS // 3,
                lambda answer=answer: json10.hand_built(_vouched(answer)),
                lambda answer=answer: json10._ENCODER.encode(answer),
            )
            for action, answer in _answers().items()
        ],
    ]


def _vouched(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer as the api vouches for it, paying what the api pays: a receive's ids,
    digests and bodies checked once (send and delete rows are plain by construction)."""
    ((key, rows),) = answer.items()
    vouched = receiving.vouched(rows) if key == "Messages" else as_is.AsIsRows(rows)
    assert type(vouched) is as_is.AsIsRows
    return {key: vouched}


def _answers() -> dict[str, dict[str, Any]]:
    """The three answers of the stress cycle, as the fake's api writes them (10 entries)."""
    message_id, digest = "5fea7756-0ea4-451a-a703-a558b933e274", "a" * 32
    handle = "AQEB" + "cTF8NWZlYTc3NTYtMGVhNC00NTFhLWE3MDMtYTU1OGI5MzNlMjc0fDF8M2Y5YzFhMmI0ZDVl"
    ids = [str(i) for i in range(cycle.BATCH)]
    return {
        "SendMessageBatch": {
            "Successful": [
                {"Id": i, "MD5OfMessageBody": digest, "MessageId": message_id} for i in ids
            ]
        },
        "ReceiveMessage": {
            "Messages": [
                {
                    "MessageId": message_id,
                    "ReceiptHandle": handle,
                    "MD5OfBody": digest,
                    "Body": cycle.BODY,
                }
                for _ in ids
            ]
        },
        "DeleteMessageBatch": {"Successful": [{"Id": i} for i in ids]},
    }


def _seconds_per_call(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    for _ in range(LOOPS):
        function()
    return (time.perf_counter() - started) / LOOPS


def measure(rounds: int) -> list[dict[str, Any]]:
    chosen = pairs()
    times: dict[str, tuple[list[float], list[float]]] = {what: ([], []) for what, *_ in chosen}
    for _ in range(rounds):
        for what, _calls, shortcut, plain in chosen:
            times[what][0].append(_seconds_per_call(shortcut))
            times[what][1].append(_seconds_per_call(plain))
    rows = []
    for what, calls, _shortcut, _plain in chosen:
        fast = statistics.quantiles(times[what][0], n=4)[0]
        slow = statistics.quantiles(times[what][1], n=4)[0]
        rows.append({"what": what, "calls": calls, "shortcut": fast, "plain": slow})
    return rows


def markdown(rows: list[dict[str, Any]], floor_seconds: float | None) -> str:
    lines = [
        "| shortcut | plain (µs) | shortcut (µs) | calls per sample | saved per sample |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        saved = (row["plain"] - row["shortcut"]) * row["calls"]
        share = "" if floor_seconds is None else f" ({100 * saved / floor_seconds:.1f} % of floor)"
        lines.append(
            f"| {row['what']} | {row['plain'] * 1e6:.1f} | {row['shortcut'] * 1e6:.1f} "
            f"| {row['calls']:,} | {saved * 1e3:.1f} ms{share} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    args = parser.parse_args(argv)
    rows = measure(args.rounds)
    floor_seconds = cycle.measure(["botocore floor"], 2000, 3)["botocore floor"]
    print(f"botocore floor: {floor_seconds:.3f} s per stress-cycle sample (CPU)\n")
    print(markdown(rows, floor_seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
