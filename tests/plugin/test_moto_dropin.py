"""The moto drop-in (`fakesqs_moto`): every way a suite activates moto serves SQS from the fake.

Each inner suite proves the fake served by what only it does: AWS refuses a retention period
below 60 s (moto accepts it), and moto's own SQS backend stays empty.
"""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("moto")
# Imported here, before any inner run: pytester's in-process runs drop the modules they import,
# and moto imported afresh each run would add one more botocore handler per run, while a module
# of the drop-in imported afresh would forget the patches its first copy put on moto.
import moto.core.models
import moto.sqs.models  # noqa: F401

import pytest_fakesqs.transport.moto_bridge
import pytest_fakesqs.transport.moto_lifecycle  # noqa: F401

pytest_plugins = ["pytester"]

HELPERS = """
import unittest

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.sqs.models import sqs_backends


def sqs():
    return boto3.client("sqs", region_name="us-east-1")


def queue_names():
    return sorted(url.rsplit("/", 1)[1] for url in sqs().list_queues().get("QueueUrls", []))


def assert_the_fake_serves():
    with pytest.raises(ClientError) as refused:
        sqs().create_queue(QueueName="short", Attributes={"MessageRetentionPeriod": "30"})
    assert refused.value.response["Error"]["Code"] == "InvalidAttributeValue"
    assert sqs_backends["123456789012"]["us-east-1"].queues == {}
"""


def run(pytester: pytest.Pytester, body: str, *args: str) -> pytest.RunResult:
    pytester.makepyfile(test_suite=HELPERS + body)
    return pytester.runpytest("-p", "no:randomly", "-o", "fakesqs_moto=true", *args)


def test_the_mock_aws_decorator_serves_sqs_from_the_fake_and_the_rest_from_moto(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
@mock_aws
def test_decorated():
    url = sqs().create_queue(QueueName="jobs")["QueueUrl"]
    assert url == "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
    assert_the_fake_serves()
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket="reports")
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == ["reports"]


@mock_aws
def test_next_decorated_test_starts_fresh():
    assert queue_names() == []
""",
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["fakesqs: moto drop-in (moto 5.*): SQS from the fake while*"])


def test_with_blocks_start_fresh_and_nested_ones_share_the_outermost_state(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
def test_blocks():
    with mock_aws():
        sqs().create_queue(QueueName="first")
        with mock_aws():  # nested: moto neither resets on entry nor drops data on exit
            sqs().create_queue(QueueName="inner")
        assert queue_names() == ["first", "inner"]
        assert_the_fake_serves()
    with mock_aws():  # moto's outermost start resets: so does the fake
        assert queue_names() == []
""",
    )
    result.assert_outcomes(passed=1)


def test_fixtures_entering_mock_aws_keep_the_state_for_their_scope(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
@pytest.fixture(scope="module")
def aws():
    with mock_aws():
        yield sqs().create_queue(QueueName="module-wide")["QueueUrl"]


@pytest.fixture
def queue(aws):
    with mock_aws():  # nested inside the module's: state shared
        yield sqs().create_queue(QueueName="per-test")["QueueUrl"]


def test_first(queue):
    sqs().send_message(QueueUrl=queue, MessageBody="left behind")
    assert_the_fake_serves()


def test_second(aws, queue):
    # moto's state lives as long as the module fixture's mock: so does the fake's
    assert queue_names() == ["module-wide", "per-test"]
    assert len(sqs().receive_message(QueueUrl=queue)["Messages"]) == 1
""",
    )
    result.assert_outcomes(passed=2)


def test_class_decorators_follow_moto_s_reset_rules(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
@mock_aws
class TestWithSetUp(unittest.TestCase):
    def setUp(self):  # moto resets here, and keeps the state for the test method
        self.url = sqs().create_queue(QueueName="unit")["QueueUrl"]

    def test_one(self):
        sqs().send_message(QueueUrl=self.url, MessageBody="x")
        assert len(sqs().receive_message(QueueUrl=self.url)["Messages"]) == 1

    def test_two(self):
        assert queue_names() == ["unit"]
        assert "Messages" not in sqs().receive_message(QueueUrl=self.url)
        assert_the_fake_serves()


@mock_aws
class TestPlain:  # no setup: each test method resets
    def test_a(self):
        sqs().create_queue(QueueName="a")
        assert_the_fake_serves()

    def test_b(self):
        assert queue_names() == []
""",
    )
    result.assert_outcomes(passed=4)


