"""Queue actions: CreateQueue, GetQueueUrl, ListQueues, DeleteQueue, Get/SetQueueAttributes,
PurgeQueue."""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING, Any

from ..engine import Queue, QueueAlreadyExists, QueueKey
from . import authorization, ymq
from . import queue_attributes as qa
from .context import RequestContext
from .error_texts import Text
from .errors import SqsError
from .params import get_int, get_map, get_str, get_str_list, require_str

if TYPE_CHECKING:
    from .core import Service

_QUEUE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,80}$")
QUEUE_DELETED_WAIT = 60.0
PURGE_INTERVAL = 60.0


def _check_name(name: str, *, fifo: bool, max_length: int) -> None:
    stem = name[: -len(".fifo")] if name.endswith(".fifo") else name
    if fifo != name.endswith(".fifo") or len(name) > max_length or not _QUEUE_NAME.match(stem):
        if fifo:  # a standard queue named *.fifo gets the plain text (botocore#3058)
            raise Text.FIFO_QUEUE_NAME_INVALID()
        raise Text.QUEUE_NAME_INVALID()


def create_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    name = require_str(params, "QueueName")
    requested = get_map(params, "Attributes")
    tags = get_map(params, "tags") or get_map(params, "Tags")
    fifo_value = str(requested.get("FifoQueue", "false")).lower()
    fifo = fifo_value == "true"
    max_length = service.limits.max_queue_name_length
    if service.flavor == "ymq":
        ymq.check_queue_name(name, fifo=fifo, max_length=max_length)
    else:
        _check_name(name, fifo=fifo, max_length=max_length)
    service.validate_tags(tags)
    try:
        return _create(service, name, requested, tags, fifo, ctx)
    except SqsError as error:
        if service.flavor == "ymq":
            raise ymq.creation_error(error) from None
        raise


def _create(
    service: Service,
    name: str,
    requested: dict[str, Any],
    tags: dict[str, Any],
    fifo: bool,
    ctx: RequestContext,
) -> dict[str, Any]:
    attributes = qa.validate(requested, fifo=fifo, limits=service.limits)
    _check_enforceable(service, attributes)
    service.validate_fifo_settings(attributes)
    key: QueueKey = (ctx.region, ctx.account_id, name)
    existing = service.broker.find(key)
    if existing is not None:
        _check_same(service, existing, attributes, tags)
        return {"QueueUrl": service.queue_url(ctx, existing)}
    deleted_at = service.broker.deleted_at(key)
    now = service.broker.clock.now()
    if deleted_at is not None and now - deleted_at < QUEUE_DELETED_WAIT:
        ymq_flavor = service.flavor == "ymq"
        raise (Text.YMQ_QUEUE_DELETED_RECENTLY if ymq_flavor else Text.QUEUE_DELETED_RECENTLY)()
    settings = service.settings_for(attributes, fifo=fifo, key=key)
    limit = service.limits.max_queues
    if limit is not None and sum(q.key[1] == key[1] for q in service.broker.queues()) >= limit:
        raise Text.TOO_MANY_QUEUES()
    try:
        queue = service.broker.create_queue(key, settings)
    except QueueAlreadyExists:  # created concurrently with identical attributes
        return {"QueueUrl": service.queue_url(ctx, service.broker.get(key))}
    stored = {**qa.defaults(fifo=fifo, limits=service.limits), **attributes}
    qa.reconcile_encryption(attributes, stored)
    queue.meta["attributes"] = {name: value for name, value in stored.items() if value != ""}
    queue.meta["tags"] = {str(k): str(v) for k, v in tags.items()}
    queue.meta["last_modified_at"] = now
    queue.meta["account_id"] = ctx.account_id
    return {"QueueUrl": service.queue_url(ctx, queue)}


def _check_enforceable(service: Service, attributes: dict[str, str]) -> None:
    if service.enforce_policies and attributes.get("Policy"):
        authorization.check_policy(attributes["Policy"], enforcing=True)


def _check_same(
    service: Service, existing: Queue, attributes: dict[str, str], tags: dict[str, Any]
) -> None:
    """Creating an existing queue again succeeds only with the same attributes (YMQ: and tags)."""
    current = service.current_attributes(existing)
    for attribute, value in attributes.items():
        if current.get(attribute, "") != value:
            if service.flavor == "ymq":
                raise Text.YMQ_QUEUE_EXISTS()
            raise Text.QUEUE_NAME_EXISTS(attribute=attribute)
    if (
        service.flavor == "ymq"
        and tags
        and {str(k): str(v) for k, v in tags.items()} != existing.meta.get("tags", {})
    ):
        raise Text.YMQ_QUEUE_EXISTS()


