"""Queue tags: TagQueue, UntagQueue, ListQueueTags (and the `tags` of CreateQueue)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .context import RequestContext
from .errors import Err, SqsError, missing_parameter
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
            raise SqsError(
                Err.InvalidParameterValue,
                f"Tag keys must be between 1 and {MAX_TAG_KEY_LENGTH} characters in length.",
            )
        text = "" if value is None else str(value)
        if len(text) > MAX_TAG_VALUE_LENGTH:
            raise SqsError(
                Err.InvalidParameterValue,
                f"Tag values must be between 0 and {MAX_TAG_VALUE_LENGTH} characters in length.",
            )
        clean[key] = text
    return clean


def tag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    requested = get_map(params, "Tags")
    if not requested:
        raise missing_parameter("Tags")
    ymq_labels = service.limits.tag_rules == "ymq"  # YMQ labels have their own rules and texts
    tags = {str(k): str(v) for k, v in requested.items()} if ymq_labels else check_tags(requested)
    with queue.lock:
        current: dict[str, str] = queue.meta.setdefault("tags", {})
        if ymq_labels:
            service.validate_tags(requested, current)
        merged = {**current, **tags}
        # The limit counts the tags the queue would end up with, not just this request's.
        if len(merged) > service.limits.max_tags:
            raise SqsError(
                Err.InvalidParameterValue, f"Too many tags added for queue {queue.name}."
            )
        queue.meta["tags"] = merged
    return {}


def untag_queue(service: Service, params: dict[str, Any], ctx: RequestContext) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    keys = get_str_list(params, "TagKeys")
    if not keys:
        raise SqsError(
            Err.InvalidParameterValue,
            f"Tag keys must be between 1 and {MAX_TAG_KEY_LENGTH} characters in length.",
        )
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
