"""A queue not found in the region or account a call asked, but present in another, is explained."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

NOT_FOUND = "AWS.SimpleQueueService.NonExistentQueue"


def client(region: str = "us-east-1") -> Any:
    return boto3.client("sqs", region_name=region, aws_access_key_id="a", aws_secret_access_key="b")


def failed_lookup(sqs: Any, **params: Any) -> None:
    with pytest.raises(ClientError) as raised:
        if "QueueUrl" in params:
            sqs.get_queue_attributes(**params)
        else:
            sqs.get_queue_url(**params)
    assert raised.value.response["Error"]["Code"] == NOT_FOUND


def test_a_call_in_another_region_is_told_where_the_queue_is(fakesqs: FakeSQS) -> None:
    client("us-east-1").create_queue(QueueName="jobs")

    failed_lookup(client("eu-west-1"), QueueName="jobs")

    assert [call.hint for call in fakesqs.calls()] == [
        None,
        "jobs exists in us-east-1 / 123456789012; the call asked eu-west-1",
    ]


def test_a_call_for_another_account_is_told_whose_queue_it_is(fakesqs: FakeSQS) -> None:
    url = client().create_queue(QueueName="jobs")["QueueUrl"]

    failed_lookup(client(), QueueName="jobs", QueueOwnerAWSAccountId="210987654321")
    failed_lookup(client(), QueueUrl=url.replace("123456789012", "210987654321"))

    assert [
        call.hint for call in fakesqs.calls("GetQueueUrl") + fakesqs.calls("GetQueueAttributes")
    ] == ["jobs exists in us-east-1 / 123456789012; the call asked us-east-1 / 210987654321"] * 2


def test_every_other_home_of_the_name_is_listed(fakesqs: FakeSQS) -> None:
    client("us-east-1").create_queue(QueueName="jobs")
    client("eu-central-1").create_queue(QueueName="jobs")

    failed_lookup(client("eu-west-1"), QueueName="jobs")

    assert fakesqs.calls("GetQueueUrl")[0].hint == (
        "jobs exists in eu-central-1 / 123456789012 and us-east-1 / 123456789012; "
        "the call asked eu-west-1"
    )


def test_a_queue_that_exists_nowhere_gets_no_hint(fakesqs: FakeSQS) -> None:
    client("us-east-1").create_queue(QueueName="jobs")

    failed_lookup(client("us-east-1"), QueueName="jobz")
    fakesqs.fail_next("GetQueueUrl", "QueueDoesNotExist")  # asked for by the test: no story
    failed_lookup(client("eu-west-1"), QueueName="jobs")

    assert [call.hint for call in fakesqs.calls("GetQueueUrl")] == [None, None]


MISMATCH = """
import boto3, pytest
from botocore.exceptions import ClientError

def client(region):
    return boto3.client("sqs", region_name=region, aws_access_key_id="a",
                        aws_secret_access_key="b")

def look_up_jobs(region):
    try:
        return client(region).get_queue_url(QueueName="jobs")["QueueUrl"]
    except ClientError:
        return None  # the code under test shrugs

@pytest.mark.fakesqs(assert_no_client_errors=True)
def test_swallowed(fakesqs):
    client("us-east-1").create_queue(QueueName="jobs")
    look_up_jobs("eu-west-1")

def test_fails(fakesqs):
    client("us-east-1").create_queue(QueueName="jobs")
    client("eu-west-1").create_queue(QueueName="results")
    assert look_up_jobs("eu-west-1") is not None
"""


def test_the_client_errors_listing_says_where_the_queue_is(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MISMATCH)
    result = pytester.runpytest("-k", "swallowed")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "fakesqs: the code under test received 1 SQS error and carried on "
            "(assert_no_client_errors is on):",
            f"  - +0s GetQueueUrl on jobs: {NOT_FOUND}: The specified queue does not exist.",
            "      jobs exists in us-east-1 / 123456789012; the call asked eu-west-1",
        ]
    )


def test_the_report_section_says_where_the_queue_is_and_shows_regions(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(MISMATCH)
    result = pytester.runpytest("-k", "fails")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*- fakesqs -*",
            "clock frozen at *",
            "queues:",
            "  jobs (us-east-1): 0 visible, 0 in flight, 0 delayed",
            "  results (eu-west-1): 0 visible, 0 in flight, 0 delayed",
            "queues not found where the call looked:",
            f"  - +0s GetQueueUrl jobs: {NOT_FOUND}: jobs exists in us-east-1 / 123456789012; "
            "the call asked eu-west-1",
            "no messages were sent",
        ]
    )


MISSPELT_ATTRIBUTE = """
import boto3

def test_creates_the_queue(fakesqs):
    sqs = boto3.client("sqs", region_name="us-east-1",
                       aws_access_key_id="a", aws_secret_access_key="b")
    sqs.create_queue(QueueName="orders", Attributes={"VisiblityTimeout": "30"})
"""


def test_a_misspelt_attribute_keeps_aws_text_and_the_report_hints_the_real_name(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(MISSPELT_ATTRIBUTE)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E * An error occurred (InvalidAttributeName) when calling the CreateQueue "
            "operation: Unknown Attribute VisiblityTimeout.",
            "*- fakesqs -*",
            "calls refused:",
            "  - +0s CreateQueue orders: InvalidAttributeName: Unknown Attribute VisiblityTimeout.",
            "      hint: did you mean 'VisibilityTimeout'?",
        ]
    )


def test_attribute_hints_name_the_closest_real_attribute_or_nothing(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = sqs.create_queue(QueueName="orders")["QueueUrl"]
    for names in (["visibilitytimeout"], ["ApproximateNumberOfMessagez"], ["Colour"]):
        with pytest.raises(ClientError) as raised:
            sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)
        assert raised.value.response["Error"]["Message"] == f"Unknown Attribute {names[0]}."
    with pytest.raises(ClientError):  # a real attribute, refused on a standard queue
        sqs.set_queue_attributes(QueueUrl=url, Attributes={"FifoQueue": "true"})
    assert [call.hint for call in fakesqs.calls()][1:] == [
        "did you mean 'VisibilityTimeout'? (attribute names are case-sensitive)",
        "did you mean 'ApproximateNumberOfMessages'?",
        None,
        None,
    ]


def test_a_declared_queue_with_a_misspelt_attribute_is_told_the_real_name(
    fakesqs: FakeSQS,
) -> None:
    with pytest.raises(ValueError) as raised:
        fakesqs.create_queue("orders", VisiblityTimeout=30)
    assert str(raised.value) == (
        "cannot create queue 'orders': Unknown Attribute VisiblityTimeout. "
        "(did you mean 'VisibilityTimeout'?)"
    )
