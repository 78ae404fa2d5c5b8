"""AWS JSON 1.0, as current botocore speaks it to SQS (`X-Amz-Target: AmazonSQS.<Action>`)."""

from __future__ import annotations

import json
from json.scanner import make_scanner
from typing import Any, cast

from ..api.as_is import AsIsRows
from ..api.error_texts import ErrorText
from ..api.errors import SqsError
from ..engine.handles import new_message_id as new_request_id
from .base import DecodedRequest, WireRequest, WireResponse

CONTENT_TYPE = "application/x-amz-json-1.0"
TARGET_PREFIX = "AmazonSQS."
ERROR_NAMESPACE = "com.amazonaws.sqs#"
YDB_CONTENT_TYPE = "application/x-amz-json-1.1"  # what YDB's http_proxy labels its answers
# Built once: json.dumps() with options makes a new encoder on every call. Answers are trees
# the api built, never cyclic, so the encoder need not keep a set of the objects it visited.
_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def is_json_request(request: WireRequest) -> bool:
    target = request.headers.get("x-amz-target", "")
    return target.startswith(TARGET_PREFIX) or request.headers.get("content-type", "").startswith(
        CONTENT_TYPE
    )


# Action names by X-Amz-Target: one string per action, not one per call (the call log keeps it).
_actions: dict[str, str] = {}
_MAX_ACTIONS = 64


def decode(request: WireRequest) -> DecodedRequest:
    target = request.headers.get("x-amz-target", "")
    if not target.startswith(TARGET_PREFIX) or len(target) == len(TARGET_PREFIX):
        raise ErrorText.UNKNOWN_OPERATION(target=repr(target))
    action = _actions.get(target)
    if action is None:
        action = target[len(TARGET_PREFIX) :]
        if len(_actions) < _MAX_ACTIONS:
            _actions[target] = action
    try:
        # Decoding first skips json's encoding detection; botocore always sends UTF-8.
        params = loads(request.body.decode("utf-8")) if request.body else {}
    except (ValueError, UnicodeDecodeError, RecursionError):  # nesting too deep is malformed
        raise ErrorText.SERIALIZATION() from None
    if not isinstance(params, dict):
        raise ErrorText.SERIALIZATION()
    body = request.body
    # _may_nest_deeper_than's first look, in place: most bodies are too short to nest that deep.
    if (
        len(body) > 2 * MAX_NESTING
        and _may_nest_deeper_than(body, MAX_NESTING)
        and _nested_deeper_than(params, MAX_NESTING)
    ):
        raise ErrorText.SERIALIZATION()
    return DecodedRequest(action, params)


# json's own scanner (in C), made as json.loads' is; typeshed names its argument a scanner.
_SCAN_ONCE = make_scanner(cast(Any, json.JSONDecoder()))


def loads(text: str) -> Any:
    """json.loads(text). An object with nothing around it (every body botocore sends) goes
    straight to json's C scanner, without the three Python calls and two whitespace matches
    json.loads makes around it; anything else, and any error, is json.loads' own.
    tests/protocol/test_json10.py proves the two agree."""
    if text[:1] == "{" and text[-1:] == "}":
        try:
            value, end = _SCAN_ONCE(text, 0)  # ValueError, RecursionError: as json.loads'
        except StopIteration:  # a value missing: json.loads says where, as a ValueError
            pass
        else:
            if end == len(text):
                return value
    return json.loads(text)  # whitespace around it, extra data, not an object, or malformed


# Deeper JSON is malformed, whatever the Python: 3.11's parser gives up near its recursion limit
# (about 1,000), 3.13's goes far deeper. AWS's own limit is not published; 512 is a guess that
# every supported Python reaches before its own.
MAX_NESTING = 512


def _may_nest_deeper_than(body: bytes, limit: int) -> bool:
    """A document nested deeper than `limit` (its innermost value at level limit + 1) has at
    least `limit` opening brackets, so it is also longer than twice that: counting them, in C,
    spares nearly every request the walk of its parsed document."""
    return len(body) > 2 * limit and body.count(b"[") + body.count(b"{") >= limit


