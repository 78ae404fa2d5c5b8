"""Tier 3: enforce_policies and accounts through the marker, ini, `fake_sqs()` and `serve`, and
refused deliveries in the `fakesqs` report section."""

from __future__ import annotations

import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.fake.options import make_options
from pytest_fakesqs.server.cli import build_parser, make_fake

CROSS_ACCOUNT = """
import boto3, pytest
from botocore.exceptions import ClientError

def client(key):
    return boto3.client("sqs", region_name="us-east-1",
                        aws_access_key_id=key, aws_secret_access_key="s")

def test_cross_account(fakesqs):
    url = client("owner-key").create_queue(QueueName="orders")["QueueUrl"]
    assert "/111111111111/orders" in url
    try:
        client("222222222222").send_message(QueueUrl=url, MessageBody="x")
    except ClientError as error:
        assert error.response["Error"]["Code"] == "AccessDenied"
        assert fakesqs.options.enforce_policies
    else:
        assert not fakesqs.options.enforce_policies
"""


def test_the_marker_turns_enforcement_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CROSS_ACCOUNT.replace(
            "def test_cross_account",
            '@pytest.mark.fakesqs(enforce_policies=True, accounts={"owner-key": "111111111111"})'
            "\ndef test_cross_account",
        )
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1)


def test_ini_options_turn_enforcement_on(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        fakesqs_enforce_policies = true
        fakesqs_accounts = {"owner-key": "111111111111"}
        """
    )
    pytester.makepyfile(CROSS_ACCOUNT)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fakesqs: *accounts=[[]owner-key], enforce_policies=True*"])


def test_off_by_default(pytester: pytest.Pytester) -> None:
    pytester.makeini('[pytest]\nfakesqs_accounts = {"owner-key": "111111111111"}\n')
    pytester.makepyfile(CROSS_ACCOUNT)
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1)


def test_bad_accounts_are_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match=r"^accounts\['k'\] must be 12 digits; got '42'$"):
        make_options(accounts={"k": "42"})
    with pytest.raises(TypeError, match=r"^enforce_policies must be bool"):
        make_options(enforce_policies="yes")


def test_fake_sqs_takes_both_options() -> None:
    with fake_sqs(enforce_policies=True, accounts={"k": "333333333333"}) as fake:
        assert core_of(fake).service.enforce_policies
        assert core_of(fake).handler.identities.principal("k").account_id == "333333333333"


def test_serve_takes_both_options() -> None:
    parser = build_parser()
    args = parser.parse_args(
        ["serve", "--port", "0", "--enforce-policies", "--account", "k:333333333333"]
    )
    fake = make_fake(args, parser)
    try:
        assert fake.options.enforce_policies
        assert fake.options.accounts == {"k": "333333333333"}
    finally:
        fake.stop()
    with pytest.raises(SystemExit):
        make_fake(parser.parse_args(["serve", "--account", "no-colon"]), parser)


def test_a_refused_delivery_shows_in_the_report_section(pytester: pytest.Pytester) -> None:
    pytest.importorskip("moto")
    pytester.makepyfile(
        """
        import boto3, moto, pytest

        @pytest.mark.fakesqs(enforce_policies=True)
        def test_orders_arrive(fakesqs):
            with moto.mock_aws():
                sqs = boto3.client("sqs", region_name="us-east-1")
                sns = boto3.client("sns", region_name="us-east-1")
                url = sqs.create_queue(QueueName="orders-queue")["QueueUrl"]
                arn = sqs.get_queue_attributes(
                    QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
                topic = sns.create_topic(Name="orders")["TopicArn"]
                sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn)
                sns.publish(TopicArn=topic, Message="order 1")
                assert fakesqs.queue(url).bodies(), "the order never arrived"
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*- fakesqs -*",
            "1 delivery refused by a queue policy, and dropped as on AWS:",
            "  +0s sns.amazonaws.com into orders-queue: refused, no statement allows "
            "sns.amazonaws.com from arn:aws:sns:us-east-1:123456789012:orders",
        ]
    )
