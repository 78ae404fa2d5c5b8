"""Queue URLs and ARNs of each flavor, both ways."""

from __future__ import annotations

import functools
import hashlib
import itertools
import threading
import weakref
from typing import Protocol
from urllib.parse import urlsplit

from ..engine import Broker, Queue, QueueKey
from .context import RequestContext

YMQ_ENDPOINT = "https://message-queue.api.cloud.yandex.net"
_BASE32 = "0123456789abcdefghijklmnopqrstuv"


class Addressing(Protocol):
    def queue_url(self, ctx: RequestContext, key: QueueKey) -> str: ...

    def queue_arn(self, key: QueueKey) -> str: ...

    def key_from_url(self, ctx: RequestContext, url: str) -> QueueKey | None: ...

    def key_from_arn(self, arn: str) -> QueueKey | None: ...


@functools.lru_cache(maxsize=1024)  # a client repeats its few queue URLs on every call
def _path_segments(url: str) -> tuple[str, ...]:
    path = urlsplit(url).path if "://" in url else url
    return tuple(s for s in path.split("/") if s)


class AwsAddressing:
    """`<endpoint>/<account>/<name>` and `arn:aws:sqs:<region>:<account>:<name>`."""

    def queue_url(self, ctx: RequestContext, key: QueueKey) -> str:
        region, account_id, name = key
        base = ctx.base_url or f"https://sqs.{region}.amazonaws.com"
        return f"{base}/{account_id}/{name}"

    def queue_arn(self, key: QueueKey) -> str:
        region, account_id, name = key
        return f"arn:aws:sqs:{region}:{account_id}:{name}"

    def key_from_url(self, ctx: RequestContext, url: str) -> QueueKey | None:
        """The queue a URL names, or None when it is not a queue URL at all."""
        if not isinstance(url, str) or not url:
            return None
        segments = _path_segments(url)
        if len(segments) == 2:
            return (ctx.region, segments[0], segments[1])
        if len(segments) == 1 and "://" not in url:
            # A bare name: some clients send it; resolve within the caller's account.
            return (ctx.region, ctx.account_id, segments[0])
        return None

    def key_from_arn(self, arn: str) -> QueueKey | None:
        parts = arn.split(":") if isinstance(arn, str) else []
        if len(parts) != 6 or parts[0] != "arn" or parts[2] != "sqs" or not parts[5]:
            return None
        return (parts[3], parts[4], parts[5])


def _base32(number: int, width: int) -> str:
    digits = [_BASE32[(number >> (5 * i)) & 31] for i in range(width)]
    return "".join(reversed(digits))


def yc_id(kind: str, account_id: str) -> str:
    """A Yandex Cloud style id (20 chars, `b1g` prefix) derived from the account option."""
    digest = int.from_bytes(hashlib.sha256(f"{kind}/{account_id}".encode()).digest()[:11])
    return "b1g" + _base32(digest, 17)


class YmqAddressing:
    """YMQ: `<endpoint>/<cloud_id>/<queue_id>/<name>` and `yrn:yc:ymq:<region>:<folder_id>:<name>`.

    Each created queue gets a new internal id (as YDB's `MakeQueueId` does), so a queue
    deleted and created again has a new URL and the old one answers NonExistentQueue.
    """

    SERVICE_ID = "dj6"  # the first 15 bits of every id seen on the public service

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._accounts_by_folder: dict[str, str] = {}
        # Each queue's id, for as long as the queue object lives (a new queue, a new id).
        self._queue_ids: weakref.WeakKeyDictionary[Queue, str] = weakref.WeakKeyDictionary()

    def cloud_id(self, account_id: str) -> str:
        return yc_id("cloud", account_id)

    def folder_id(self, account_id: str) -> str:
        folder = yc_id("folder", account_id)
        self._accounts_by_folder.setdefault(folder, account_id)
        return folder

    def queue_id(self, key: QueueKey) -> str:
        """The queue's internal id, issued the first time its URL is asked for."""
        queue = self._broker.find(key)
        if queue is None:
            return self.SERVICE_ID + "0" * 17
        with self._lock:
            issued = self._queue_ids.get(queue)
            if issued is None:
                account_hash = int(hashlib.sha256(key[1].encode()).hexdigest(), 16) & 0x1FFF
                issued = (
                    self.SERVICE_ID + _base32(next(self._numbers), 13) + _base32(account_hash, 4)
                )
                self._queue_ids[queue] = issued
            return issued

    def queue_url(self, ctx: RequestContext, key: QueueKey) -> str:
        _region, account_id, name = key
        base = ctx.base_url or YMQ_ENDPOINT
        return f"{base}/{self.cloud_id(account_id)}/{self.queue_id(key)}/{name}"

    def queue_arn(self, key: QueueKey) -> str:
        region, account_id, name = key
        return f"yrn:yc:ymq:{region}:{self.folder_id(account_id)}:{name}"

    def key_from_url(self, ctx: RequestContext, url: str) -> QueueKey | None:
        if not isinstance(url, str) or not url:
            return None
        segments = _path_segments(url)
        if len(segments) == 1 and "://" not in url:
            return (ctx.region, ctx.account_id, segments[0])
        if len(segments) != 3 or segments[0] != self.cloud_id(ctx.account_id):
            return None
        key = (ctx.region, ctx.account_id, segments[2])
        queue = self._broker.find(key)
        if queue is None or self._queue_ids.get(queue) != segments[1]:
            return None  # a stale URL: the queue was deleted (and perhaps created again)
        return key

    def key_from_arn(self, arn: str) -> QueueKey | None:
        parts = arn.split(":") if isinstance(arn, str) else []
        if len(parts) != 6 or parts[:3] != ["yrn", "yc", "ymq"] or not parts[3] or not parts[5]:
            return None
        if parts[4] not in self._accounts_by_folder:
            for queue in self._broker.queues():  # learn the folders of every account in use
                self.folder_id(queue.key[1])
        account_id = self._accounts_by_folder.get(parts[4])
        return None if account_id is None else (parts[3], account_id, parts[5])
