"""Queue actions: CreateQueue, GetQueueUrl, ListQueues, DeleteQueue, Get/SetQueueAttributes,
PurgeQueue."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from ..engine import Queue, QueueAlreadyExists, QueueKey
from . import authorization
from . import queue_attributes as queue_rules
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .params import get_int, get_map, get_str, get_str_list, require_str
from .queue_record import AttributeValue, QueueRecord

if TYPE_CHECKING:
    from .core import Service

QUEUE_DELETED_WAIT = 60.0
PURGE_INTERVAL = 60.0


def create_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    name = require_str(params, "QueueName")
    requested = get_map(params, "Attributes")
    tags = get_map(params, "tags") or get_map(params, "Tags")
    dialect = service.dialect
    fifo_attribute = requested.get("FifoQueue")
    fifo = dialect.creates_fifo(name, None if fifo_attribute is None else str(fifo_attribute))
    dialect.check_queue_name(name, fifo=fifo)
    stored_tags = dialect.tag_rules.at_create(tags, dialect.limits.max_tags)
    try:
        return _create(service, name, requested, stored_tags, fifo, ctx)
    except SqsError as error:
        raise dialect.creation_error(error) from None


def _create(
    service: Service,
    name: str,
    requested: dict[str, Any],
    tags: dict[str, str],
    fifo: bool,
    ctx: RequestContext,
) -> dict[str, Any]:
    dialect = service.dialect
    given = queue_rules.validate(requested, fifo=fifo, dialect=dialect)
    _check_enforceable(service, given)
    attributes = queue_rules.defaults(fifo=fifo, dialect=dialect).updated(given)
    queue_rules.check_fifo_settings(attributes)
    key: QueueKey = (ctx.region, ctx.account_id, name)
    existing = service.broker.find(key)
    if existing is not None:
        _check_same(service, existing, given, tags)
        return {"QueueUrl": service.queue_url(ctx, existing)}
    deleted_at = service.broker.deleted_at(key)
    now = service.broker.clock.now()
    if deleted_at is not None and now - deleted_at < QUEUE_DELETED_WAIT:
        raise dialect.queue_deleted_recently()
    settings = service.settings_for(attributes, fifo=fifo, key=key)
    limit = dialect.limits.max_queues
    if limit is not None and sum(q.key[1] == key[1] for q in service.broker.queues()) >= limit:
        raise ErrorText.TOO_MANY_QUEUES()
    attributes = queue_rules.reconcile_encryption(given, attributes)
    try:
        queue = service.broker.create_queue(key, settings)
    except QueueAlreadyExists:  # created concurrently with identical attributes
        return {"QueueUrl": service.queue_url(ctx, service.broker.get(key))}
    service.records[queue] = QueueRecord(attributes, last_modified_at=now, tags=tags)
    return {"QueueUrl": service.queue_url(ctx, queue)}


def _check_enforceable(service: Service, given: dict[str, AttributeValue]) -> None:
    policy = given.get("Policy")
    if service.enforce_policies and isinstance(policy, str) and policy:
        authorization.check_policy(policy, enforcing=True)


def _check_same(
    service: Service, existing: Queue, given: dict[str, AttributeValue], tags: dict[str, str]
) -> None:
    """Creating an existing queue again succeeds only with the same attributes (YMQ: and tags)."""
    record = service.record(existing)
    different = record.attributes.first_difference(given)
    if different is not None:
        raise service.dialect.queue_exists(different)
    service.dialect.check_same_tags(record.tags, tags)


def get_queue_url(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    name = require_str(params, "QueueName")
    owner = service.dialect.queue_owner(get_str(params, "QueueOwnerAWSAccountId"), ctx)
    queue = service.broker.find((ctx.region, owner, name))
    if queue is None:
        raise service.queue_does_not_exist()
    return {"QueueUrl": service.queue_url(ctx, queue)}


def list_queues(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    prefix = get_str(params, "QueueNamePrefix") or ""
    max_results = get_int(params, "MaxResults")
    token = get_str(params, "NextToken")
    if not service.dialect.paginates_list_queues:
        max_results, token = None, None  # no pagination, up to 1000 URLs
    if max_results is not None and not 1 <= max_results <= service.limits.max_list_queues:
        raise ErrorText.LIST_MAX_RESULTS(
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
            raise ErrorText.NEXT_TOKEN_INVALID(name="NextToken", value=token) from None
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
    dialect = service.dialect
    rules = queue_rules.rules_for(dialect.limits, dialect.unsupported_attributes)
    known = {*rules, *queue_rules.READ_ONLY, "All"}
    for name in names:
        if name not in known:
            raise ErrorText.UNKNOWN_ATTRIBUTE(name=name)
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
            raise ErrorText.UNKNOWN_ATTRIBUTE(name="FifoQueue")
        service.dialect.check_fifo_kept(str(requested["FifoQueue"]))
    given = queue_rules.validate(requested, fifo=fifo, dialect=service.dialect)
    _check_enforceable(service, given)
    record = service.record(queue)
    attributes = record.attributes.updated(given)
    queue_rules.check_fifo_settings(attributes)
    attributes = queue_rules.reconcile_encryption(given, attributes)
    settings = service.settings_for(attributes, fifo=fifo, key=queue.key)
    # AWS keeps the deduplication scope a queue was created with, whatever the attribute says
    # later (recorded: test_fifo_change_to_high_throughput_after_creation and its reverse).
    settings.dedup_scope = queue.settings.dedup_scope
    with queue.lock:
        queue.reconfigure(settings)
        record.attributes = attributes
        record.last_modified_at = service.broker.clock.now()
    return {}


def purge_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    now = service.broker.clock.now()
    if queue.last_purge_at is not None and now - queue.last_purge_at < PURGE_INTERVAL:
        raise ErrorText.PURGE_IN_PROGRESS(name=queue.name)
    service.broker.purge(queue)
    return {}


def describe_counts(service: Service, queue: Queue) -> dict[str, str]:
    service.broker.refresh(queue)
    return {
        "ApproximateNumberOfMessages": str(queue.visible),
        "ApproximateNumberOfMessagesNotVisible": str(queue.in_flight),
        "ApproximateNumberOfMessagesDelayed": str(queue.delayed),
    }
