"""Tier 1: a queue's typed record (parsed once, rendered only for GetQueueAttributes) and the
flavor dialects, without a client."""

from __future__ import annotations

import typing

import pytest

from pytest_fakesqs.api import LIMITS, SqsService
from pytest_fakesqs.api.context import Flavor, RequestContext
from pytest_fakesqs.api.dialect import Dialect
from pytest_fakesqs.api.queue_attributes import defaults, rules_for, validate
from pytest_fakesqs.api.queue_record import FIELDS, QueueAttributes, attribute_text
from pytest_fakesqs.api.service import DIALECTS
from pytest_fakesqs.engine import Broker, Clock

FLAVORS: tuple[Flavor, ...] = typing.get_args(Flavor)


def dialect(flavor: Flavor) -> Dialect:
    return DIALECTS[flavor](Broker(Clock()))


def test_every_flavor_has_a_dialect_and_a_row_of_limits() -> None:
    assert set(DIALECTS) == set(FLAVORS) == set(LIMITS)
    for flavor in FLAVORS:
        assert dialect(flavor).flavor == flavor
        assert dialect(flavor).limits is LIMITS[flavor]


def test_every_attribute_rule_has_a_typed_field_and_every_field_a_rule() -> None:
    fields = {field.name for field in QueueAttributes.__dataclass_fields__.values()}
    assert set(FIELDS.values()) == fields
    assert set(rules_for(LIMITS["aws"])) == set(FIELDS)


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("fifo", [False, True], ids=["standard", "fifo"])
def test_a_new_queue_renders_the_defaults_of_its_rules(flavor: Flavor, fifo: bool) -> None:
    each = dialect(flavor)
    rules = rules_for(each.limits, each.unsupported_attributes)
    expected = {
        name: rule.default
        for name, rule in rules.items()
        if rule.default is not None and not (rule.fifo_only and not fifo)
    }
    if fifo:
        expected["FifoQueue"] = "true"
    assert defaults(fifo=fifo, dialect=each).render() == expected


def test_values_are_parsed_once_and_rendered_back_as_aws_writes_them() -> None:
    aws = dialect("aws")
    given = validate(
        {
            "DelaySeconds": " 007 ",
            "ContentBasedDeduplication": "TRUE",
            "KmsMasterKeyId": "alias/x",
            "Policy": "",
        },
        fifo=True,
        dialect=aws,
    )
    assert given == {
        "DelaySeconds": 7,
        "ContentBasedDeduplication": True,
        "KmsMasterKeyId": "alias/x",
        "Policy": "",
    }
    attributes = defaults(fifo=True, dialect=aws).updated(given)
    assert (attributes.delay_seconds, attributes.content_based_deduplication) == (7, True)
    assert attributes.policy is None  # "" clears
    rendered = attributes.render()
    assert rendered["DelaySeconds"] == "7"
    assert rendered["ContentBasedDeduplication"] == "true"
    assert rendered["KmsDataKeyReusePeriodSeconds"] == "300"  # shown while a key is set
    assert "Policy" not in rendered
    assert attributes.first_difference(given) is None
    assert attributes.first_difference({"DelaySeconds": 8}) == "DelaySeconds"


def test_attribute_text_writes_booleans_as_aws_does() -> None:
    assert [attribute_text(v) for v in (True, False, 30, "x")] == ["true", "false", "30", "x"]


def test_the_record_is_the_queues_configuration() -> None:
    service = SqsService(Broker(Clock()))
    ctx = RequestContext()
    url = service.call(
        "CreateQueue",
        {"QueueName": "q", "Attributes": {"VisibilityTimeout": "45"}, "tags": {"team": "a"}},
        ctx,
    )["QueueUrl"]
    queue = service.resolve_queue({"QueueUrl": url}, ctx)
    record = service.record(queue)
    assert record.attributes.visibility_timeout == 45
    assert queue.settings.visibility_timeout == 45.0
    assert record.tags == {"team": "a"}
    service.call("SetQueueAttributes", {"QueueUrl": url, "Attributes": {"DelaySeconds": "5"}}, ctx)
    assert service.record(queue).attributes.delay_seconds == 5
    assert queue.settings.delay == 5.0
