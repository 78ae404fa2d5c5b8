"""Declared queues (the `queues` option): dead-letter queues first, RedrivePolicy wired.

The fake and contract mode declare the same way, each through a `QueueCreator`: the fake's
directory (below) or the real endpoint's client (contract/sqs.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

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


class QueueCreator(Protocol):
    """Where declared queues are created: the names are the test's own."""

    def exists(self, name: str) -> bool: ...

    def arn(self, name: str) -> str:
        """The ARN of a queue already created (a dead-letter queue, for a RedrivePolicy)."""

    def create(self, name: str, attributes: dict[str, Any]) -> str:
        """CreateQueue with these attributes (values may be ints or bools); the queue's URL."""

    def tag(self, url: str, tags: dict[str, str]) -> None: ...


def declare_queues(creator: QueueCreator, queues: Mapping[str, Mapping[str, Any]]) -> None:
    """Create the declared queues that do not exist yet, each dead-letter queue before the
    queues that use it; the shorthands become a RedrivePolicy and a TagQueue call."""
    for name in creation_order(queues):
        if creator.exists(name):
            continue
        spec = queues[name]
        attributes = {k: v for k, v in spec.items() if k not in QUEUE_SHORTHANDS}
        dlq = spec.get("dlq")
        if dlq is not None:
            attributes["RedrivePolicy"] = json.dumps(
                {
                    "deadLetterTargetArn": creator.arn(dlq),
                    "maxReceiveCount": spec["max_receive_count"],
                }
            )
        url = creator.create(name, attributes)
        tags = spec.get("tags")
        if tags:
            creator.tag(url, {str(key): str(value) for key, value in dict(tags).items()})


class DirectoryCreator:
    """The fake's own queues as a QueueCreator."""

    def __init__(self, directory: QueueDirectory) -> None:
        self._directory = directory

    def exists(self, name: str) -> bool:
        return self._directory.exists(name)

    def arn(self, name: str) -> str:
        return self._directory.arn(self._directory.key(name))

    def create(self, name: str, attributes: dict[str, Any]) -> str:
        return self._directory.create(name, **attributes)

    def tag(self, url: str, tags: dict[str, str]) -> None:
        directory = self._directory
        directory.service.call("TagQueue", {"QueueUrl": url, "Tags": tags}, directory.context())
