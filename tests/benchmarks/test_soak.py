"""CI's soak: 100,000 messages through `serve`'s own fake and request path, objects counted.

benchmarks/soak.py runs a million messages over real HTTP and reads resident memory; here the
same `drive()` loop goes in-process, through `SqsHttpServer.answer()` (what the socket side
calls once it has read a request), on a fake built from `serve`'s own command line, so its
100,000 messages take seconds on 2 cores. What is asserted is what is retained, not time:
after a warm-up that fills the history, the number of live allocations and of objects the
garbage collector tracks stays flat, and the logs hold no more than history_limit.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol import WireRequest
from pytest_fakesqs.server.cli import build_parser, make_fake
from pytest_fakesqs.server.server import FakeSQSServer

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
MESSAGES = 100_000
WARM_UP = 40_000  # past 10,000 finished messages and 10,000 calls (3 calls per 10 messages)
LIMIT = 10_000
# What may still come and go after the warm-up (caches, free lists, the allocator's pools):
# far below the ~5 allocations each remembered message would keep (300,000 for 60,000).
ALLOCATION_SLACK = 5_000


@pytest.fixture
def soak() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import soak

        yield soak
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("soak", None)


def test_a_long_run_retains_no_more_than_the_history_limit(soak: ModuleType) -> None:
    parser = build_parser()
    fake = make_fake(parser.parse_args(["serve", "--port", "0"]), parser)
    server = FakeSQSServer(fake)  # never started: no socket, the same answer() path
    base = "http://127.0.0.1:9324"

    def call(action: str, body: bytes) -> bytes:
        headers = {
            "content-type": "application/x-amz-json-1.0",
            "x-amz-target": f"AmazonSQS.{action}",
            "host": "127.0.0.1:9324",
        }
        response = server.http.answer(WireRequest("POST", f"{base}/", headers, body))
        assert response.status == 200, response.body
        return response.body

    counts: dict[str, tuple[int, int]] = {}

    def progress(done: int) -> None:
        if done in (WARM_UP, MESSAGES):
            gc.collect()
            counts[str(done)] = (sys.getallocatedblocks(), len(gc.get_objects()))

    try:
        created = soak.json.loads(call("CreateQueue", b'{"QueueName":"soak"}'))
        soak.drive(call, created["QueueUrl"], MESSAGES, progress)
    finally:
        server.stop()
        fake.stop()

    (blocks_warm, objects_warm), (blocks_end, objects_end) = counts["40000"], counts["100000"]
    assert fake.options.history_limit == LIMIT
    assert blocks_end - blocks_warm < ALLOCATION_SLACK, (blocks_warm, blocks_end)
    assert objects_end - objects_warm < ALLOCATION_SLACK, (objects_warm, objects_end)
    assert len(core_of(fake).message_log.message_ids()) == LIMIT
    assert core_of(fake).message_log.forgotten == MESSAGES - LIMIT
    assert len(fake.calls()) == LIMIT
