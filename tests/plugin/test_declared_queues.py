"""Declared queues: created for every test, dead-letter queues first, RedrivePolicy wired."""

from __future__ import annotations

import pytest

from pytest_fakesqs.fake.declare import creation_order

from .conftest import literal

CHECKS = """
import json, boto3, pytest

def test_declared(fakesqs):
    orders = fakesqs.queue("orders").attributes
    assert orders["VisibilityTimeout"] == "30"
    assert json.loads(orders["RedrivePolicy"]) == {
        "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:orders-dlq",
        "maxReceiveCount": 5,
    }
    assert "RedrivePolicy" not in fakesqs.queue("orders-dlq").attributes
    sqs = boto3.client("sqs", region_name="us-east-1",
                       aws_access_key_id="a", aws_secret_access_key="b")
    assert sorted(sqs.list_queues()["QueueUrls"]) == [
        "https://sqs.us-east-1.amazonaws.com/123456789012/orders",
        "https://sqs.us-east-1.amazonaws.com/123456789012/orders-dlq",
    ]

def test_each_test_gets_them_fresh(fakesqs):
    assert len(fakesqs.queue("orders")) == 0
    fakesqs.create_queue("extra")
"""


def test_queues_from_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        pytestmark = pytest.mark.fakesqs(queues={
            "orders": {"VisibilityTimeout": "30", "dlq": "orders-dlq", "max_receive_count": 5},
            "orders-dlq": {},
        })
        """
        + CHECKS.replace("\n", "\n        ")
    )
    pytester.runpytest().assert_outcomes(passed=2)


def test_queues_from_ini_as_json(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        fakesqs_queues = {"orders": {"VisibilityTimeout": 30, "dlq": "orders-dlq",
            "max_receive_count": 5}, "orders-dlq": {}}
        """
    )
    pytester.makepyfile(CHECKS)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["fakesqs: *queues=[[]orders, orders-dlq]*(ini: queues)"])


def test_a_queue_the_api_refuses_errors_the_test_with_its_reason(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues={"jobs": {"VisibilityTimeout": "99999"}})
        def test_bad(fakesqs):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["ValueError: cannot create queue 'jobs': *VisibilityTimeout*"])


def test_dead_letter_queues_come_first_even_in_chains() -> None:
    queues = {
        "a": {"dlq": "b", "max_receive_count": 1},
        "b": {"dlq": "c", "max_receive_count": 1},
        "c": {},
        "d": {},
    }
    assert creation_order(queues) == ["c", "b", "a", "d"]


def test_a_misspelt_dead_letter_queue_is_told_the_declared_name(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues={
            "orders": {"dlq": "orders-dql", "max_receive_count": 3},
            "orders-dlq": {},
        })
        def test_misspelt(fakesqs):
            pass

        @pytest.mark.fakesqs(queues={"orders": {"dlq": "payments", "max_receive_count": 3}})
        def test_missing(fakesqs):
            pass
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            literal(
                "ValueError: queues['orders']: dead-letter queue 'orders-dql' is not declared; "
                "did you mean 'orders-dlq'?"
            ),
            literal(
                "ValueError: queues['orders']: dead-letter queue 'payments' is not declared; "
                "add 'payments': {} to queues"
            ),
        ]
    )
