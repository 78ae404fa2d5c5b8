"""LocalStack's SQS developer endpoint, for tools and tests written against LocalStack.

`GET /_aws/sqs/messages?QueueUrl=...` (or `/_aws/sqs/messages/<region>/<account>/<queue>`)
lists a queue's messages as a ReceiveMessage answer would, without receiving them: receive
counts, visibility and order are untouched. `ShowInvisible=true` adds in-flight messages (with
an `IsVisible` attribute), `ShowDelayed=true` delayed ones (`IsDelayed`). The answer is the
query protocol's XML, its JSON rendering for `Accept: application/json`, or an AWS JSON answer
for a botocore client whose endpoint_url is this path. `DELETE` with the same address purges
the queue (a fakesqs addition, as Floci has it; LocalStack's own has GET and POST only).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ..api import SqsError
from ..api.error_texts import ErrorText
from ..api.errors import ErrorSpec
from ..engine import Delivery, Message, Queue, State
from ..fake.core import Inspection
from ..fake.facade import FakeSQS, inspection
from ..protocol import WireRequest, WireResponse, json10, query
from ..transport.routes import Endpoint, Route

PATH = "/_aws/sqs/messages"
RECEIPT_HANDLE = "SQS/BACKDOOR/ACCESS"  # LocalStack's placeholder: nothing was received
_INVALID_ADDRESS = ErrorSpec("InvalidAddress", "InvalidAddress", 404)
_INVALID_REQUEST = ErrorSpec("InvalidRequest", "InvalidRequest")
_TRUE = ("true", "1")


def peek_route(fake: FakeSQS) -> Route:
    return Route(PATH, ("GET", "POST", "DELETE"), _endpoint(fake), subpaths=True)


def _endpoint(fake: FakeSQS) -> Endpoint:
    seen = inspection(fake)

    def answer(request: WireRequest) -> WireResponse:
        aws_json = json10.is_json_request(request)
        try:
            values = _values(request)
            queue = _queue(seen, request, values)
            if request.method == "DELETE":
                seen.purge(queue)
                return WireResponse(200, {"Content-Type": "application/json"}, b'{"ok": true}\n')
            messages = _peek(
                seen,
                queue,
                show_invisible=str(values.get("ShowInvisible", "")).lower() in _TRUE,
                show_delayed=str(values.get("ShowDelayed", "")).lower() in _TRUE,
            )
        except SqsError as error:
            if aws_json:
                return json10.encode_error(error)
            return _negotiated(request, query.encode_error(error))
        result = {"Messages": messages}
        if aws_json:
            return json10.encode_result(result)
        return _negotiated(request, query.encode_result("ReceiveMessage", result))

    return answer


def _values(request: WireRequest) -> dict[str, Any]:
    """The request's parameters: the query string, then a form or AWS JSON body (which, from an
    SDK, must be a ReceiveMessage call: the only call this endpoint answers)."""
    values: dict[str, Any] = {k: v[-1] for k, v in parse_qs(urlsplit(request.url).query).items()}
    if not request.body:
        return values
    content_type = request.headers.get("content-type", "")
    form = parse_qs(request.body.decode("utf-8", "replace"))
    if "x-www-form-urlencoded" in content_type and "Action" not in form:
        values.update({k: v[-1] for k, v in form.items()})  # a plain form, e.g. curl -d
    elif json10.is_json_request(request) or "x-www-form-urlencoded" in content_type:
        codec: Any = json10 if json10.is_json_request(request) else query
        decoded = codec.decode(request)
        if decoded.action != "ReceiveMessage":
            raise SqsError(_INVALID_REQUEST, "This endpoint only accepts ReceiveMessage calls")
        values.update(decoded.params)
    return values


def _queue(seen: Inspection, request: WireRequest, values: dict[str, Any]) -> Queue:
    path = unquote(urlsplit(request.url).path).rstrip("/")
    missing = ErrorText.QUEUE_DOES_NOT_EXIST()
    if path != PATH:  # /_aws/sqs/messages/<region>/<account>/<queue>
        parts = path[len(PATH) + 1 :].split("/")
        if len(parts) != 3 or not all(parts):
            raise SqsError(_INVALID_ADDRESS, f"The address {path} is not valid for this endpoint.")
        queue = seen.find((parts[0], parts[1], parts[2]))
        if queue is None:
            raise missing
        return queue
    url = values.get("QueueUrl")
    if not isinstance(url, str) or not url:
        raise missing
    key = seen.key_from_url(request, url)
    if key is None:
        raise SqsError(_INVALID_ADDRESS, f"The address {url} is not valid for this endpoint.")
    found = seen.find(key) or seen.find((seen.options.region, *key[1:]))
    if found is None:  # a URL without a region (ours have none): unambiguous by account + name
        same = [q for q in seen.queues() if q.key[1:] == key[1:]]
        found = same[0] if len(same) == 1 else None
    if found is None:
        raise missing
    return found


def _peek(
    seen: Inspection, queue: Queue, *, show_invisible: bool, show_delayed: bool
) -> list[dict[str, Any]]:
    """In LocalStack's order: in-flight (if shown), visible, delayed (if shown); each group in
    the order the messages arrived. A FIFO message behind an in-flight one of its group cannot
    be received, so it shows only with the in-flight ones."""
    by_state = seen.states(queue)
    blocked = _blocked_groups(queue)
    visible = [m for m in by_state[State.VISIBLE] if m.group_id not in blocked]
    held = [m for m in by_state[State.VISIBLE] if m.group_id in blocked]
    shown: list[Message] = []
    if show_invisible:
        shown += sorted(by_state[State.IN_FLIGHT] + held, key=lambda m: m.sequence)
    shown += visible
    if show_delayed:
        shown += by_state[State.DELAYED]
    rendered = []
    for message in shown:
        delivery = Delivery(
            message, RECEIPT_HANDLE, message.receive_count, message.first_received_at or 0
        )
        row = seen.render_delivery(delivery)
        attributes = row.setdefault("Attributes", {})
        if show_invisible:
            attributes["IsVisible"] = "false" if message.state is State.IN_FLIGHT else "true"
        if show_delayed:
            attributes["IsDelayed"] = "true" if message.state is State.DELAYED else "false"
        rendered.append(row)
    return rendered


def _blocked_groups(queue: Queue) -> set[str | None]:
    if queue.groups is None:
        return set()
    with queue.lock:
        return {name for name, group in queue.groups.groups.items() if group.in_flight > 0}


def _negotiated(request: WireRequest, xml_response: WireResponse) -> WireResponse:
    """The XML answer, or (Accept: application/json; else a JSON Content-Type) the same
    document as JSON, shaped as LocalStack renders XML to JSON."""
    accept = request.headers.get("accept", "")
    if not accept or accept.strip() == "*/*":
        accept = request.headers.get("content-type", "")
    if "json" not in accept.lower():
        return xml_response
    root = ElementTree.fromstring(xml_response.body)
    document = {_local(root.tag): _as_json(root)}
    headers = {**xml_response.headers, "content-type": "application/json"}
    body = json.dumps(document).encode("utf-8")
    return WireResponse(xml_response.status, headers, body)


def _as_json(element: ElementTree.Element) -> Any:
    """An element as a value: None when empty, its text when it has no children, else a dict
    whose repeated children become lists (as xmltodict does)."""
    children = list(element)
    if not children:
        return element.text if element.text is not None else None
    document: dict[str, Any] = {}
    for child in children:
        name, value = _local(child.tag), _as_json(child)
        if name not in document:
            document[name] = value
        elif isinstance(document[name], list):
            document[name].append(value)
        else:
            document[name] = [document[name], value]
    return document


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]
