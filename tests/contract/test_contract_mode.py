"""Tier 3: contract mode, proven end to end against this project's own server as the "real"
endpoint (an HTTP-only fake on the real clock, the way an AWS endpoint behaves)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.fake.facade import FakeSQS, core_of
from pytest_fakesqs.fake.options import make_options
from pytest_fakesqs.server.server import FakeSQSServer

pytest_plugins = ["pytester"]


@pytest.fixture
def real_endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSQSServer]:
    from pytest_fakesqs.fake.facade import new_fake

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "contract-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "contract-secret")
    # Served over HTTP only: nothing in this process is patched, as with a real endpoint.
    fake = new_fake(make_options(clock="real")).start(in_process=False)
    try:
        with FakeSQSServer(fake) as server:
            yield server
    finally:
        fake.stop()


def run(pytester: pytest.Pytester, server: FakeSQSServer, *args: str) -> pytest.RunResult:
    return pytester.runpytest(
        f"--fakesqs-endpoint={server.endpoint_url}", "-p", "no:randomly", "-rs", *args
    )


def live_queues(server: FakeSQSServer) -> list[str]:
    fake: FakeSQS = server.fake
    return sorted(q.name for q in core_of(fake).broker.queues())


def test_header_names_the_endpoint_and_prefixed_queues_are_deleted(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makepyfile(
        """
        import boto3

        def test_round_trip(fakesqs):
            url = fakesqs.create_queue("orders", VisibilityTimeout=5)
            assert "/fsq" in url and url.endswith("-orders")
            # The code under test makes its own client, with no endpoint: it is pointed there.
            sqs = boto3.client("sqs", region_name="us-east-1")
            sqs.send_message(QueueUrl=url, MessageBody="hello")
            view = fakesqs.queue("orders")
            assert view.backlog().count == 1
            assert view.bodies() == ["hello"]
            got = sqs.receive_message(QueueUrl=url)["Messages"]
            assert got[0]["Body"] == "hello"
            sqs.delete_message(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"])
        """
    )
    result = run(pytester, real_endpoint)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            f"fakesqs: CONTRACT MODE: nothing is faked; every SQS call goes to "
            f"{real_endpoint.endpoint_url} (region us-east-1); queues made by fakesqs helpers "
            "are prefixed 'fsq*-<test number>-' and deleted at teardown"
        ]
    )
    assert live_queues(real_endpoint) == []
    assert real_endpoint.requests_served >= 6


def test_fake_only_tests_and_helpers_skip_with_reasons(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs_only
        def test_marked(fakesqs):
            raise AssertionError("must not run")

        def test_injection(fakesqs):
            fakesqs.fail_next("SendMessage")

        @pytest.mark.fakesqs(duplicate_delivery=1.0)
        def test_fake_option(fakesqs):
            raise AssertionError("must not run")

        def test_long_wait(fakesqs):
            fakesqs.advance(61)

        @pytest.mark.fakesqs(contract_max_sleep=0.5)
        def test_short_wait(fakesqs):
            before = fakesqs.now()
            fakesqs.advance(0.05)
            assert fakesqs.now() > before
        """
    )
    result = run(pytester, real_endpoint)
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines(
        [
            "SKIPPED * fakesqs_only: this test needs the fake; contract mode runs against http://127.0.0.1:*",
            "SKIPPED * contract mode: fail_next() needs the fake; mark the test "
            "@pytest.mark.fakesqs_only to skip it up front",
            "SKIPPED * contract mode: option duplicate_delivery=1.0 needs the fake; * cannot honour it",
            "SKIPPED * contract mode: advance(61) would sleep 61 s for real, more than "
            "contract_max_sleep=60; raise contract_max_sleep to run it",
        ],
        consecutive=False,
    )


def test_dead_letters_are_read_from_the_real_dlq(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makepyfile(
        """
        import boto3, pytest

        QUEUES = {"orders": {"dlq": "orders-dlq", "max_receive_count": 1}, "orders-dlq": {}}

        @pytest.mark.fakesqs(queues=QUEUES)
        def test_poison(fakesqs):
            sqs = boto3.client("sqs", region_name="us-east-1")
            url = fakesqs.queue("orders").url
            sqs.send_message(QueueUrl=url, MessageBody="poison")
            assert sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"]
            assert "Messages" not in sqs.receive_message(QueueUrl=url)  # moved, not returned
            [record] = fakesqs.assert_dead_lettered("orders", body="poison", count=1)
            assert (record.source_queue, record.queue) == ("orders", "orders-dlq")
            assert [d.body for d in fakesqs.dead_letters("orders-dlq")] == ["poison"]

        @pytest.mark.fakesqs(queues=QUEUES)
        def test_mismatch_message(fakesqs):
            fakesqs.assert_dead_lettered(body="anything")
        """
    )
    result = run(pytester, real_endpoint)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "E *AssertionError: assert_dead_lettered: expected at least 1 dead letter with body "
            "'anything', found none (contract mode, http://127.0.0.1:*)",
            "E *A real endpoint moves messages on its own clock: *",
        ]
    )
    assert live_queues(real_endpoint) == []


