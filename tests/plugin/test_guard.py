"""fakesqs_block_real_sqs: an SQS request that no fake serves fails the test, swallowed or not.

Most runs here pass `--fakesqs-block-real-sqs` (`true`: every endpoint), so that a loopback
address nobody listens on stands for "real SQS"; the default (`cloud`) is in test_safe_by_default.
"""

from __future__ import annotations

import pytest

from pytest_fakesqs.fake.text import see

from .conftest import ANSWERED_LOCALLY, literal

CLIENTS = (
    """
import boto3, pytest
from botocore.config import Config
from botocore.exceptions import EndpointConnectionError

def client(service="sqs", **kwargs):
    return boto3.client(
        service, region_name="eu-west-1", aws_access_key_id="a", aws_secret_access_key="b",
        config=Config(retries={"total_max_attempts": 1}), **kwargs,
    )

JOBS = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs"
NOWHERE = "http://127.0.0.1:1"  # nothing listens there: a request that leaves fails at once
"""
    + ANSWERED_LOCALLY
)
HOW_TO_FIX = (
    "Use the `fakesqs` fixture or the `@pytest.mark.fakesqs` marker so a fake serves SQS, mark "
    "the test `@pytest.mark.fakesqs_allow_real_sqs` to let it reach real SQS on purpose, or turn "
    "blocking off with `fakesqs_block_real_sqs = false` (ini)."
)


def test_an_unserved_request_raises_in_the_call_naming_action_url_and_fix(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_sends():
    client().send_message(QueueUrl=JOBS, MessageBody="hello")
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *RealSQSBlocked: Real SQS access not allowed: SendMessage to "
            "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs was not served by a fake "
            "(fakesqs_block_real_sqs = true: every SQS endpoint no fake serves is blocked).",
            f"E *{literal(HOW_TO_FIX)}",
            f"E *{see('fail_safe')}",
        ]
    )
    assert "fakesqs: real SQS blocked" not in result.stdout.str()  # said once, by the traceback


def test_a_swallowed_refusal_still_fails_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_swallows():
    for action in (lambda: client().list_queues(), lambda: client().get_queue_url(QueueName="jobs")):
        try:
            action()
        except Exception:
            pass  # the code under test "handles" every error
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_swallows _*",
            "fakesqs: the test tried to reach real SQS (2 requests refused, "
            "fakesqs_block_real_sqs = true):",
            "  - ListQueues https://sqs.eu-west-1.amazonaws.com/",
            "  - GetQueueUrl https://sqs.eu-west-1.amazonaws.com/",
            literal(HOW_TO_FIX),
            see("fail_safe"),
            "*= short test summary info =*",
            "FAILED *::test_swallows - Fail*",
        ]
    )


def test_a_refusal_swallowed_in_a_fixture_errors_the_test_at_setup(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
@pytest.fixture
def queue_url():
    try:
        return client().create_queue(QueueName="jobs")["QueueUrl"]
    except Exception:
        return JOBS

def test_uses(queue_url):
    pass
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR at setup of test_uses _*",
            "fakesqs: the test tried to reach real SQS during setup (1 request refused, *",
            "  - CreateQueue https://sqs.eu-west-1.amazonaws.com/",
        ]
    )


def test_a_refusal_swallowed_at_teardown_errors_the_test_at_teardown(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
@pytest.fixture
def cleanup():
    yield
    try:
        client().purge_queue(QueueUrl=JOBS)
    except Exception:
        pass

def test_uses(cleanup):
    pass
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR at teardown of test_uses _*",
            "fakesqs: the test tried to reach real SQS during teardown (1 request refused, *",
            "  - PurgeQueue https://sqs.eu-west-1.amazonaws.com/123456789012/jobs",
        ]
    )


def test_a_refusal_behind_another_failure_is_shown_in_its_own_section(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_fails_later():
    try:
        client().delete_queue(QueueUrl=JOBS)
    except Exception:
        pass
    assert False, "the real failure"
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: the real failure",
            "*- fakesqs: real SQS blocked -*",
            "fakesqs: the test tried to reach real SQS (1 request refused, *",
            "  - DeleteQueue https://sqs.eu-west-1.amazonaws.com/123456789012/jobs",
        ]
    )


