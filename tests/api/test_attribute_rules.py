"""Tier 2: every queue attribute's range and AWS's text, iterated from the rules table."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs.api import LIMITS
from pytest_fakesqs.api.errors import SqsError
from pytest_fakesqs.api.params import get_int
from pytest_fakesqs.api.queue_attributes import rules_for

RULES = rules_for(LIMITS["aws"])
NUMERIC = [rule for rule in RULES.values() if rule.kind == "int"]
# FifoQueue is checked against the queue name first (its own texts, see test_basics).
CHOICES = [r for r in RULES.values() if r.kind in ("enum", "bool") and r.name != "FifoQueue"]


def fifo_attributes(name: str) -> dict[str, str]:
    return {"FifoQueue": "true"} if RULES[name].fifo_only else {}


def queue_name(name: str) -> str:
    return "q.fifo" if RULES[name].fifo_only else "q"


def refused(call: Any, **kwargs: Any) -> dict[str, Any]:
    with pytest.raises(ClientError) as error:
        call(**kwargs)
    answer: dict[str, Any] = error.value.response["Error"]
    return {"Code": answer["Code"], "Message": answer["Message"]}


@pytest.mark.parametrize("rule", NUMERIC, ids=lambda rule: rule.name)
def test_numeric_attribute_ranges_on_create_and_set(sqs: Any, rule: Any) -> None:
    expected = {
        "Code": "InvalidAttributeValue",
        "Message": f"Invalid value for the parameter {rule.name}.",
    }
    low = str(rule.low)
    grouped = f"{low[:-1]}_{low[-1]}" if len(low) > 1 else f"{low}_0"  # Python's int() reads it
    for bad in (str(rule.low - 1), str(rule.high + 1), "ten", grouped):
        assert refused(sqs.create_queue, QueueName="q", Attributes={rule.name: bad}) == expected
    url = sqs.create_queue(QueueName="q", Attributes={rule.name: str(rule.low)})["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=url, Attributes={rule.name: str(rule.high)})
    assert (
        refused(sqs.set_queue_attributes, QueueUrl=url, Attributes={rule.name: str(rule.high + 1)})
        == expected
    )
    value = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[rule.name])
    assert value.get("Attributes", {}).get(rule.name, str(rule.high)) == str(rule.high)


@pytest.mark.parametrize("rule", CHOICES, ids=lambda rule: rule.name)
def test_choice_attributes_refuse_other_values(sqs: Any, rule: Any) -> None:
    attributes = {**fifo_attributes(rule.name), rule.name: "sometimes"}
    assert refused(sqs.create_queue, QueueName=queue_name(rule.name), Attributes=attributes) == {
        "Code": "InvalidAttributeValue",
        "Message": f"Invalid value for the parameter {rule.name}.",
    }


def test_unknown_attribute_names(sqs: Any, queue_url: str) -> None:
    expected = {"Code": "InvalidAttributeName", "Message": "Unknown Attribute Colour."}
    assert refused(sqs.create_queue, QueueName="q2", Attributes={"Colour": "red"}) == expected
    assert refused(sqs.set_queue_attributes, QueueUrl=queue_url, Attributes={"Colour": "red"}) == (
        expected
    )


def test_per_message_group_throughput_needs_message_group_scope(sqs: Any) -> None:
    answer = refused(
        sqs.create_queue,
        QueueName="ht.fifo",
        Attributes={"FifoQueue": "true", "FifoThroughputLimit": "perMessageGroupId"},
    )
    assert answer["Code"] == "InvalidAttributeValue"


def test_kms_key_turns_managed_sse_off_and_managed_sse_turns_kms_off(sqs: Any) -> None:
    url = sqs.create_queue(QueueName="enc", Attributes={"KmsMasterKeyId": "alias/k"})["QueueUrl"]
    names = ["KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "SqsManagedSseEnabled"]
    assert sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"] == {
        "KmsMasterKeyId": "alias/k",
        "KmsDataKeyReusePeriodSeconds": "300",
        "SqsManagedSseEnabled": "false",
    }
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"SqsManagedSseEnabled": "true"})
    assert sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"] == {
        "SqsManagedSseEnabled": "true"
    }


def test_integer_parameters_written_as_text_refuse_python_only_spellings() -> None:
    # The query protocol sends every number as text; int() alone would read "1_0" as 10.
    params = {"MaxNumberOfMessages": "1_0", "WaitTimeSeconds": " 5 "}
    with pytest.raises(SqsError) as error:
        get_int(params, "MaxNumberOfMessages")
    assert error.value.spec.query_code == "InvalidParameterValue"
    assert get_int(params, "WaitTimeSeconds") == 5