def test_declared_queues_are_created_as_the_fake_creates_them(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    # A chain a -> b -> c: c first, then b, then a; `tags` is a TagQueue call, not an attribute
    # (the endpoint would refuse an attribute of that name).
    pytester.makepyfile(
        """
        import json

        import boto3, pytest

        QUEUES = {
            "chain-a": {"dlq": "chain-b", "max_receive_count": 2},
            "chain-b": {"dlq": "chain-c", "max_receive_count": 3, "VisibilityTimeout": 7},
            "chain-c": {"tags": {"team": "orders"}},
        }

        @pytest.mark.fakesqs(queues=QUEUES)
        def test_chain(fakesqs):
            sqs = boto3.client("sqs", region_name="us-east-1")
            a, b, c = (fakesqs.queue(name) for name in ("chain-a", "chain-b", "chain-c"))
            redrive = {name: json.loads(q.attributes["RedrivePolicy"]) for name, q in
                       (("a", a), ("b", b))}
            assert redrive["a"] == {"deadLetterTargetArn": b.arn, "maxReceiveCount": 2}
            assert redrive["b"] == {"deadLetterTargetArn": c.arn, "maxReceiveCount": 3}
            assert b.attributes["VisibilityTimeout"] == "7"
            assert sqs.list_queue_tags(QueueUrl=c.url)["Tags"] == {"team": "orders"}
        """
    )
    run(pytester, real_endpoint).assert_outcomes(passed=1)
    assert live_queues(real_endpoint) == []


def test_a_queue_the_code_made_with_its_bare_name_is_named_in_the_lookup_error(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makepyfile(
        """
        import boto3, pytest

        def test_lookup(fakesqs):
            fakesqs.create_queue("orders")
            # The code under test creates its own queue, as kombu does for Celery's "celery".
            boto3.client("sqs", region_name="us-east-1").create_queue(QueueName="jobs")
            with pytest.raises(LookupError) as caught:
                fakesqs.queue("jobs")
            print("JOBS:", caught.value)
            with pytest.raises(LookupError) as caught:
                fakesqs.queue("nope")
            print("NOPE:", caught.value)
            fakesqs.create_queue("audit")
            # The fixture's queues, by the names the test gave them; not the code's own "jobs".
            views = fakesqs.queues()
            assert [view.url.rsplit("-", 1)[-1] for view in views] == ["audit", "orders"]
            assert views[1].url == fakesqs.queue("orders").url
        """
    )
    result = run(pytester, real_endpoint, "-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "*JOBS: no queue named 'jobs' (looked up as 'fsq*-1-jobs'); queues: orders. The "
            "endpoint has a queue named 'jobs' without the prefix (http://127.0.0.1:*/jobs): "
            "contract mode finds only queues made through the fixture (create_queue, the queues "
            "option), not one the code under test created itself, and it does not delete that "
            "one at teardown. Read it by URL (fakesqs.queue('http://127.0.0.1:*/jobs')), declare "
            "the queue through the fixture and hand its URL to the code, or mark the test "
            "@pytest.mark.fakesqs_only",
            "*NOPE: no queue named 'nope' (looked up as 'fsq*-1-nope'); queues: orders",
        ]
    )
    assert live_queues(real_endpoint) == ["jobs"]  # not the fixture's: left, as the text says


def test_a_queue_that_cannot_be_deleted_is_a_warning_naming_it(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makepyfile(
        """
        from botocore.exceptions import ClientError

        def test_leak(fakesqs):
            fakesqs.create_queue("stuck")
            def refuse(**kwargs):
                raise ClientError({"Error": {"Code": "AccessDenied", "Message": "no"}}, "DeleteQueue")
            fakesqs.client.delete_queue = refuse
        """
    )
    result = run(pytester, real_endpoint, "-W", "default")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*PytestWarning: fakesqs contract mode could not delete these queues; delete them by hand:",
            "*stuck (http://127.0.0.1:*/123456789012/fsq*-1-stuck): AccessDenied",
        ]
    )


def test_contract_mode_is_never_on_by_environment_alone(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9")
    monkeypatch.setenv("FAKESQS_ENDPOINT", "http://127.0.0.1:9")
    pytester.makepyfile(
        """
        def test_faked(fakesqs):
            assert not getattr(fakesqs, "contract_mode", False)
            fakesqs.create_queue("local")
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*CONTRACT MODE*")


def test_ini_turns_contract_mode_on_explicitly(
    pytester: pytest.Pytester, real_endpoint: FakeSQSServer
) -> None:
    pytester.makeini(
        f"""
        [pytest]
        fakesqs_endpoint = {real_endpoint.endpoint_url}
        """
    )
    pytester.makepyfile(
        """
        def test_contract(fakesqs):
            assert fakesqs.contract_mode
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["fakesqs: CONTRACT MODE: *"])


def test_fake_sqs_context_manager_is_unaffected() -> None:
    with fake_sqs() as fake:
        assert isinstance(fake, FakeSQS)
