"""Queue tags: TagQueue, UntagQueue, ListQueueTags (CreateQueue's `tags` are queues.py's); what
a tag may be is the flavor's (its dialect's tag_rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .context import RequestContext
from .error_texts import ErrorText
from .params import get_map, get_str_list
from .tag_rules import MAX_TAG_KEY_LENGTH, MAX_TAG_VALUE_LENGTH, check_tags

if TYPE_CHECKING:
    from .core import Service

__all__ = ["MAX_TAG_KEY_LENGTH", "MAX_TAG_VALUE_LENGTH", "check_tags"]  # their earlier home


def tag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    requested = get_map(params, "Tags")
    if not requested:
        raise ErrorText.MISSING_PARAMETER(name="Tags")
    record = service.record(queue)
    rules, max_tags = service.dialect.tag_rules, service.limits.max_tags
    with queue.lock:
        record.tags = rules.merged(requested, record.tags, max_tags, queue.name)
    return {}


def untag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    keys = get_str_list(params, "TagKeys")
    if not keys:
        raise ErrorText.TAG_KEY_LENGTH(maximum=MAX_TAG_KEY_LENGTH)
    record = service.record(queue)
    with queue.lock:
        for key in keys:
            record.tags.pop(key, None)  # untagging an absent key is not an error
    return {}


def list_queue_tags(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    tags = dict(service.record(queue).tags)
    # AWS omits the member entirely when the queue has no tags.
    return {"Tags": tags} if tags else {}
