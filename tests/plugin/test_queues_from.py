"""queues_from through pytest: the marker, ini (paths from the ini file's folder), errors."""

from __future__ import annotations

import textwrap

import pytest

QUEUES_TF = """
variable "env" {
  default = "dev"
}

resource "aws_sqs_queue" "dlq" {
  name = "jobs-${var.env}-dlq"
}

resource "aws_sqs_queue" "jobs" {
  name                       = "jobs-${var.env}"
  visibility_timeout_seconds = 30
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}
"""

CHECKS = """
import json

def test_the_files_queues_are_there(fakesqs):
    jobs = fakesqs.queue("jobs-{env}").attributes
    assert jobs["VisibilityTimeout"] == "30"
    assert json.loads(jobs["RedrivePolicy"]) == {{
        "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:jobs-{env}-dlq",
        "maxReceiveCount": 5,
    }}

def test_each_test_gets_them_fresh(fakesqs):
    assert len(fakesqs.queue("jobs-{env}")) == 0
    fakesqs.create_queue("extra")
"""


def write(pytester: pytest.Pytester, path: str, text: str) -> None:
    # By hand, so the folders exist whichever pytest version (7.4 in make test-oldest) runs this.
    target = pytester.path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(textwrap.dedent(text))


def test_the_marker_reads_paths_from_the_rootdir(pytester: pytest.Pytester) -> None:
    write(pytester, "infra/queues.tf", QUEUES_TF)
    pytester.makeini("[pytest]\n")
    write(
        pytester,
        "tests/test_jobs.py",
        "import pytest\n"
        'pytestmark = pytest.mark.fakesqs(queues_from="infra/queues.tf", '
        'queues_from_vars={"env": "ci"})\n' + CHECKS.format(env="ci"),
    )

    pytester.runpytest("tests").assert_outcomes(passed=2)


def test_ini_paths_are_relative_to_the_ini_file(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(pytester, "infra/queues.tf", QUEUES_TF)
    write(pytester, "infra/extra.yaml", "Resources:\n  Audit:\n    Type: AWS::SQS::Queue\n")
    pytester.makeini(
        """
        [pytest]
        fakesqs_queues_from =
            infra/queues.tf
            infra/extra.yaml
        fakesqs_queues_from_vars = {"env": "staging"}
        """
    )
    write(pytester, "tests/test_jobs.py", CHECKS.format(env="staging"))
    monkeypatch.chdir(pytester.path / "tests")  # run from a subfolder: the ini still anchors

    result = pytester.runpytest()

    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["fakesqs: *queues_from=*infra/queues.tf*(ini: queues_from, *"])


def test_an_unresolvable_reference_errors_the_test_with_file_and_line(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".tf",
        queues='resource "aws_sqs_queue" "jobs" {\n  name = "jobs-${module.naming.suffix}"\n}\n',
    )
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues_from="queues.tf")
        def test_jobs(fakesqs):
            pass
        """
    )

    result = pytester.runpytest()

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "ValueError: queues.tf:2: cannot resolve module.naming.suffix: the fake does not "
            "read module outputs; declare the queue in the files queues_from reads, or with "
            "queues="
        ]
    )


def test_a_wrong_type_is_a_short_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues_from=42)
        def test_jobs(fakesqs):
            pass
        """
    )

    result = pytester.runpytest()

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["TypeError: queues_from must be str or PathLike or list or None; got 42"]
    )


def test_without_the_extra_queues_from_says_what_to_install(pytester: pytest.Pytester) -> None:
    pytester.makefile(".tf", queues='resource "aws_sqs_queue" "jobs" {}\n')
    pytester.makeconftest("import sys\nsys.modules['hcl2'] = None  # as if not installed\n")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakesqs(queues_from="queues.tf")
        def test_jobs(fakesqs):
            pass
        """
    )

    result = pytester.runpytest_subprocess("-p", "no:randomly")

    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "ValueError: queues_from needs the iac extra: "
            "pip install 'pytest-fakesqs[iac]' (hcl2 is missing)"
        ]
    )


def test_a_run_without_queues_from_never_imports_the_readers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import sys

        def test_plain(fakesqs):
            fakesqs.create_queue("jobs")
            readers = ("hcl2", "lark", "pytest_fakesqs.iac.terraform",
                       "pytest_fakesqs.iac.cloudformation", "pytest_fakesqs.iac.cfn_yaml")
            assert [name for name in readers if name in sys.modules] == []
        """
    )

    pytester.runpytest_subprocess("-p", "no:randomly").assert_outcomes(passed=1)
