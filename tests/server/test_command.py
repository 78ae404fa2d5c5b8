"""The standalone command, run as a new user would: start it, use it, stop it with a signal."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs.server.cli import main

from .conftest import PYTHON, SUBPROCESS_TIMEOUT, LineReader, run, subprocess_env

SCRIPTS = Path(PYTHON).parent


class Served:
    def __init__(self, process: subprocess.Popen[str], output: LineReader, banner: str) -> None:
        self.process = process
        self.output = output
        self.banner = banner
        self.endpoint_url = banner.split(" at ", 1)[1].split(" ", 1)[0]

    def client(self) -> object:
        return boto3.client(
            "sqs",
            endpoint_url=self.endpoint_url,
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        self.process.send_signal(signum)
        returncode = self.process.wait(timeout=SUBPROCESS_TIMEOUT)
        return returncode, self.output.rest()


@pytest.fixture
def start(tmp_path: Path) -> Iterator[object]:
    started: list[subprocess.Popen[str]] = []

    def start(*args: str, command: tuple[str, ...] = (PYTHON, "-m", "pytest_fakesqs")) -> Served:
        process = subprocess.Popen(
            [*command, "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=subprocess_env(),
            cwd=tmp_path,
        )
        started.append(process)
        assert process.stdout is not None
        output = LineReader(process.stdout)
        banner = output.next_line()
        assert banner.startswith("fakesqs: serving SQS at http://127.0.0.1:"), banner
        return Served(process, output, banner)

    yield start
    for process in started:
        if process.poll() is None:  # only if a test failed before stopping its own server
            process.kill()
            process.wait(timeout=SUBPROCESS_TIMEOUT)
        if process.stdout is not None:
            process.stdout.close()


def test_serve_answers_boto3_and_exits_cleanly_on_sigterm(start: object, tmp_path: Path) -> None:
    queues = tmp_path / "queues.json"
    queues.write_text(
        json.dumps(
            {
                "orders": {"VisibilityTimeout": "45", "dlq": "orders-dlq", "max_receive_count": 5},
                "orders-dlq": {},
            }
        )
    )
    served = start("--queues", str(queues), "--log-requests")  # type: ignore[operator]
    assert served.banner.endswith(
        "(region us-east-1, account 123456789012, flavor aws, clock real); Ctrl+C stops\n"
    )
    sqs = served.client()
    url = sqs.get_queue_url(QueueName="orders")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="hello")
    message = sqs.receive_message(QueueUrl=url)["Messages"][0]
    attributes = sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["VisibilityTimeout", "RedrivePolicy"]
    )

    returncode, output = served.stop(signal.SIGTERM)

    assert url == f"{served.endpoint_url}/123456789012/orders"
    assert message["Body"] == "hello"
    assert attributes["Attributes"]["VisibilityTimeout"] == "45"
    assert json.loads(attributes["Attributes"]["RedrivePolicy"]) == {
        "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:orders-dlq",
        "maxReceiveCount": 5,
    }
    assert returncode == 0
    lines = output.splitlines()
    assert lines[:2] == [
        f"fakesqs: queue orders: {served.endpoint_url}/123456789012/orders",
        f"fakesqs: queue orders-dlq: {served.endpoint_url}/123456789012/orders-dlq",
    ]
    actions = [line.split()[4] for line in lines[2:-1]]
    assert actions == ["GetQueueUrl", "SendMessage", "ReceiveMessage", "GetQueueAttributes"]
    assert lines[-1] == "fakesqs: stopped after 4 requests"


def test_the_console_script_serves_and_stops_on_ctrl_c(start: object) -> None:
    served = start(  # type: ignore[operator]
        "--region",
        "eu-west-1",
        "--account-id",
        "000000000001",
        "--clock",
        "frozen",
        command=(str(SCRIPTS / "fakesqs"),),
    )
    sqs = served.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    # The frozen clock: an empty long poll returns at once instead of waiting 20 s.
    empty = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)

    returncode, output = served.stop(signal.SIGINT)

    assert "(region eu-west-1, account 000000000001, flavor aws, clock frozen)" in served.banner
    assert url == f"{served.endpoint_url}/000000000001/jobs"
    assert "Messages" not in empty
    assert (returncode, output) == (0, "fakesqs: stopped after 2 requests\n")


def test_serve_verifies_signatures_when_asked(start: object) -> None:
    served = start("--verify-signatures", "--credential", "AKIDTEAM:team-secret")  # type: ignore[operator]
    team = boto3.client(
        "sqs",
        endpoint_url=served.endpoint_url,
        region_name="us-east-1",
        aws_access_key_id="AKIDTEAM",
        aws_secret_access_key="team-secret",
    )
    stranger = served.client()

    team.create_queue(QueueName="jobs")
    with pytest.raises(ClientError) as raised:
        stranger.list_queues()
    returncode, _ = served.stop()

    assert raised.value.response["Error"]["Code"] == "InvalidClientTokenId"
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert returncode == 0


def test_serve_injects_faults_when_asked(start: object) -> None:
    served = start("--duplicate-delivery", "1", "--seed", "7")  # type: ignore[operator]
    notice = served.output.next_line().rstrip("\n")
    sqs = served.client()
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="once")
    first = sqs.receive_message(QueueUrl=url)["Messages"][0]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"])
    again = sqs.receive_message(QueueUrl=url)["Messages"][0]
    returncode, _ = served.stop()

    assert (again["MessageId"], again["Body"]) == (first["MessageId"], "once")
    assert returncode == 0
    assert notice == (
        "fakesqs: injecting faults (duplicate_delivery=1.0, standard_order=fifo, "
        "empty_receives=0.0); seed 7"
    )


def test_bad_arguments_are_refused_with_a_sentence(tmp_path: Path) -> None:
    broken = tmp_path / "queues.json"
    broken.write_text("{not json")

    result = run(
        [PYTHON, "-m", "pytest_fakesqs", "serve", "--queues", str(broken)], subprocess_env()
    )

    assert result.returncode == 2
    assert f"error: {broken}: not valid JSON" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--account-id", "12"], "account_id must be 12 digits; got '12'"),
        (["serve", "--credential", "nosecret"], "--credential must be ACCESS_KEY:SECRET_KEY"),
        (["serve", "--verify-signatures"], "verify_signatures needs credentials="),
        (["serve", "--flavor", "gcp"], "argument --flavor: invalid choice: 'gcp'"),
        (
            ["serve", "--duplicate-delivery", "2"],
            "duplicate_delivery must be a probability between 0 and 1; got 2.0",
        ),
        (
            ["serve", "--standard-order", "random"],
            "argument --standard-order: invalid choice: 'random'",
        ),
        (
            ["serve", "--port", "99999"],
            "argument --port: port must be 0-65535 (0 picks a free one); got 99999",
        ),
        (["serve", "--port", "-1"], "argument --port: port must be 0-65535"),
        (["serve", "--port", "http"], "argument --port: not a port number: 'http'"),
        (["serve", "--host", "bad..host", "--port", "0"], "cannot listen on bad..host:0"),
        (["serve", "--max-connections", "many"], "argument --max-connections: invalid int"),
        (["serve", "--idle-timeout", "soon"], "argument --idle-timeout: invalid float"),
    ],
)
def test_invalid_options_exit_with_usage_errors_of_serve(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)

    assert exited.value.code == 2
    err = capsys.readouterr().err
    # The usage line and the error: not serve's every option before the line that matters.
    usage, error = err.splitlines()
    assert usage == "usage: fakesqs serve [options]  (`fakesqs serve --help` lists them)"
    assert error.startswith(f"fakesqs serve: error: {message}"), err


def test_one_request_is_counted_in_the_singular(start: object) -> None:
    served = start()  # type: ignore[operator]
    served.client().list_queues()  # type: ignore[attr-defined]

    _returncode, output = served.stop()

    assert output == "fakesqs: stopped after 1 request\n"


def test_docs_lists_the_pages_with_their_titles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs"]) == 0
    listing = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in listing]
    assert names == sorted(path.stem for path in (Path(__file__).parents[2] / "docs").glob("*.md"))
    assert any(
        line.startswith("dead-letters") and line.endswith("Dead letters") for line in listing
    )


def test_docs_prints_the_page_an_error_message_cites(capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_fakesqs.fake.text import ANCHORS, see

    for topic, page in ANCHORS.items():
        command = see(topic).split("`")[1].split()  # `fakesqs docs <page>`
        assert command[:2] == ["fakesqs", "docs"]
        assert main(command[1:]) == 0
        shown = capsys.readouterr().out
        assert shown == (Path(__file__).parents[2] / "docs" / page.partition("#")[0]).read_text()


def test_docs_refuses_an_unknown_page_and_suggests_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["docs", "dead-leters"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "usage: fakesqs docs [-h] [page]"
    assert err.splitlines()[-1] == (
        "fakesqs docs: error: no page 'dead-leters'; did you mean dead-letters? "
        "(`fakesqs docs` lists them)"
    )


def test_a_port_in_use_is_one_line_of_usage_and_the_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as exited:
            main(["serve", "--port", str(port)])

    assert exited.value.code == 2
    usage, error = capsys.readouterr().err.splitlines()
    assert usage.startswith("usage: fakesqs serve [options]")
    assert (
        error == f"fakesqs serve: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    )


_LOW_SOFT_LIMIT = """
import resource, sys
_soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
from pytest_fakesqs.server.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc (Linux)")
def test_serve_raises_its_open_files_limit_to_the_hard_limit(start: object) -> None:
    served = start(command=(PYTHON, "-c", _LOW_SOFT_LIMIT))  # type: ignore[operator]
    limits = Path(f"/proc/{served.process.pid}/limits").read_text()  # type: ignore[attr-defined]
    soft, hard = next(
        line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")
    )

    assert soft == hard
    served.stop()  # type: ignore[attr-defined]
