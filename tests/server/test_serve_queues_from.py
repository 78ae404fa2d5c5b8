"""`fakesqs serve --queues-from PATH [--queues-from-var NAME=VALUE]`: the served fake's queues."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_fakesqs.server.cli import build_parser, make_fake

TF = """
variable "env" {}

resource "aws_sqs_queue" "jobs" {
  name                       = "jobs-${var.env}"
  visibility_timeout_seconds = 45
}
"""


def serve_args(*argv: str) -> list[str]:
    return ["serve", "--port", "0", *argv]


def test_serve_declares_the_files_queues(tmp_path: Path) -> None:
    (tmp_path / "queues.tf").write_text(TF)
    parser = build_parser()
    args = parser.parse_args(
        serve_args("--queues-from", str(tmp_path / "queues.tf"), "--queues-from-var", "env=ci")
    )

    fake = make_fake(args, parser)
    try:
        assert fake.queue("jobs-ci").attributes["VisibilityTimeout"] == "45"
    finally:
        fake.stop()


def test_serve_refuses_what_it_cannot_resolve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "queues.tf").write_text(TF)
    monkeypatch.chdir(tmp_path)
    parser = build_parser()

    with pytest.raises(SystemExit):
        make_fake(parser.parse_args(serve_args("--queues-from", "queues.tf")), parser)
    assert capsys.readouterr().err.splitlines()[-1] == (
        "fakesqs: error: queues.tf:5: cannot resolve var.env: the variable has no default; "
        "pass queues_from_vars={'env': ...}"
    )


def test_a_var_must_be_name_equals_value(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()

    with pytest.raises(SystemExit):
        make_fake(parser.parse_args(serve_args("--queues-from-var", "env")), parser)
    assert capsys.readouterr().err.splitlines()[-1] == (
        "fakesqs: error: --queues-from-var must be NAME=VALUE; got 'env'"
    )
