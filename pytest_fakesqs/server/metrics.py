"""`GET /metrics`: the queues in Prometheus' text format, named after SQS's CloudWatch metrics.

Gauges are read from the engine at scrape time (O(1) counters per queue); counters are counted
here from every call the fake answers (over HTTP and in-process alike), so nothing is added to
the engine's hot path. prometheus_client renders them and is imported at the first scrape
only: a server nobody scrapes never loads it.

    fakesqs_approximate_number_of_messages_visible{queue,account,region}      gauge
    fakesqs_approximate_number_of_messages_not_visible{queue,account,region}  gauge
    fakesqs_approximate_number_of_messages_delayed{queue,account,region}      gauge
    fakesqs_approximate_age_of_oldest_message_seconds{queue,account,region}   gauge
    fakesqs_number_of_messages_sent_total{queue,account,region}               counter
    fakesqs_number_of_messages_received_total{queue,account,region}           counter
    fakesqs_number_of_messages_deleted_total{queue,account,region}            counter
    fakesqs_number_of_empty_receives_total{queue,account,region}              counter
    fakesqs_requests_total{action,error_code}                                 counter
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..engine import Queue
from ..engine.settings import QueueKey
from ..fake.core import Inspection
from ..protocol import WireResponse
from ..protocol.dispatch import CallRecord

__all__ = ["CallCounts", "CallRecord", "QueueKey", "UrlKeys", "read_queues", "render"]

PATH = "/metrics"
# The text format every Prometheus reads (newer prometheus_client releases announce 1.0.0 for
# the same lines, which Prometheus before 3.0 does not know).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
QUEUE_LABELS = ("queue", "account", "region")
GAUGES = (
    ("approximate_number_of_messages_visible", "Messages available for retrieval."),
    ("approximate_number_of_messages_not_visible", "Messages in flight: received, not deleted."),
    ("approximate_number_of_messages_delayed", "Messages delayed, not yet available."),
    ("approximate_age_of_oldest_message_seconds", "Age of the oldest message in the queue."),
)
COUNTERS = (
    ("number_of_messages_sent", "Messages added to the queue."),
    ("number_of_messages_received", "Messages returned by ReceiveMessage."),
    ("number_of_messages_deleted", "Messages deleted from the queue."),
    ("number_of_empty_receives", "ReceiveMessage calls that returned no message."),
)
_SENT, _RECEIVED, _DELETED, _EMPTY = range(4)
_MAX_CACHED_URLS = 4096
# Resolves a call's QueueUrl (with its context) to the queue's key; None when it names none.
KeyOf = Callable[[CallRecord], QueueKey | None]


@dataclass(frozen=True, slots=True)
class QueueReading:
    key: QueueKey
    visible: int
    not_visible: int
    delayed: int
    oldest_age: float


def read_queues(fake: Inspection) -> list[QueueReading]:
    """Every queue's gauges, each read under its lock after its due transitions."""
    now = fake.now()
    readings = []
    for queue in fake.queues():
        readings.append(_reading(fake, queue, now))
    return sorted(readings, key=lambda reading: reading.key)


def _reading(fake: Inspection, queue: Queue, now: float) -> QueueReading:
    fake.refresh(queue)
    with queue.lock:
        oldest = queue.schedule.oldest_enqueued_at()
        return QueueReading(
            queue.key,
            queue.visible,
            queue.in_flight,
            queue.delayed,
            0.0 if oldest is None else max(0.0, now - oldest),
        )