def get_queue_url(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    name = require_str(params, "QueueName")
    owner = get_str(params, "QueueOwnerAWSAccountId") or ctx.account_id
    if service.flavor == "ymq":
        owner = ctx.account_id  # YMQ ignores QueueOwnerAWSAccountId
    queue = service.broker.find((ctx.region, owner, name))
    if queue is None:
        raise service.queue_does_not_exist()
    return {"QueueUrl": service.queue_url(ctx, queue)}


def list_queues(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    prefix = get_str(params, "QueueNamePrefix") or ""
    max_results = get_int(params, "MaxResults")
    token = get_str(params, "NextToken")
    if not service.limits.list_queues_paginated:
        max_results, token = None, None  # YMQ: no pagination, up to 1000 URLs
    if max_results is not None and not 1 <= max_results <= service.limits.max_list_queues:
        raise Text.LIST_MAX_RESULTS(
            name="MaxResults", value=max_results, maximum=service.limits.max_list_queues
        )
    queues = sorted(
        (
            q
            for q in service.broker.queues()
            if q.key[0] == ctx.region and q.key[1] == ctx.account_id and q.name.startswith(prefix)
        ),
        key=lambda q: q.name,
    )
    urls = [service.queue_url(ctx, q) for q in queues]
    if token:
        try:
            after = base64.b64decode(token, validate=True).decode()
        except (binascii.Error, ValueError, UnicodeDecodeError):
            raise Text.NEXT_TOKEN_INVALID(name="NextToken", value=token) from None
        names = [q.name for q in queues]
        after_name = after.rsplit("/", 1)[-1]
        start = next((i for i, n in enumerate(names) if n > after_name), len(names))
        urls = urls[start:]
    limit = max_results if max_results is not None else service.limits.max_list_queues
    result: dict[str, Any] = {}
    page = urls[:limit]
    if page:
        result["QueueUrls"] = page
    if max_results is not None and len(urls) > limit:
        result["NextToken"] = base64.b64encode(page[-1].encode()).decode()
    return result


def delete_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    service.broker.delete_queue(queue.key)
    return {}


def get_queue_attributes(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    names = get_str_list(params, "AttributeNames")
    known = {*qa.rules_for(service.limits), *qa.READ_ONLY, "All"}
    for name in names:
        if name not in known:
            raise Text.UNKNOWN_ATTRIBUTE(name=name)
    if not names:
        return {}
    everything = service.describe_queue(queue, ctx)
    chosen = everything if "All" in names else {n: everything[n] for n in names if n in everything}
    return {"Attributes": chosen} if chosen else {}


def set_queue_attributes(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    requested = get_map(params, "Attributes")
    fifo = queue.settings.fifo
    if "FifoQueue" in requested:
        if not fifo:
            raise Text.UNKNOWN_ATTRIBUTE(name="FifoQueue")
        if str(requested["FifoQueue"]).lower() != "true":
            raise Text.MODIFYING_QUEUE_TYPE()
    attributes = qa.validate(requested, fifo=fifo, limits=service.limits)
    _check_enforceable(service, attributes)
    merged = {**service.current_attributes(queue), **attributes}
    service.validate_fifo_settings(merged)
    for name, value in attributes.items():
        if value == "" and qa.rules_for(service.limits)[name].default is None:
            merged.pop(name, None)  # an empty policy clears it
    qa.reconcile_encryption(attributes, merged)
    settings = service.settings_for(merged, fifo=fifo, key=queue.key)
    # AWS keeps the deduplication scope a queue was created with, whatever the attribute says
    # later (recorded: test_fifo_change_to_high_throughput_after_creation and its reverse).
    settings.dedup_scope = queue.settings.dedup_scope
    with queue.lock:
        queue.reconfigure(settings)
        queue.meta["attributes"] = merged
        queue.meta["last_modified_at"] = service.broker.clock.now()
    return {}


def purge_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    now = service.broker.clock.now()
    if queue.last_purge_at is not None and now - queue.last_purge_at < PURGE_INTERVAL:
        raise Text.PURGE_IN_PROGRESS(name=queue.name)
    service.broker.purge(queue)
    return {}


def describe_counts(service: Service, queue: Queue) -> dict[str, str]:
    service.broker.refresh(queue)
    return {
        "ApproximateNumberOfMessages": str(queue.visible),
        "ApproximateNumberOfMessagesNotVisible": str(queue.in_flight),
        "ApproximateNumberOfMessagesDelayed": str(queue.delayed),
    }
