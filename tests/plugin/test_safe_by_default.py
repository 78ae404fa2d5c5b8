"""Safe by default: real cloud SQS is blocked unless a test says otherwise (issue 25 §3)."""

from __future__ import annotations

import os

import pytest

import pytest_fakesqs.engine.errors  # noqa: F401  (the one FakeSQSWarning class of every inline run)
from pytest_fakesqs.plugin.refusals import is_cloud_endpoint

from .conftest import ANSWERED_LOCALLY

CLIENTS = (
    """
import boto3, pytest
from botocore.config import Config
from botocore.exceptions import EndpointConnectionError

def client(**kwargs):
    kwargs = {"region_name": "eu-west-1", **kwargs}
    return boto3.client("sqs", config=Config(retries={"total_max_attempts": 1}), **kwargs)

def let_through(**kwargs):
    return answered_locally(client(**kwargs)).list_queues()["ResponseMetadata"]["HTTPStatusCode"]
"""
    + ANSWERED_LOCALLY
)


@pytest.fixture
def no_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without AWS credentials, as CI usually is."""
    for name in [name for name in os.environ if name.startswith("AWS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.mark.parametrize(
    "url",
    [
        "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs",
        "https://sqs.amazonaws.com/",
        "https://sqs.cn-north-1.amazonaws.com.cn/",
        "https://sqs.us-east-1.api.aws/",
        "https://vpce-0123456789abcdef0-abcdefgh.sqs.us-east-1.vpce.amazonaws.com/",
        "https://sqs.us-gov-west-1.amazonaws.com/",
        "https://SQS.EU-WEST-1.AMAZONAWS.COM./",
        "https://message-queue.api.cloud.yandex.net/b1g/dj6/jobs",
    ],
)
def test_public_cloud_endpoints(url: str) -> None:
    assert is_cloud_endpoint(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9324/000000000000/jobs",
        "http://localhost:4566/",
        "http://[::1]:4566/",
        "http://localstack:4566/000000000000/jobs",
        "http://elasticmq:9324/",
        "https://sqs.amazonaws.com.example.org/",
        "https://notamazonaws.com/",
        "not a url",
    ],
)
def test_every_other_endpoint(url: str) -> None:
    assert not is_cloud_endpoint(url)


def test_cloud_sqs_is_refused_before_credentials_are_looked_for(
    pytester: pytest.Pytester, no_credentials: None
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_forgot_the_fixture():
    client().send_message(
        QueueUrl="https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", MessageBody="x"
    )

def test_yandex_message_queue():
    client(
        region_name="ru-central1", endpoint_url="https://message-queue.api.cloud.yandex.net"
    ).list_queues()
"""
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "E   *RealSQSBlocked: Real SQS access not allowed: SendMessage to "
            "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs was not served by a fake "
            "(fakesqs_block_real_sqs = cloud: public cloud SQS endpoints are blocked).",
            "E   *, or turn blocking off with `fakesqs_block_real_sqs = false` (ini).",
            "E   *RealSQSBlocked: Real SQS access not allowed: ListQueues to "
            "https://message-queue.api.cloud.yandex.net/ was not served by a fake *",
        ]
    )
    assert "NoCredentialsError" not in result.stdout.str()


def test_local_endpoints_pass_and_the_fake_and_moto_serve(
    pytester: pytest.Pytester, no_credentials: None
) -> None:
    pytester.makepyfile(
        CLIENTS
        + """
def test_loopback():
    with pytest.raises(EndpointConnectionError):  # it left the process: nothing listens there
        client(
            endpoint_url="http://127.0.0.1:1", aws_access_key_id="a", aws_secret_access_key="b"
        ).list_queues()

def test_a_docker_compose_host():
    keys = {"aws_access_key_id": "a", "aws_secret_access_key": "b"}
    assert let_through(endpoint_url="http://localstack:4566", **keys) == 200

def test_the_fake(fakesqs):
    client().create_queue(QueueName="jobs")

@pytest.mark.fakesqs
def test_the_marker_alone():
    client().create_queue(QueueName="jobs")

def test_mock_aws_answers_sqs_itself():
    from moto import mock_aws

    with mock_aws():
        url = client().create_queue(QueueName="in-moto")["QueueUrl"]
        client().send_message(QueueUrl=url, MessageBody="moto's")
        assert client().receive_message(QueueUrl=url)["Messages"][0]["Body"] == "moto's"

@pytest.mark.fakesqs_allow_real_sqs
def test_allowed_on_purpose():
    assert let_through() == 200
"""
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=6)


