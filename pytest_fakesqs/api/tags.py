"""Queue tags: TagQueue, UntagQueue, ListQueueTags (and the `tags` of CreateQueue)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .context import RequestContext
from .error_texts import Text
from .params import get_map, get_str_list

if TYPE_CHECKING:
    from .core import Service

MAX_TAG_KEY_LENGTH = 128
MAX_TAG_VALUE_LENGTH = 256


def check_tags(tags: dict[str, Any]) -> dict[str, str]:
    """Validate a tag map as sent; returns it with string values."""
    clean: dict[str, str] = {}
    for key, value in tags.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_TAG_KEY_LENGTH:
            raise Text.TAG_KEY_LENGTH(maximum=MAX_TAG_KEY_LENGTH)
        text = "" if value is None else str(value)
        if len(text) > MAX_TAG_VALUE_LENGTH:
            raise Text.TAG_VALUE_LENGTH(maximum=MAX_TAG_VALUE_LENGTH)
        clean[key] = text
    return clean


def tag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    requested = get_map(params, "Tags")
    if not requested:
        raise Text.MISSING_PARAMETER(name="Tags")
    ymq_labels = service.limits.tag_rules == "ymq"  # YMQ labels have their own rules and texts
    tags = {str(k): str(v) for k, v in requested.items()} if ymq_labels else check_tags(requested)
    with queue.lock:
        current: dict[str, str] = queue.meta.setdefault("tags", {})
        if ymq_labels:
            service.validate_tags(requested, current)
        merged = {**current, **tags}
        # The limit counts the tags the queue would end up with, not just this request's.
        if len(merged) > service.limits.max_tags:
            raise Text.TOO_MANY_TAGS(name=queue.name)
        queue.meta["tags"] = merged
    return {}


def untag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    keys = get_str_list(params, "TagKeys")
    if not keys:
        raise Text.TAG_KEY_LENGTH(maximum=MAX_TAG_KEY_LENGTH)
    with queue.lock:
        current: dict[str, str] = queue.meta.setdefault("tags", {})
        for key in keys:
            current.pop(key, None)  # untagging an absent key is not an error
    return {}


def list_queue_tags(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    tags: dict[str, str] = dict(queue.meta.get("tags", {}))
    # AWS omits the member entirely when the queue has no tags.
    return {"Tags": tags} if tags else {}
