"""Which service, and for which resource, moto is delivering into SQS right now.

SNS (a subscription publishing), S3 (a bucket's event notification) and EventBridge (a rule's
target) reach SQS by calling moto's SQS backend directly; the fake serves those calls (see
moto_bridge.py). On AWS such a delivery is made by the service principal (sns.amazonaws.com,
s3.amazonaws.com, events.amazonaws.com) with aws:SourceArn = the topic, bucket or rule and
aws:SourceAccount = its owner, and the queue's Policy must allow it. moto's delivering methods
are wrapped to say so for the duration of the call (a context variable, so threads and tasks
do not mix their deliveries up).
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .patching import Patches


@dataclass(frozen=True, slots=True)
class DeliverySource:
    service: str  # sns.amazonaws.com
    source_arn: str
    source_account: str
    queue_account: str | None = None  # the target queue's account, when the delivery names it


_current: contextvars.ContextVar[DeliverySource | None] = contextvars.ContextVar(
    "fakesqs_delivery_source", default=None
)


def current() -> DeliverySource | None:
    """The delivery moto is making on this thread, if any."""
    return _current.get()


Arguments = dict[str, Any]  # a call's arguments by parameter name
SourceOf = Callable[[Arguments], DeliverySource | None]


def _delivering(original: Callable[..., Any], source_of: SourceOf) -> Callable[..., Any]:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            source = source_of(dict(signature.bind(*args, **kwargs).arguments))
        except (AttributeError, IndexError, KeyError, TypeError):  # a moto not written for
            source = None
        token = _current.set(source)
        try:
            return original(*args, **kwargs)
        finally:
            _current.reset(token)

    return wrapper


def _from_subscription(arguments: Arguments) -> DeliverySource | None:
    subscription = arguments["self"]
    if subscription.protocol != "sqs":
        return None
    topic = subscription.topic
    queue_account = str(subscription.endpoint).split(":")[4]
    return DeliverySource("sns.amazonaws.com", topic.arn, topic.account_id, queue_account)


def _from_bucket(arguments: Arguments) -> DeliverySource:
    bucket_arn = f"arn:aws:s3:::{arguments['bucket'].name}"
    return DeliverySource("s3.amazonaws.com", bucket_arn, str(arguments["account_id"]))


def _from_rule(arguments: Arguments) -> DeliverySource:
    rule = arguments["self"]
    return DeliverySource("events.amazonaws.com", rule.arn, str(rule.account_id))


# (module, owner attribute or "", method): where moto delivers, and what says whose delivery.
_DELIVERIES: tuple[tuple[str, str, str, SourceOf], ...] = (
    ("moto.sns.models", "Subscription", "publish", _from_subscription),
    ("moto.s3.notifications", "", "send_event", _from_bucket),
    ("moto.s3.notifications", "", "send_test_event", _from_bucket),
    ("moto.events.models", "Rule", "_send_to_sqs_queue", _from_rule),
)


def install(patches: Patches) -> None:
    """Wrap moto's delivering methods (into `patches`, undone with them)."""
    for module_name, owner_name, method, source_of in _DELIVERIES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # moto without that service's extras: nothing delivers from it
            continue
        owner = getattr(module, owner_name) if owner_name else module
        original = owner.__dict__.get(method) if owner_name else getattr(owner, method, None)
        if original is not None:
            patches.replace(owner, method, _delivering(original, source_of))
