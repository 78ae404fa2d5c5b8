"""Side by side with moto's `mock_aws`: SQS goes to the fake, every other service to moto.

moto answers from a `before-send` handler (its BotocoreStubber), ahead of the send step the fake
patches; while a fake is active that handler steps aside for SQS requests, which then reach the
fake's send step like any other. moto's SNS, S3 and EventBridge deliver to SQS by calling their
SQS backend directly, not over HTTP: `SQSBackend.send_message` (and the attribute read
EventBridge makes before a FIFO delivery) go to the fake for the queues the fake has.
These patches are on only while they are needed: while a fake is active and moto's mock is on
(moto's stubber does nothing otherwise). The transport imports this module once moto is imported
while a fake is active; from then on moto's starts and stops (moto_lifecycle) put the patches on
and take them off, and moto's classes are looked up afresh each time, so a moto imported again
(pytester's in-process runs drop the modules they imported) is patched too.
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
from . import moto_lifecycle, moto_sources
from .patching import Patches
from .serving import current_handler

MotoSqsBackend = Any  # moto.sqs.models.SQSBackend, looked up at install time
_patches = Patches()


def _stubber_call(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(self: Any, event_name: str, request: Any, **kwargs: Any) -> Any:
        if current_handler() is not None and event_name.startswith("before-send.sqs."):
            return None  # botocore goes on to its send step, which the fake serves
        return original(self, event_name, request, **kwargs)

    return call


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


# moto's SNS hands a raw delivery's attributes over in the wire's names (moto 5.1.16 on) or in
# snake case (moto 5.0.0 to 5.1.15): each key read as the wire names it.
_ATTRIBUTE_KEYS = {
    "DataType": "DataType",
    "StringValue": "StringValue",
    "BinaryValue": "BinaryValue",
    "data_type": "DataType",
    "string_value": "StringValue",
    "binary_value": "BinaryValue",
}


def _wire_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    wire: dict[str, Any] = {}
    for name, value in attributes.items():
        entry = {_ATTRIBUTE_KEYS[k]: v for k, v in value.items() if k in _ATTRIBUTE_KEYS}
        if isinstance(entry.get("BinaryValue"), bytes | bytearray):
            entry["BinaryValue"] = base64.b64encode(entry["BinaryValue"]).decode("ascii")
        wire[name] = entry
    return wire


def _routed(serve: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrapper of moto's `SQSBackend.<name>`: the fake serves its own queues, moto the rest."""
    return lambda original: _routed_method(original, serve)


def _routed_method(original: Callable[..., Any], serve: Callable[..., Any]) -> Callable[..., Any]:
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


class _MotoFollower:
    """Puts the patches on while moto's mock is on (a fake is active whenever it listens)."""

    def moto_started(self, reset: bool) -> None:
        _install()

    def moto_stopped(self, remove_data: bool) -> None:
        _patches.undo()

    def moto_reset(self) -> None:
        return


_follower = _MotoFollower()


def follow() -> None:
    """A fake became active with moto imported: serve SQS for moto's mock whenever it is on."""
    moto_lifecycle.watch(_follower)
    if moto_lifecycle.moto_is_active():
        _install()


def unfollow() -> None:
    moto_lifecycle.unwatch(_follower)
    _patches.undo()


def _install() -> None:
    if _patches:
        return
    stubber = importlib.import_module("moto.core.botocore_stubber").BotocoreStubber
    backend = importlib.import_module("moto.sqs.models").SQSBackend
    _patches.wrap(stubber, "__call__", _stubber_call)
    for name, serve in _SERVERS.items():
        _patches.wrap(backend, name, _routed(serve))
    moto_sources.install(_patches)
