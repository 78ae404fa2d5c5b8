"""docs/docker-compose.md's examples work: its serve command, queues file and health check."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from pytest_fakesqs import FakeSQS, FakeSQSServer
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.server.cli import build_parser, load_queues, make_fake

from .conftest import PYTHON, SUBPROCESS_TIMEOUT

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "docker-compose.md").read_text()


def _block(language: str, index: int = 0) -> str:
    return re.findall(rf"```{language}\n(.*?)```", PAGE, re.S)[index]


def test_the_service_command_is_a_valid_serve_command(tmp_path: Path) -> None:
    compose = _block("yaml")
    command = re.search(r'sh -c "pip install [^&]*&&\s*(.*?)"', compose, re.S)
    assert command is not None
    argv = shlex.split(command.group(1))
    assert argv[:3] == ["python", "-m", "pytest_fakesqs"]
    queues = tmp_path / "queues.json"
    queues.write_text(_block("json", 0))
    argv = [str(queues) if arg == "/etc/fakesqs/queues.json" else arg for arg in argv[3:]]
    parser = build_parser()

    args = parser.parse_args(argv)
    fake = make_fake(args, parser)
    try:
        assert (args.host, args.port, args.account_id) == ("0.0.0.0", 9324, "000000000000")
        assert sorted(q.name for q in core_of(fake).broker.queues()) == [
            "events.fifo",
            "orders",
            "orders-dlq",
        ]
    finally:
        fake.stop()
    assert set(load_queues(str(queues))) == {"orders", "orders-dlq", "events.fifo"}


def test_the_health_check_command_passes_against_a_server(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    compose = _block("yaml")
    test = re.search(r"test: (\[.*\])", compose)
    assert test is not None
    check = json.loads(test.group(1))
    assert check[:3] == ["CMD", "python", "-c"]
    code = check[3].replace("127.0.0.1:9324", f"127.0.0.1:{fakesqs_server.port}")

    result = subprocess.run(
        [PYTHON, "-c", code], capture_output=True, timeout=SUBPROCESS_TIMEOUT, check=False
    )

    assert result.returncode == 0, result.stderr


def test_the_health_document_has_the_fields_the_page_shows(fakesqs_server: FakeSQSServer) -> None:
    import urllib.request

    shown = json.loads(_block("json", 1))
    with urllib.request.urlopen(f"{fakesqs_server.endpoint_url}/_fakesqs/health") as response:
        served = json.loads(response.read())

    assert set(served) == set(shown)