def _nested_deeper_than(document: Any, limit: int) -> bool:
    pending = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            pending += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            pending += [(item, depth + 1) for item in value]
    return False


def _headers(request_id: str) -> dict[str, str]:
    return {
        "content-type": CONTENT_TYPE,
        "x-amzn-requestid": request_id,
    }


def encode_result(result: dict[str, Any]) -> WireResponse:
    """The answer's fields as AWS JSON 1.0 (the action is in the request, not the answer)."""
    text = hand_built(result)
    if text is None:
        text = _ENCODER.encode(result)
    return WireResponse(200, _headers(new_request_id()), text.encode())


# The rows of the stress cycle's three answers, in the order the api writes their keys.
_SENT_ROW = ("Id", "MD5OfMessageBody", "MessageId")
_RECEIVED_ROW = ("MessageId", "ReceiptHandle", "MD5OfBody", "Body")
_DELETED_ROW = ("Id",)
_ANSWERS = {("Successful", _SENT_ROW), ("Messages", _RECEIVED_ROW), ("Successful", _DELETED_ROW)}


def hand_built(result: dict[str, Any]) -> str | None:
    """The JSON of a batch's plain answer (every entry successful: a send's, a delete's) or of
    a receive's plain messages, in rows the api vouches need no quoting (AsIsRows), written row
    by row with each value between quotes as it is; None for any other answer, which the
    encoder writes.

    The text is the encoder's byte for byte (tests/protocol/test_json10.py proves it on
    generated answers). It skips the encoder's generic walk and its quoting, which reads every
    character of every value: about half of encoding these answers (benchmarks/hot_path.py).
    The rows are f-strings: on CPython 3.11 a template filled with `%` takes 2.5 times as long."""
    if len(result) != 1:
        return None
    ((key, rows),) = result.items()
    if type(rows) is not AsIsRows or not rows:
        return None
    # Every row has the first's keys in the same order and string values, as the type says.
    shape = tuple(rows[0])
    if (key, shape) not in _ANSWERS:
        return None
    if shape == _RECEIVED_ROW:
        built = [
            f'{{"MessageId":"{r["MessageId"]}","ReceiptHandle":"{r["ReceiptHandle"]}",'
            f'"MD5OfBody":"{r["MD5OfBody"]}","Body":"{r["Body"]}"}}'
            for r in rows
        ]
    elif shape == _SENT_ROW:
        built = [
            f'{{"Id":"{r["Id"]}","MD5OfMessageBody":"{r["MD5OfMessageBody"]}",'
            f'"MessageId":"{r["MessageId"]}"}}'
            for r in rows
        ]
    else:
        built = [f'{{"Id":"{r["Id"]}"}}' for r in rows]
    return '{"' + key + '":[' + ",".join(built) + "]}"


def encode_error(error: SqsError, *, query_error_header: bool = True) -> WireResponse:
    spec = error.spec
    headers = _headers(new_request_id())
    if query_error_header:
        headers["x-amzn-query-error"] = f"{spec.query_code};{spec.fault}"
    body = json.dumps({"__type": ERROR_NAMESPACE + spec.shape, "message": error.message})
    return WireResponse(spec.status, headers, body.encode())


def encode_ydb_error(error: SqsError) -> WireResponse:
    """YDB's JSON front-end for YMQ: `__type` is the query code, no `x-amzn-query-error`.

    botocore therefore raises a generic ClientError whose Code is that query code
    (e.g. `AWS.SimpleQueueService.NonExistentQueue`), not the modelled exception class.
    """
    headers = {"content-type": YDB_CONTENT_TYPE, "x-amzn-requestid": new_request_id()}
    body = json.dumps({"__type": error.spec.query_code, "message": error.message})
    return WireResponse(error.spec.status, headers, body.encode())


def bad_gateway() -> WireResponse:
    """What the public YMQ endpoint answered to JSON requests before it spoke JSON."""
    body = (
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
        "<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"
    )
    return WireResponse(502, {"content-type": "text/html"}, body.encode())
