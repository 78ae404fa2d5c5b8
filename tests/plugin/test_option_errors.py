"""Option errors: reported once, without a chained traceback, naming the nearest valid name."""

from __future__ import annotations

import pytest

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.fake.options import Options, make_options

from .conftest import literal

VALID = ", ".join(Options.names())


def test_a_misspelt_marker_option_is_reported_once_with_the_nearest_name(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(asert_dlq_empty=True)
        def test_typo():
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    error = (
        "TypeError: unknown fakesqs option 'asert_dlq_empty'; did you mean assert_dlq_empty? "
        f"valid options: {VALID}"
    )
    result.stdout.fnmatch_lines(
        ["*_ ERROR at setup of test_typo _*", literal(error), "*= short test summary info =*"]
    )
    assert "During handling of the above exception" not in result.stdout.str()
    # Once in the error's report; the short summary's one line may repeat it, as wide as the
    # terminal allows, so it is left out of the count.
    report = result.stdout.str().split("short test summary info")[0]
    assert report.count("unknown fakesqs option") == 1


def test_a_declared_queue_the_api_refuses_is_reported_once(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues={"jobs": {"VisibilityTimeout": "soon"}})
        def test_bad_queue():
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR at setup of test_bad_queue _*",
            "ValueError: cannot create queue 'jobs': Invalid value for the parameter VisibilityTimeout.",
            "*= short test summary info =*",
        ]
    )
    assert "During handling of the above exception" not in result.stdout.str()


def test_fake_sqs_names_the_nearest_option_and_points_at_the_callers_line(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        from pytest_fakesqs import fake_sqs

        def test_typo():
            with fake_sqs(clok="frozen"):
                pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            '>       with fake_sqs(clok="frozen"):',
            "E       TypeError: unknown fakesqs option 'clok'; did you mean clock? valid options: *",
        ]
    )
    assert "options.py" not in result.stdout.str()  # the plugin's frames are hidden


def test_several_unknown_options_each_get_their_guess() -> None:
    with pytest.raises(TypeError) as raised:
        fake_sqs(regoin="eu-west-1", xyzzy=1)

    assert str(raised.value) == (
        f"unknown fakesqs options 'regoin' (did you mean region?), 'xyzzy'; valid options: {VALID}"
    )


def test_an_unknown_option_with_no_near_name_lists_the_valid_ones() -> None:
    with pytest.raises(TypeError) as raised:
        make_options(colour="blue")

    assert str(raised.value) == f"unknown fakesqs option 'colour'; valid options: {VALID}"


def test_a_misspelt_ini_key_is_a_usage_error_naming_the_nearest_key(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nfakesqs_asert_dlq_empty = true\n")
    pytester.makepyfile("def test_never_runs(): pass")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: unknown fakesqs ini key 'fakesqs_asert_dlq_empty'; did you mean "
            "fakesqs_assert_dlq_empty? valid ini keys: fakesqs_account_id, *"
        ]
    )


def test_ini_keys_of_other_plugins_are_left_to_pytest(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nsomething_else = 1\n")
    pytester.makepyfile("def test_runs(): pass")
    result = pytester.runpytest("-W", "ignore::pytest.PytestConfigWarning")
    result.assert_outcomes(passed=1)
