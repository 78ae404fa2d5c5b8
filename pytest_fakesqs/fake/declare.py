"""Declared queues (the `queues` option): dead-letter queues first, RedrivePolicy wired."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .directory import QueueDirectory

# Keys of a declared queue that are not CreateQueue attributes.
QUEUE_SHORTHANDS = ("dlq", "max_receive_count", "tags")


def creation_order(queues: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Names so that every dead-letter queue comes before the queues that use it."""
    ordered: list[str] = []
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in ordered:
            return
        if name in visiting:
            cycle = " -> ".join([*visiting[visiting.index(name) :], name])
            raise ValueError(f"queues: dead-letter queues form a cycle: {cycle}")
        visiting.append(name)
        dlq = queues[name].get("dlq")
        if dlq is not None:
            visit(dlq)
        visiting.pop()
        ordered.append(name)

    for name in queues:
        visit(name)
    return ordered


def declare_queues(directory: QueueDirectory, queues: Mapping[str, Mapping[str, Any]]) -> None:
    for name in creation_order(queues):
        if directory.exists(name):
            continue
        spec = queues[name]
        attributes = {k: v for k, v in spec.items() if k not in QUEUE_SHORTHANDS}
        dlq = spec.get("dlq")
        if dlq is not None:
            arn = directory.arn(directory.key(dlq))
            attributes["RedrivePolicy"] = json.dumps(
                {"deadLetterTargetArn": arn, "maxReceiveCount": spec["max_receive_count"]}
            )
        url = directory.create(name, **attributes)
        tags = spec.get("tags")
        if tags:
            directory.service.call(
                "TagQueue", {"QueueUrl": url, "Tags": dict(tags)}, directory.context()
            )
