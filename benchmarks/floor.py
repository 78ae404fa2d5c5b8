"""The botocore floor: a `before-send` handler answering with canned responses.

botocore serialises, signs and parses exactly as it would against any endpoint, but nothing
computes an answer; no in-process fake can be faster than this.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from botocore.awsrequest import AWSResponse

BATCH = 10
QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/123456789012/bench"
_MESSAGE_ID = "5fea7756-0ea4-451a-a703-a558b933e274"
_RECEIPT_HANDLE = "AQEBcTF8NWZlYTc3NTYtMGVhNC00NTFhLWE3MDMtYTU1OGI5MzNlMjc0fDF8M2Y5YzFhMmI0ZDVl"
_HEADERS = {"content-type": "application/x-amz-json-1.0", "x-amzn-requestid": _MESSAGE_ID}


class _RawBody:
    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, *_args: Any, **_kwargs: Any) -> Iterator[bytes]:
        yield self._body

    def read(self, *_args: Any, **_kwargs: Any) -> bytes:
        return self._body


def _encode(document: dict[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode()


class CannedSqs:
    """Answers the stress cycle's calls; counts messages so receives drain like a real queue."""

    def __init__(self, body: str) -> None:
        self.queued = 0
        md5 = "a" * 32
        self._create = _encode({"QueueUrl": QUEUE_URL})
        self._send_batch = _encode(
            {
                "Successful": [
                    {"Id": str(i), "MessageId": _MESSAGE_ID, "MD5OfMessageBody": md5}
                    for i in range(BATCH)
                ],
                "Failed": [],
            }
        )
        self._send = _encode({"MessageId": _MESSAGE_ID, "MD5OfMessageBody": md5})
        message = {
            "MessageId": _MESSAGE_ID,
            "ReceiptHandle": _RECEIPT_HANDLE,
            "MD5OfBody": md5,
            "Body": body,
        }
        # Pre-encoded answers for receives of 0..10 messages.
        self._receive = [_encode({"Messages": [message] * n} if n else {}) for n in range(11)]
        self._delete_batch = _encode(
            {"Successful": [{"Id": str(i)} for i in range(BATCH)], "Failed": []}
        )
        self._empty = b"{}"

    def __call__(self, request: Any, **_kwargs: Any) -> AWSResponse:
        target = request.headers["X-Amz-Target"]
        action = (target.decode() if isinstance(target, bytes) else target).split(".", 1)[1]
        if action == "SendMessageBatch":
            self.queued += BATCH
            body = self._send_batch
        elif action == "SendMessage":
            self.queued += 1
            body = self._send
        elif action == "ReceiveMessage":
            taken = min(BATCH, self.queued)
            self.queued -= taken
            body = self._receive[taken]
        elif action == "DeleteMessageBatch":
            body = self._delete_batch
        elif action == "CreateQueue":
            body = self._create
        else:
            body = self._empty
        # A header map per answer, as the fake's transport builds one (AWSResponse copies any
        # mapping into botocore's HeadersDict; a plain dict is the cheapest to copy).
        return AWSResponse(request.url, 200, dict(_HEADERS), _RawBody(body))


def install(client: Any, body: str) -> CannedSqs:
    """Answer every SQS call of `client` with canned responses."""
    canned = CannedSqs(body)
    client.meta.events.register("before-send.sqs", canned)
    return canned
