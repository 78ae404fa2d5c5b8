"""What every reader of infrastructure files produces: queues in the `queues=` declaration shape.

A reader turns resources into `DeclaredQueue`s; `declarations()` turns those into the dict the
`queues` option takes, so queues from files are created exactly as declared ones are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class IacError(ValueError):
    """An infrastructure file the fake cannot turn into queues; the text names file and line."""


class QueueAddresses(Protocol):
    """The fake's ARN and URL of a queue by name, for the test's region, account and flavor."""

    @property
    def region(self) -> str: ...

    @property
    def account_id(self) -> str: ...

    @property
    def flavor(self) -> str: ...

    def arn(self, name: str) -> str: ...

    def url(self, name: str) -> str: ...


@dataclass(frozen=True)
class Location:
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class DeclaredQueue:
    """One queue a file declares: its CreateQueue attributes (text) and tags."""

    name: str
    origin: str  # `aws_sqs_queue.orders` or `Resources.Orders`: what the user wrote
    location: Location
    attributes: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)


def attribute_text(value: Any) -> str:
    """An attribute value as CreateQueue takes it: bools lower case, JSON kept as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def declarations(
    queues: Iterable[DeclaredQueue], addresses: QueueAddresses
) -> dict[str, dict[str, Any]]:
    """The `queues=` shape; a RedrivePolicy naming a declared queue becomes `dlq` +
    `max_receive_count`, so the dead-letter queue is created first, as declared ones are."""
    by_name: dict[str, DeclaredQueue] = {}
    for queue in queues:
        earlier = by_name.get(queue.name)
        if earlier is not None:
            raise IacError(
                f"{queue.location}: queue {queue.name!r} ({queue.origin}) is declared twice; "
                f"first at {earlier.location} ({earlier.origin})"
            )
        by_name[queue.name] = queue
    names_by_arn = {addresses.arn(name): name for name in by_name}
    result: dict[str, dict[str, Any]] = {}
    for name, queue in by_name.items():
        spec: dict[str, Any] = dict(queue.attributes)
        target = _dead_letter_target(spec.get("RedrivePolicy"), names_by_arn)
        if target is not None:
            del spec["RedrivePolicy"]
            spec["dlq"], spec["max_receive_count"] = target
        if queue.tags:
            spec["tags"] = dict(queue.tags)
        result[name] = spec
    return result


def _dead_letter_target(
    policy_text: str | None, names_by_arn: Mapping[str, str]
) -> tuple[str, int] | None:
    if policy_text is None:
        return None
    try:
        policy = json.loads(policy_text)
        name = names_by_arn[policy["deadLetterTargetArn"]]
        count = int(policy["maxReceiveCount"])
    except (ValueError, TypeError, KeyError):
        return None  # not one of ours (or malformed): CreateQueue judges it as AWS would
    if set(policy) - {"deadLetterTargetArn", "maxReceiveCount"}:
        return None
    return name, count
