"""Memory per queued message: what one SendMessage of a 100-byte body leaves behind."""

from __future__ import annotations

import gc
import tracemalloc

import checkout  # noqa: F401 - this checkout's package, not another copy

from pytest_fakesqs.api import RequestContext, SqsService
from pytest_fakesqs.engine import Broker, Clock

BODY = "x" * 100


def bytes_per_message(count: int) -> float:
    """Traced bytes per message after `count` SendMessage calls through the api layer."""
    service = SqsService(Broker(Clock()))
    ctx = RequestContext(access_key="AKIABENCHMARK")
    url = service.call("CreateQueue", {"QueueName": "memory"}, ctx)["QueueUrl"]
    service.call("SendMessage", {"QueueUrl": url, "MessageBody": BODY}, ctx)  # warm-up
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(count):
            # A fresh body string per message, as a decoded request would carry.
            service.call("SendMessage", {"QueueUrl": url, "MessageBody": BODY[:-1] + "y"}, ctx)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / count
