"""What an SQS request names, read without decoding it: its action and queue URL.

For the transports' and the guard's messages and the HTTP server's log line, which must name a
request whatever its protocol, even one the codecs would refuse.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from .base import WireRequest

NO_ACTION = "-"


def action_of(request: WireRequest) -> str:
    """The SQS action a request names, in either protocol ('-' when it names none)."""
    target = request.headers.get("x-amz-target", "")
    if target:
        return target.rpartition(".")[2] or target
    query = request.url.partition("?")[2]
    form = request.body.decode("utf-8", "replace") if request.body else ""
    for text in (form, query):
        actions = parse_qs(text).get("Action")
        if actions:
            return actions[0]
    return NO_ACTION


def queue_url_of(request: WireRequest) -> str | None:
    """The QueueUrl parameter of a request, in either protocol, if it has one."""
    text = request.body.decode("utf-8", "replace") if request.body else ""
    if request.headers.get("x-amz-target"):
        try:
            params = json.loads(text) if text else {}
        except ValueError:
            return None
        url = params.get("QueueUrl") if isinstance(params, dict) else None
    else:
        urls = parse_qs(text).get("QueueUrl") or parse_qs(request.url.partition("?")[2]).get(
            "QueueUrl"
        )
        url = urls[0] if urls else None
    return url if isinstance(url, str) and url else None
