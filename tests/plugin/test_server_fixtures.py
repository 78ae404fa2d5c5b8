"""Tier 3: `fakesqs_server` and `fakesqs_session_server` as a suite meets them."""

from __future__ import annotations

import pytest

from pytest_fakesqs.fake.options import make_options

pytest_plugins = ["pytester"]


def test_the_session_server_keeps_one_fake_across_tests(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_region = eu-west-1\nfakesqs_account_id = 000000000007\n")
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture(scope="session")
        def fakesqs_session_options():
            return {"account_id": "000000000042", "queues": {"events": {}}}
        """
    )
    pytester.makepyfile(
        """
        def test_first(fakesqs_session_server):
            sqs = fakesqs_session_server.client()
            url = sqs.get_queue_url(QueueName="events")["QueueUrl"]
            assert url == fakesqs_session_server.endpoint_url + "/000000000042/events"
            assert fakesqs_session_server.fake.options.region == "eu-west-1"  # from ini
            sqs.send_message(QueueUrl=url, MessageBody="kept")

        def test_second_with_its_own_in_process_fake(fakesqs, fakesqs_session_server):
            # The test's fake answers in-process calls; the session server keeps its own state.
            sqs = fakesqs_session_server.client()
            url = sqs.get_queue_url(QueueName="events")["QueueUrl"]
            assert [m["Body"] for m in sqs.receive_message(QueueUrl=url)["Messages"]] == ["kept"]
            assert fakesqs_session_server.fake is not fakesqs
            from pytest_fakesqs.fake.facade import core_of
            assert core_of(fakesqs).broker.queues() == []
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_fakesqs_server_is_started_per_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        endpoints = []

        def test_one(fakesqs, fakesqs_server):
            endpoints.append(fakesqs_server.endpoint_url)
            fakesqs_server.client().create_queue(QueueName="left-behind")

        def test_two(fakesqs_server):
            assert fakesqs_server.endpoint_url not in endpoints
            assert "QueueUrls" not in fakesqs_server.client().list_queues()
            assert fakesqs_server.endpoint_url.startswith("http://127.0.0.1:")
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_verify_signatures_needs_credentials() -> None:
    with pytest.raises(ValueError) as raised:
        make_options(verify_signatures=True)

    assert str(raised.value) == (
        "verify_signatures needs credentials={access_key_id: secret_access_key} "
        "to check signatures against"
    )