@pytest.mark.parametrize(
    ("setting", "args"),
    [("fakesqs_block_real_sqs = true", ()), ("", ("--fakesqs-block-real-sqs",))],
)
def test_true_blocks_every_endpoint(
    pytester: pytest.Pytester, setting: str, args: tuple[str, ...]
) -> None:
    pytester.makeini(f"[pytest]\n{setting}\n")
    pytester.makepyfile(
        CLIENTS
        + """
def test_localstack():
    client(endpoint_url="http://localstack:4566").list_queues()
"""
    )
    result = pytester.runpytest(*args)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *RealSQSBlocked: Real SQS access not allowed: ListQueues to "
            "http://localstack:4566/ was not served by a fake (fakesqs_block_real_sqs = true: "
            "every SQS endpoint no fake serves is blocked)."
        ]
    )


def test_false_turns_blocking_off(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_block_real_sqs = false\n")
    pytester.makepyfile(
        CLIENTS
        + """
def test_reaches_aws():
    assert let_through(aws_access_key_id="a", aws_secret_access_key="b") == 200
"""
    )
    pytester.runpytest().assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("fakesqs_block_real_sqs", "expected cloud, true or false, got 'maybe'"),
        ("fakesqs_moto", "expected true or false, got 'maybe'"),
        ("fakesqs_assert_dlq_empty", "expected true or false, got 'maybe'"),
    ],
)
def test_a_bad_ini_boolean_names_its_key(
    pytester: pytest.Pytester, key: str, expected: str
) -> None:
    pytester.makeini(f"[pytest]\n{key} = maybe\n")
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: ini option {key}: {expected}"])


def test_a_fresh_botocore_under_an_active_fake_is_served(pytester: pytest.Pytester) -> None:
    # pytester's in-process runs drop the modules they imported: the second run imports
    # botocore (and the fake's modules) afresh. Its CreateQueue must not go to real AWS.
    pytester.makepyfile(
        test_one="""
import boto3, pytest

@pytest.mark.fakesqs
def test_marker_without_the_fixture():
    boto3.client("sqs", region_name="us-east-1").create_queue(QueueName="one")
"""
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1)
    pytester.makepyfile(
        test_one="""
import boto3

def test_fixture(fakesqs):
    boto3.client("sqs", region_name="us-east-1").create_queue(QueueName="two")
    assert fakesqs.queue("two").bodies() == []
"""
    )
    for blocking in ("false", "true"):
        result = pytester.runpytest("-p", "no:randomly", "-o", f"fakesqs_block_real_sqs={blocking}")
        result.assert_outcomes(passed=1)


STRAY = """
import threading
import boto3

go = threading.Event()
answered = threading.Event()
outcomes = []

def client():
    return boto3.client("sqs", region_name="us-east-1")

def test_a_leaves_a_consumer_running(fakesqs):
    url = fakesqs.create_queue("orders")
    sqs = client()

    def consume():
        sqs.receive_message(QueueUrl=url)
        go.wait(30)  # real-time: until the next test has sent its message
        try:
            outcomes.append(sqs.receive_message(QueueUrl=url).get("Messages", []))
        except Exception as error:
            outcomes.append(type(error).__name__)
        answered.set()

    threading.Thread(target=consume, name="orders-consumer", daemon=True).start()
    while not fakesqs.calls("ReceiveMessage"):  # real-time: the consumer's first call
        answered.wait(0.001)

def test_b_keeps_its_message(fakesqs):
    url = fakesqs.create_queue("orders")
    client().send_message(QueueUrl=url, MessageBody="mine")
    go.set()
    answered.wait(30)  # real-time: the stray consumer's call
    assert outcomes == ["StrayThreadRefused"]
    assert fakesqs.queue("orders").bodies() == ["mine"]

def test_c_serves_a_new_thread(fakesqs):
    url = fakesqs.create_queue("jobs")
    worker = threading.Thread(
        target=lambda: client().send_message(QueueUrl=url, MessageBody="w"), name="worker"
    )
    worker.start()
    worker.join()
    assert fakesqs.queue("jobs").bodies() == ["w"]
"""


@pytest.mark.parametrize("args", [(), ("--fakesqs-block-real-sqs",)])
def test_a_consumer_left_running_cannot_take_the_next_tests_messages(
    pytester: pytest.Pytester, args: tuple[str, ...]
) -> None:
    pytester.makepyfile(test_stray=STRAY)
    # This suite turns warnings into errors, and an inner run inherits that: shown, not raised.
    shown = ("-W", "default::pytest_fakesqs.FakeSQSWarning")
    result = pytester.runpytest("-p", "no:randomly", *shown, *args)
    result.assert_outcomes(passed=3, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "test_stray.py::test_b_keeps_its_message",
            # Shown at the consumer's own call (line 19 of test_stray.py), not in the plugin.
            "*test_stray.py:19: FakeSQSWarning: fakesqs: thread 'orders-consumer', which called SQS during "
            "test_stray.py::test_a_leaves_a_consumer_running, is still calling it after that "
            "fake stopped; the fake of test_stray.py::test_b_keeps_its_message refused the call "
            "so the thread cannot take this test's messages.*",
        ]
    )
