"""Tier 3: the plugin as pytest users meet it, through pytester."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_fixture_gives_a_fresh_fake_per_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import boto3

        def client():
            return boto3.client("sqs", region_name="us-east-1",
                                aws_access_key_id="a", aws_secret_access_key="b")

        def test_first(fakesqs):
            url = fakesqs.create_queue("shared-name")
            client().send_message(QueueUrl=url, MessageBody="left behind")

        def test_second(fakesqs):
            assert client().list_queues().get("QueueUrls") is None
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_marker_alone_activates_the_fake_and_sets_options(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import boto3, pytest

        pytestmark = pytest.mark.fakesqs(region="eu-west-1", account_id="000000000001")

        @pytest.mark.fakesqs(start="2030-01-01T00:00:00Z")
        def test_marked():
            sqs = boto3.client("sqs", region_name="eu-west-1",
                               aws_access_key_id="a", aws_secret_access_key="b")
            url = sqs.create_queue(QueueName="q")["QueueUrl"]
            assert url == "https://sqs.eu-west-1.amazonaws.com/000000000001/q"

        @pytest.mark.fakesqs(start="2030-01-01T00:00:00Z")
        def test_options_merge(fakesqs):
            assert fakesqs.now().year == 2030
            assert fakesqs.options.region == "eu-west-1"
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)


def test_unknown_marker_option_is_a_short_type_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(clok="frozen")
        def test_typo():
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*TypeError: unknown fakesqs option 'clok'; did you mean clock? valid options: clock*"]
    )


def test_fake_sqs_works_as_decorator_and_context_manager(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import unittest
        import boto3
        from pytest_fakesqs import fake_sqs

        class Legacy(unittest.TestCase):
            @fake_sqs(account_id="123456789012")
            def test_decorated(self):
                sqs = boto3.client("sqs", region_name="us-east-1",
                                   aws_access_key_id="a", aws_secret_access_key="b")
                sqs.create_queue(QueueName="legacy")

            def test_with(self):
                with fake_sqs() as fake:
                    url = fake.create_queue("in-block")
                    fake.advance(5)
                    self.assertTrue(url.endswith("/in-block"))
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)


def test_without_the_fake_botocore_is_untouched() -> None:
    from botocore.endpoint import Endpoint

    from pytest_fakesqs import fake_sqs

    original = Endpoint.__dict__["_send"]
    with fake_sqs(), fake_sqs():
        assert Endpoint.__dict__["_send"].__qualname__ == "_serving_send.<locals>._send"
    assert Endpoint.__dict__["_send"] is original
