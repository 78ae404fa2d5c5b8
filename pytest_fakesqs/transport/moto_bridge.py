"""Side by side with moto's `mock_aws`: SQS goes to the fake, every other service to moto.

moto answers from a `before-send` handler (its BotocoreStubber), ahead of the send step the fake
patches; while a fake is active that handler steps aside for SQS requests, which then reach the
fake's send step like any other. moto's SNS, S3 and EventBridge deliver to SQS by calling their
SQS backend directly, not over HTTP: `SQSBackend.send_message` (and the attribute read
EventBridge makes before a FIFO delivery) go to the fake for the queues the fake has.
Imported only when moto is installed; moto's classes are looked up afresh at each install, so
a moto imported again (pytester's in-process runs drop modules they imported) is patched too.
"""

from __future__ import annotations

import base64
import functools
import importlib
import inspect
import json
from collections.abc import Callable
from typing import Any

from ..api import RequestContext
from ..api.principals import Principal, service_principal
from ..protocol import WireHandler, WireRequest
from . import moto_sources
from .inprocess import current_handler

MotoSqsBackend = Any  # moto.sqs.models.SQSBackend, looked up at install time
_originals: dict[str, Any] = {}
_patched: list[tuple[type, str, Any]] = []  # (owner, attribute, moto's original), to put back


def _stubber_call(self: Any, event_name: str, request: Any, **kwargs: Any) -> Any:
    if current_handler() is not None and event_name.startswith("before-send.sqs."):
        return None  # botocore goes on to its send step, which the fake serves
    return _originals["__call__"](self, event_name, request, **kwargs)


def _fake_queue_url(handler: WireHandler, backend: MotoSqsBackend, queue_name: str) -> str | None:
    """The fake's URL for the queue moto means, trying moto's account, then the fake's."""
    ctx = RequestContext(region=backend.region_name, account_id=handler.account_id)
    source = moto_sources.current()
    named = () if source is None or source.queue_account is None else (source.queue_account,)
    for account_id in (*named, backend.account_id, handler.account_id):
        queue = handler.service.broker.find((backend.region_name, account_id, queue_name))
        if queue is not None:
            return handler.service.queue_url(ctx, queue)
    return None


def _call(
    handler: WireHandler,
    backend: MotoSqsBackend,
    action: str,
    params: dict[str, Any],
    delivered_by: Principal | None = None,
) -> tuple[int, dict[str, Any]]:
    """One SQS call as the delivering service makes it: signed by its account, in its region."""
    region = backend.region_name
    headers = {
        "x-amz-target": f"AmazonSQS.{action}",
        "content-type": "application/x-amz-json-1.0",
        "authorization": (
            f"AWS4-HMAC-SHA256 Credential={backend.account_id}/20240101/{region}/sqs/aws4_request"
        ),
    }
    body = json.dumps(params).encode()
    response = handler.handle(
        WireRequest(
            "POST",
            f"https://sqs.{region}.amazonaws.com/",
            headers,
            body,
            from_aws_service=True,
            delivered_by=delivered_by,
        )
    )
    result = json.loads(response.body or b"{}")
    return response.status, result if isinstance(result, dict) else {}


def _delivering_service() -> Principal | None:
    """The service principal of the delivery under way (see moto_sources), if known."""
    source = moto_sources.current()
    if source is None:
        return None
    return service_principal(
        source.service,
        account_id=source.source_account,
        source_arn=source.source_arn,
        source_account=source.source_account,
    )


def _wire_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    for name, value in attributes.items():
        entry = {k: v for k, v in value.items() if k in ("DataType", "StringValue", "BinaryValue")}
        if isinstance(entry.get("BinaryValue"), bytes | bytearray):
            entry["BinaryValue"] = base64.b64encode(entry["BinaryValue"]).decode("ascii")
        wire[name] = entry
    return wire


def _routed(name: str, serve: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap moto's `SQSBackend.<name>`: the fake serves its own queues, moto the rest."""
    original = _originals[name]
    signature = inspect.signature(original)

    @functools.wraps(original)
    def method(self: MotoSqsBackend, *args: Any, **kwargs: Any) -> Any:
        handler = current_handler()
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        url = (
            None
            if handler is None
            else _fake_queue_url(handler, self, bound.arguments["queue_name"])
        )
        if handler is None or url is None:
            return original(self, *args, **kwargs)
        return serve(handler, self, url, bound.arguments)

    return method


def _send_message(
    handler: WireHandler, backend: MotoSqsBackend, url: str, args: dict[str, Any]
) -> Any:
    params: dict[str, Any] = {"QueueUrl": url, "MessageBody": args["message_body"]}
    if args.get("message_attributes"):
        params["MessageAttributes"] = _wire_attributes(args["message_attributes"])
    for param, arg in (
        ("DelaySeconds", "delay_seconds"),
        ("MessageDeduplicationId", "deduplication_id"),
        ("MessageGroupId", "group_id"),
    ):
        if args.get(arg) is not None:
            params[param] = args[arg]
    # Like AWS, a failed delivery does not fail the publisher; the fake's call log shows it.
    # As the delivering service: with enforce_policies, the queue's Policy must allow it.
    _status, result = _call(handler, backend, "SendMessage", params, _delivering_service())
    message_class = importlib.import_module("moto.sqs.models").Message
    return message_class(str(result.get("MessageId", "")), args["message_body"])


def _get_queue_attributes(
    handler: WireHandler, backend: MotoSqsBackend, url: str, args: dict[str, Any]
) -> dict[str, Any]:
    names = list(args.get("attribute_names") or [])
    if not names:
        return {}
    _status, result = _call(
        handler, backend, "GetQueueAttributes", {"QueueUrl": url, "AttributeNames": names}
    )
    attributes: dict[str, Any] = result.get("Attributes", {})
    return attributes


_SERVERS: dict[str, Callable[..., Any]] = {
    "send_message": _send_message,
    "get_queue_attributes": _get_queue_attributes,
}


def install() -> None:
    if _patched:
        return
    stubber = importlib.import_module("moto.core.botocore_stubber").BotocoreStubber
    backend = importlib.import_module("moto.sqs.models").SQSBackend
    replacements: list[tuple[type, str, Callable[..., Any]]] = [
        (stubber, "__call__", _stubber_call)
    ]
    for name in _SERVERS:
        _originals[name] = backend.__dict__[name]
        replacements.append((backend, name, _routed(name, _SERVERS[name])))
    _originals["__call__"] = stubber.__dict__["__call__"]
    for owner, name, replacement in replacements:
        _patched.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, replacement)
    moto_sources.install()


def uninstall() -> None:
    moto_sources.uninstall()
    while _patched:
        owner, name, original = _patched.pop()
        setattr(owner, name, original)
    _originals.clear()
