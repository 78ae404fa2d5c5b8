"""Tier 3: every option through the marker and ini, the merge order, the header, validation."""

from __future__ import annotations

import pytest

from pytest_fakesqs import Options
from pytest_fakesqs.fake.options import defaults, make_options, parse_ini

from .conftest import literal

CLIENT = """
import boto3, pytest

def client(region="us-east-1"):
    return boto3.client("sqs", region_name=region,
                        aws_access_key_id="a", aws_secret_access_key="b")
"""


def test_every_option_is_accepted_by_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CLIENT
        + """
        @pytest.mark.fakesqs(
            clock="autojump", start="2030-05-06T07:08:09Z", region="eu-north-1",
            account_id="000000000042", flavor="aws", queues={"jobs": {"DelaySeconds": 5}},
            autojump_threshold=0.01, assert_dlq_empty=True, assert_no_client_errors=True,
        )
        def test_configured(fakesqs):
            from pytest_fakesqs.fake.facade import core_of
            options = fakesqs.options
            assert options.clock == core_of(fakesqs).clock.mode == "autojump"
            assert fakesqs.now().isoformat() == "2030-05-06T07:08:09+00:00"
            assert core_of(fakesqs).clock.autojump_threshold == 0.01
            assert fakesqs.queue("jobs").url == (
                "https://sqs.eu-north-1.amazonaws.com/000000000042/jobs")
            assert fakesqs.queue("jobs").attributes["DelaySeconds"] == "5"
            assert (options.flavor, options.assert_dlq_empty,
                    options.assert_no_client_errors) == ("aws", True, True)
        """.replace("\n        ", "\n")
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_closest_marker_wins_per_key_then_ini_then_default(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        fakesqs_region = ap-south-1
        fakesqs_account_id = 111111111111
        fakesqs_clock = autojump
        """
    )
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.fakesqs(region="eu-west-1", start="2030-01-01T00:00:00Z")

        @pytest.mark.fakesqs(region="eu-west-2")
        class TestMerged:
            @pytest.mark.fakesqs(start="2031-01-01T00:00:00Z")
            def test_function_class_module_ini_default(self, fakesqs):
                o = fakesqs.options
                assert o.start == "2031-01-01T00:00:00Z"   # function
                assert o.region == "eu-west-2"             # class over module and ini
                assert o.account_id == "111111111111"      # ini
                assert o.clock == "autojump"               # ini
                assert o.flavor == "aws"                   # default

        def test_module_over_ini(fakesqs):
            assert fakesqs.options.region == "eu-west-1"

        def test_ini_alone_does_not_turn_the_fake_on(request):
            assert "fakesqs" not in request.fixturenames or True
        """
    )
    pytester.runpytest().assert_outcomes(passed=3)


def test_marker_alone_turns_the_fake_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        CLIENT
        + """
        @pytest.mark.fakesqs
        def test_no_fixture_argument():
            assert client().create_queue(QueueName="q")["QueueUrl"].endswith("/q")
        """.replace("\n        ", "\n")
    )
    pytester.runpytest().assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("marker", "error"),
    [
        (
            'clok="frozen"',
            "TypeError: unknown fakesqs option 'clok'; did you mean clock? valid options: clock, start*",
        ),
        (
            'clock="slow"',
            "ValueError: clock must be one of frozen, frozen-instant, autojump, real, system; got 'slow'",
        ),
        ('flavor="gcp"', "ValueError: flavor must be one of aws, ymq; got 'gcp'"),
        ("assert_dlq_empty=1", "TypeError: assert_dlq_empty must be bool; got 1"),
        ('autojump_threshold="x"', "TypeError: autojump_threshold must be float; got 'x'"),
        ("autojump_threshold=-1", "ValueError: autojump_threshold must be >= 0 seconds; got -1"),
        ('account_id="12"', "ValueError: account_id must be 12 digits; got '12'"),
        ('start="soon"', "ValueError: start must be an ISO-8601 date-time, got 'soon'"),
        ("region=''", "ValueError: region must be a non-empty string"),
        ('"frozen"', "TypeError: @pytest.mark.fakesqs takes keyword options only; got ('frozen',)"),
    ],
)
def test_a_bad_marker_option_errors_the_test_with_a_short_message(
    pytester: pytest.Pytester, marker: str, error: str
) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.fakesqs({marker})
        def test_it():
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([literal(error)])


def test_every_option_has_an_ini_key_read_by_its_type(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        fakesqs_clock = real
        fakesqs_start = 2030-01-01T00:00:00Z
        fakesqs_region = eu-central-1
        fakesqs_account_id = 222222222222
        fakesqs_flavor = aws
        fakesqs_queues = {"orders": {"VisibilityTimeout": "45"}}
        fakesqs_autojump_threshold = 0.2
        fakesqs_assert_dlq_empty = true
        fakesqs_assert_no_client_errors = yes
        """
    )
    pytester.makepyfile(
        """
        def test_ini(fakesqs):
            o = fakesqs.options
            assert (o.clock, o.start, o.region, o.account_id, o.flavor) == (
                "real", "2030-01-01T00:00:00Z", "eu-central-1", "222222222222", "aws")
            assert o.queues == {"orders": {"VisibilityTimeout": "45"}}
            assert o.autojump_threshold == 0.2
            assert o.assert_dlq_empty is True and o.assert_no_client_errors is True
            assert fakesqs.queue("orders").attributes["VisibilityTimeout"] == "45"
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            literal(
                "fakesqs: clock=real, start=2030-01-01T00:00:00Z, region=eu-central-1, "
                "account_id=222222222222, flavor=aws, queues=[orders], autojump_threshold=0.2, "
                "assert_dlq_empty=True, assert_no_client_errors=True (ini: clock, start, region, "
                "account_id, flavor, queues, autojump_threshold, assert_dlq_empty, "
                "assert_no_client_errors)"
            )
        ]
    )