def test_start_and_stop_in_set_up_and_tear_down(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
class TestStartStop(unittest.TestCase):
    def setUp(self):
        self.mock = mock_aws()
        self.mock.start()
        self.url = sqs().create_queue(QueueName="jobs")["QueueUrl"]

    def tearDown(self):
        self.mock.stop()

    def test_one(self):
        sqs().send_message(QueueUrl=self.url, MessageBody="x")
        assert_the_fake_serves()

    def test_two(self):
        assert "Messages" not in sqs().receive_message(QueueUrl=self.url)


def test_a_reset_while_active_empties_the_fake():
    mock = mock_aws()
    mock.start()
    try:
        sqs().create_queue(QueueName="gone")
        mock.reset()
        assert queue_names() == []
    finally:
        mock.stop()
""",
    )
    result.assert_outcomes(passed=3)


def test_the_fakesqs_fixture_sees_moto_s_fake(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
@mock_aws
def test_decorated(fakesqs):
    dlq = sqs().create_queue(QueueName="jobs-dlq")["QueueUrl"]
    arn = fakesqs.queue(dlq).arn
    url = sqs().create_queue(QueueName="jobs", Attributes={
        "RedrivePolicy": f'{{"deadLetterTargetArn": "{arn}", "maxReceiveCount": 1}}',
        "VisibilityTimeout": "0",
    })["QueueUrl"]
    sqs().send_message(QueueUrl=url, MessageBody="poison")
    sqs().receive_message(QueueUrl=url)
    sqs().receive_message(QueueUrl=url)
    fakesqs.assert_dead_lettered("jobs-dlq", body="poison", count=1)
    assert (fakesqs.options.clock, fakesqs.options.account_id) == ("system", "123456789012")


def test_after_the_block_the_state_stays_readable(fakesqs):
    with mock_aws():
        url = sqs().create_queue(QueueName="jobs")["QueueUrl"]
        sqs().send_message(QueueUrl=url, MessageBody="kept")
    assert fakesqs.queue("jobs").bodies() == ["kept"]


def test_without_moto_the_fixture_serves_a_fresh_fake(fakesqs):
    assert queue_names() == []
    sqs().create_queue(QueueName="mine")
    assert_the_fake_serves()


@pytest.mark.fakesqs(clock="frozen", start="2030-01-01T00:00:00Z")
def test_markers_set_the_fake_s_options(fakesqs):
    with mock_aws():
        url = sqs().create_queue(QueueName="jobs")["QueueUrl"]
        sqs().receive_message(QueueUrl=url, WaitTimeSeconds=20)
    assert fakesqs.now().isoformat() == "2030-01-01T00:00:20+00:00"
""",
    )
    result.assert_outcomes(passed=4)


def test_a_failing_test_reports_the_fake_without_asking_for_it(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
def test_fails():
    with mock_aws():
        url = sqs().create_queue(QueueName="orders")["QueueUrl"]
        sqs().send_message(QueueUrl=url, MessageBody="unhandled")
        assert False, "the handler never ran"


def test_passes_without_moto():
    pass
""",
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*- fakesqs -*", "clock system at *", "queues:", "  orders: 1 visible, 0 in flight*"]
    )


def test_the_flag_turns_it_on_and_moto_s_account_is_followed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOTO_ACCOUNT_ID", "000000000042")
    pytester.makepyfile(
        test_suite=HELPERS
        + """
@mock_aws
def test_account():
    url = sqs().create_queue(QueueName="jobs")["QueueUrl"]
    assert url == "https://sqs.us-east-1.amazonaws.com/000000000042/jobs"
"""
    )
    pytester.runpytest("-p", "no:randomly", "--fakesqs-moto").assert_outcomes(passed=1)


def test_sns_delivers_into_the_drop_in_s_fake(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
@mock_aws
def test_fan_out(fakesqs):
    sns = boto3.client("sns", region_name="us-east-1")
    url = sqs().create_queue(QueueName="events")["QueueUrl"]
    arn = sqs().get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
    topic = sns.create_topic(Name="orders")["TopicArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn["Attributes"]["QueueArn"],
                  Attributes={"RawMessageDelivery": "true"})
    sns.publish(TopicArn=topic, Message="placed")
    assert fakesqs.queue("events").bodies() == ["placed"]
""",
    )
    result.assert_outcomes(passed=1)


def test_moto_started_by_a_conftest_before_the_session_is_followed(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
from moto import mock_aws

_mock = mock_aws()
_mock.start()


def pytest_unconfigure():
    _mock.stop()
"""
    )
    result = run(
        pytester,
        """
def test_served():
    assert_the_fake_serves()
""",
    )
    result.assert_outcomes(passed=1)


def test_without_the_option_moto_serves_sqs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_suite=HELPERS
        + """
@mock_aws
def test_moto():
    sqs().create_queue(QueueName="short", Attributes={"MessageRetentionPeriod": "30"})
    assert list(sqs_backends["123456789012"]["us-east-1"].queues) == ["short"]
"""
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1)


def test_the_plugin_does_not_import_moto_unless_the_option_is_on(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
import sys

def test_nothing_imported():
    assert "moto" not in sys.modules
"""
    )
    pytester.runpytest_subprocess("-p", "no:randomly").assert_outcomes(passed=1)


def test_a_moto_without_mock_aws_is_refused_with_a_sentence(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(sys.modules["moto"], "mock_aws")
    monkeypatch.setattr(sys.modules["moto"], "__version__", "4.2.14")
    pytester.makepyfile("def test_nothing(): pass")
    result = pytester.runpytest("-o", "fakesqs_moto=true")
    result.stderr.fnmatch_lines(
        ["ERROR: fakesqs_moto needs moto >= 5 (its mock_aws); moto 4.2.14 is installed*"]
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
