"""A bare fake: the least an in-process SQS must do to pass the stress cycle, and no more.

It parses each request, makes real message ids, MD5s and receipt handles, keeps messages in a
deque and answers in AWS JSON 1.0, from the same `before-send` hook as the floor. No validation,
no visibility timeouts, no histories, no call records: what it costs above the floor is what
any fake written in Python pays for the cycle's work itself, so the distance from it to
pytest-fakesqs is the price of everything else (benchmarks/headroom.py measures the three).
With `keep_calls`, it also keeps each call's request and answer bytes, as a call log must.
Never a product: it answers nothing but the cycle's four actions.
"""

from __future__ import annotations

import binascii
import hashlib
import itertools
import json
import random
from collections import deque
from typing import Any

from botocore.awsrequest import AWSResponse
from floor import QUEUE_URL, _RawBody

_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
_HEADERS = {"content-type": "application/x-amz-json-1.0"}


class BareSqs:
    """One queue, answered from `before-send`: SendMessageBatch, ReceiveMessage,
    DeleteMessageBatch and CreateQueue (which names `floor.QUEUE_URL`)."""

    def __init__(self, *, keep_calls: bool = False) -> None:
        self.visible: deque[tuple[str, str, str]] = deque()  # (message id, body, MD5)
        self.in_flight: dict[str, tuple[str, str, str]] = {}  # by receipt handle
        self.calls: list[tuple[str, bytes, bytes]] | None = [] if keep_calls else None
        self._bits = random.Random(0).getrandbits
        self._count = itertools.count()
        self._answers = {
            "CreateQueue": self.create_queue,
            "SendMessageBatch": self.send_message_batch,
            "ReceiveMessage": self.receive_message,
            "DeleteMessageBatch": self.delete_message_batch,
        }

    def __call__(self, request: Any, **_kwargs: Any) -> AWSResponse:
        action = request.headers["X-Amz-Target"].decode().split(".", 1)[1]
        body = request.body if isinstance(request.body, bytes) else request.body.encode()
        params = json.loads(body)
        answer = _ENCODE(self._answers[action](params)).encode()
        if self.calls is not None:
            self.calls.append((action, body, answer))
        # AWSResponse copies any mapping into its HeadersDict (the stubs say HTTPHeaders).
        headers: Any = {**_HEADERS, "x-amzn-requestid": self._message_id()}
        return AWSResponse(request.url, 200, headers, _RawBody(answer))

    def _message_id(self) -> str:
        digits = self._bits(128).to_bytes(16, "big").hex()
        return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"

    def create_queue(self, _params: dict[str, Any]) -> dict[str, Any]:
        return {"QueueUrl": QUEUE_URL}

    def send_message_batch(self, params: dict[str, Any]) -> dict[str, Any]:
        sent: list[dict[str, str]] = []
        for entry in params["Entries"]:
            message_id = self._message_id()
            md5 = hashlib.md5(entry["MessageBody"].encode()).hexdigest()
            self.visible.append((message_id, entry["MessageBody"], md5))
            sent.append({"Id": entry["Id"], "MD5OfMessageBody": md5, "MessageId": message_id})
        return {"Successful": sent}

    def receive_message(self, params: dict[str, Any]) -> dict[str, Any]:
        wanted = params.get("MaxNumberOfMessages", 1)
        messages: list[dict[str, str]] = []
        while self.visible and len(messages) < wanted:
            message = self.visible.popleft()
            raw = f"{message[0]}|{next(self._count)}".encode()
            handle = "AQEB" + binascii.b2a_base64(raw, newline=False).decode()
            self.in_flight[handle] = message
            messages.append(
                {
                    "MessageId": message[0],
                    "ReceiptHandle": handle,
                    "MD5OfBody": message[2],
                    "Body": message[1],
                }
            )
        return {"Messages": messages} if messages else {}

    def delete_message_batch(self, params: dict[str, Any]) -> dict[str, Any]:
        for entry in params["Entries"]:
            self.in_flight.pop(entry["ReceiptHandle"], None)
        return {"Successful": [{"Id": entry["Id"]} for entry in params["Entries"]]}


def install(client: Any, *, keep_calls: bool = False) -> BareSqs:
    """Answer every SQS call of `client` with the bare fake."""
    bare = BareSqs(keep_calls=keep_calls)
    client.meta.events.register("before-send.sqs", bare)
    return bare