class CallCounts:
    """What the CloudWatch counters count, per queue, and requests per action and error code;
    fed by the wire handler's call listener."""

    def __init__(self, key_of: KeyOf) -> None:
        self._key_of = key_of
        self._lock = threading.Lock()
        self.per_queue: dict[QueueKey, list[int]] = {}
        self.requests: dict[tuple[str, str], int] = {}

    def heard(self, record: CallRecord) -> None:
        code = record.error_code or ""
        counted = _counted(record) if record.error is None else None
        key = self._key_of(record) if counted is not None else None
        with self._lock:
            request = (record.action, code)
            self.requests[request] = self.requests.get(request, 0) + 1
            if counted is not None and key is not None:
                counts = self.per_queue.get(key)
                if counts is None:
                    counts = self.per_queue[key] = [0, 0, 0, 0]
                index, amount = counted
                counts[index] += amount
                if index == _RECEIVED and amount == 0:
                    counts[_EMPTY] += 1

    def forget_queues(self) -> None:
        """The queues are gone (a reset): their counters go with them."""
        with self._lock:
            self.per_queue.clear()

    def snapshot(self) -> tuple[dict[QueueKey, list[int]], dict[tuple[str, str], int]]:
        with self._lock:
            return {k: list(v) for k, v in self.per_queue.items()}, dict(self.requests)


def _counted(record: CallRecord) -> tuple[int, int] | None:
    """(which counter, by how much) a successful call moves, if any."""
    action, result = record.action, record.result or {}
    if action == "SendMessage":
        return _SENT, 1
    if action == "SendMessageBatch":
        return _SENT, len(result.get("Successful", ()))
    if action == "ReceiveMessage":
        return _RECEIVED, len(result.get("Messages", ()))
    if action == "DeleteMessage":
        return _DELETED, 1
    if action == "DeleteMessageBatch":
        return _DELETED, len(result.get("Successful", ()))
    return None


class UrlKeys:
    """A call's queue key from its QueueUrl, remembered per URL (a client repeats a few)."""

    def __init__(self, resolve: Callable[[CallRecord, str], QueueKey | None]) -> None:
        self._resolve = resolve
        self._known: dict[tuple[str, str, str], QueueKey | None] = {}

    def __call__(self, record: CallRecord) -> QueueKey | None:
        url = record.params.get("QueueUrl")
        if not isinstance(url, str) or record.context is None:
            return None
        cache_key = (url, record.context.region, record.context.account_id)
        if cache_key in self._known:
            return self._known[cache_key]
        key = self._resolve(record, url)
        if len(self._known) < _MAX_CACHED_URLS:
            self._known[cache_key] = key
        return key


def render(readings: list[QueueReading], counts: CallCounts) -> WireResponse:
    """The text a Prometheus scrape reads (prometheus_client's exposition format)."""
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Collector(readings, counts))
    return WireResponse(200, {"Content-Type": CONTENT_TYPE}, generate_latest(registry))


class _Collector:
    """prometheus_client's custom-collector protocol: `collect()` yields metric families."""

    def __init__(self, readings: list[QueueReading], counts: CallCounts) -> None:
        self.readings = readings
        self.counts = counts

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        gauges = [
            GaugeMetricFamily(f"fakesqs_{name}", text, labels=QUEUE_LABELS) for name, text in GAUGES
        ]
        for reading in self.readings:
            labels = _labels(reading.key)
            values = (reading.visible, reading.not_visible, reading.delayed, reading.oldest_age)
            for gauge, value in zip(gauges, values, strict=True):
                gauge.add_metric(labels, value)
        yield from gauges
        per_queue, requests = self.counts.snapshot()
        # A queue that exists but was never used shows zeros, so a dashboard has its series.
        for reading in self.readings:
            per_queue.setdefault(reading.key, [0, 0, 0, 0])
        for index, (name, text) in enumerate(COUNTERS):
            counter = CounterMetricFamily(f"fakesqs_{name}", text, labels=QUEUE_LABELS)
            for key in sorted(per_queue):
                counter.add_metric(_labels(key), per_queue[key][index])
            yield counter
        by_action = CounterMetricFamily(
            "fakesqs_requests",
            "SQS requests answered, by action and error code (empty: answered without error).",
            labels=("action", "error_code"),
        )
        for (action, code), count in sorted(requests.items()):
            by_action.add_metric([action, code], count)
        yield by_action


def _labels(key: QueueKey) -> list[str]:
    region, account, name = key
    return [name, account, region]