def test_fakes_their_servers_and_other_services_pass(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
from pytest_fakesqs import fake_sqs

def test_fixture(fakesqs):
    client().create_queue(QueueName="jobs")

@pytest.mark.fakesqs
def test_marker():
    client().list_queues()

def test_context_manager():
    with fake_sqs():
        client().list_queues()

def test_over_http_to_a_fake_server(fakesqs_server):
    client(endpoint_url=fakesqs_server.endpoint_url).list_queues()
    assert fakesqs_server.requests_served == 1

def test_another_aws_service_is_not_blocked():
    with pytest.raises(EndpointConnectionError):
        client("s3", endpoint_url=NOWHERE).list_buckets()
"""
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs", "-p", "no:randomly")
    result.assert_outcomes(passed=5)


def test_the_allow_marker_lets_one_test_reach_real_sqs(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\naddopts = --strict-markers\nfakesqs_block_real_sqs = true\n")
    pytester.makepyfile(
        CLIENTS
        + """
@pytest.mark.fakesqs_allow_real_sqs
def test_allowed():
    with pytest.raises(EndpointConnectionError):  # it left the process: nothing listens there
        client(endpoint_url=NOWHERE).list_queues()

def test_not_allowed():
    with pytest.raises(Exception) as raised:
        client(endpoint_url=NOWHERE).list_queues()
    assert type(raised.value).__name__ == "RealSQSBlocked"
"""
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_not_allowed _*",
            "fakesqs: the test tried to reach real SQS (1 request refused, *",
        ]
    )


def test_off_when_set_false(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_block_real_sqs = false\n")
    pytester.makepyfile(
        CLIENTS
        + """
def test_reaches_out():
    # To real AWS's address: let through, it reaches the client's own handler.
    assert answered_locally(client()).list_queues()["ResponseMetadata"]["HTTPStatusCode"] == 200
"""
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_contract_mode_is_unaffected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_talks_to_the_endpoint(request):
    assert request.config.pluginmanager.get_plugin("fakesqs-guard").mode == "false"
    with pytest.raises(EndpointConnectionError):
        client(endpoint_url=NOWHERE).list_queues()
"""
    )
    result = pytester.runpytest(
        "--fakesqs-block-real-sqs", "--fakesqs-endpoint", "http://127.0.0.1:1"
    )
    result.assert_outcomes(passed=1)


def test_the_patch_is_undone_when_the_run_ends(pytester: pytest.Pytester) -> None:
    from pytest_fakesqs.transport import serving

    gates_before = list(serving._gates)
    pytester.makepyfile(
        """
        from botocore.endpoint import Endpoint

        def test_patched():
            qualname = Endpoint.__dict__["create_request"].__qualname__
            assert qualname == "_refusing_before_signing.<locals>.create_request"
        """
    )
    pytester.runpytest("--fakesqs-block-real-sqs").assert_outcomes(passed=1)
    assert serving._gates == gates_before  # the inner run's guard is gone


def test_the_marker_and_options_are_registered(pytester: pytest.Pytester) -> None:
    pytester.runpytest("--markers").stdout.fnmatch_lines(
        [
            "@pytest.mark.fakesqs_allow_real_sqs: this test may reach real SQS although "
            "fakesqs_block_real_sqs blocks it"
        ]
    )
    pytester.runpytest("--help").stdout.fnmatch_lines_random(
        ["  --fakesqs-block-real-sqs*", "  fakesqs_block_real_sqs (string):*"]
    )


def test_blocking_imports_botocore_no_earlier_than_the_code_under_test_does(
    pytester: pytest.Pytester,
) -> None:
    # The guard waits for the code under test to import botocore, then patches it: a run that
    # blocks imports no more at load than a run that does not.
    pytester.makeconftest(
        """
        import sys

        def pytest_collection(session):
            print("botocore imported at load:", "botocore" in sys.modules)
        """
    )
    pytester.makepyfile(
        """
        import sys

        def test_no_botocore_yet():
            print("botocore before the test imports it:", "botocore" in sys.modules)

        def test_then_blocked():
            import boto3
            sqs = boto3.client(
                "sqs", region_name="eu-west-1", aws_access_key_id="a", aws_secret_access_key="b"
            )
            try:
                sqs.list_queues()
            except Exception as error:
                assert type(error).__name__ == "RealSQSBlocked"
            else:
                raise AssertionError("not blocked")
        """
    )
    off = pytester.runpytest_subprocess("-s", "-p", "no:randomly", "-k", "no_botocore_yet")
    on = pytester.runpytest_subprocess("-s", "-p", "no:randomly", "--fakesqs-block-real-sqs")
    on.assert_outcomes(passed=1, failed=1)  # test_then_blocked fails: the refusal is recorded

    def loaded(result: pytest.RunResult) -> list[str]:
        lines = [line for line in result.stdout.lines if "botocore " in line]
        return [line[line.index("botocore ") :] for line in lines]

    assert loaded(on)[0] == loaded(off)[0]
    if loaded(off)[0].endswith("False"):  # the plugin itself loads lazily
        assert loaded(on)[:2] == [
            "botocore imported at load: False",
            "botocore before the test imports it: False",
        ]


def test_a_refusal_carries_the_request_it_refused() -> None:
    from pytest_fakesqs import RealSQSBlocked
    from pytest_fakesqs.plugin.refusals import Attempt, refusal

    local = "http://127.0.0.1:1"  # not cloud SQS

    blocked = refusal("true", None, local + "/", "ListQueues", None)
    assert isinstance(blocked, RealSQSBlocked)
    assert blocked.attempt == Attempt("ListQueues", local + "/")
    assert str(blocked).startswith(f"Real SQS access not allowed: ListQueues to {local}/ ")
    queue_url = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
    sent = refusal("cloud", None, "https://sqs.us-east-1.amazonaws.com/", "SendMessage", queue_url)
    assert sent is not None and sent.attempt == Attempt("SendMessage", queue_url)
    # What the mode lets through is no refusal at all.
    assert refusal("cloud", None, local + "/", "ListQueues", None) is None
    assert (
        refusal("false", None, "https://sqs.us-east-1.amazonaws.com/", "ListQueues", None) is None
    )