def test_report_header_is_one_short_line_without_configuration(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile("def test_nothing(): pass")
    result = pytester.runpytest()
    lines = [line for line in result.stdout.lines if line.startswith("fakesqs")]
    assert lines == ["fakesqs: clock=frozen, region=us-east-1, account_id=123456789012, flavor=aws"]
    assert len(lines[0]) <= 120


def test_the_default_header_is_the_one_options_make() -> None:
    """A run whose ini sets nothing prints a kept line, so that its header loads no Options."""
    from pytest_fakesqs.plugin.config import DEFAULT_HEADER
    from pytest_fakesqs.plugin.options import header

    assert header({}) == DEFAULT_HEADER


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            "fakesqs_clock = slow",
            "ini option fakesqs_clock: clock must be one of frozen, frozen-instant, autojump, real, system; got 'slow'",
        ),
        (
            "fakesqs_assert_dlq_empty = maybe",
            "ini option fakesqs_assert_dlq_empty: expected true or false, got 'maybe'",
        ),
        (
            "fakesqs_autojump_threshold = fast",
            "ini option fakesqs_autojump_threshold: expected a number, got 'fast'",
        ),
        (
            "fakesqs_queues = {orders}",
            "ini option fakesqs_queues: expected JSON (Expecting property name enclosed in double quotes at column 2)",
        ),
        (
            'fakesqs_queues = {"a": {"dlq": "b", "max_receive_count": 3}}',
            "ini option fakesqs_queues: queues['a']: dead-letter queue 'b' is not declared; add 'b': {} to queues",
        ),
        (
            "fakesqs_account_id = 1",
            "ini option fakesqs_account_id: account_id must be 12 digits; got '1'",
        ),
    ],
)
def test_a_bad_ini_value_is_a_usage_error_at_start(
    pytester: pytest.Pytester, line: str, error: str
) -> None:
    pytester.makeini(f"[pytest]\n{line}\n")
    pytester.makepyfile("def test_never_runs(): pass")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([literal(f"ERROR: {error}")])


def test_every_option_has_an_ini_key_with_help(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines_random([f"  fakesqs_{name} (string):*" for name in Options.names()])


def test_the_marker_is_registered_with_its_full_signature(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(
        [
            "@pytest.mark.fakesqs(*, clock='frozen', start=None, region='us-east-1', "
            "account_id='123456789012', flavor='aws', queues={}, autojump_threshold=0.05, "
            "assert_dlq_empty=False, assert_no_client_errors=False*): turn the fake SQS on*"
        ]
    )


def test_strict_markers_accept_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(clock="frozen")
        def test_strict(fakesqs):
            assert fakesqs.options.clock == "frozen"
        """
    )
    pytester.runpytest("--strict-markers").assert_outcomes(passed=1)


# -- the options class itself (tier 1): the ini parser follows each field's type ---------------


def test_ini_text_is_parsed_by_the_field_type() -> None:
    assert parse_ini("assert_dlq_empty", " Off ") is False
    assert parse_ini("autojump_threshold", "0.5") == 0.5
    assert parse_ini("start", "none") is None
    assert parse_ini("start", "2030-01-01") == "2030-01-01"
    assert parse_ini("queues", '{"a": {}}') == {"a": {}}
    assert parse_ini("clock", "system") == "system"


def test_every_field_has_help_and_a_default() -> None:
    assert list(defaults()) == Options.names()
    assert make_options() == Options()
    with pytest.raises(TypeError, match=r"^unknown fakesqs options 'a', 'b'; valid options: "):
        make_options(b=1, a=2)


@pytest.mark.parametrize(
    ("queues", "error"),
    [
        (
            {"a": {"dlq": "a-dlq"}, "a-dlq": {}},
            'queues[\'a\']: dlq and max_receive_count go together (e.g. "dlq": "a-dlq", "max_receive_count": 5)',
        ),
        (
            {"a": {"dlq": "b", "max_receive_count": 1}, "b": {"dlq": "a", "max_receive_count": 1}},
            "queues: dead-letter queues form a cycle: a -> b -> a",
        ),
        (
            {"a": {"dlq": "b", "max_receive_count": "5"}, "b": {}},
            "queues['a']: max_receive_count must be an int; got '5'",
        ),
        (
            {"a": ["VisibilityTimeout"]},
            "queues must map queue names to attribute dicts; got 'a': ['VisibilityTimeout']",
        ),
    ],
)
def test_declared_queues_are_checked_up_front(queues: dict[str, object], error: str) -> None:
    with pytest.raises((TypeError, ValueError)) as raised:
        make_options(queues=queues)
    assert str(raised.value) == error
