"""Consumer frameworks that reach the fake over HTTP: PyQS's worker processes, aiosqs.

The fake they talk to is the test's own (`fakesqs_server` serves the `fakesqs` fixture's
FakeSQS), so the test still sends in-process and peeks at queues directly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

from . import pyqs_tasks

REPO = Path(__file__).resolve().parents[2]
DEADLINE = 60.0  # real-time: the most a test waits for another process; never reached


def wait_for(done: Callable[[], object]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, "the other process never got there"
        time.sleep(0.05)  # real-time: another process does the work


@pytest.mark.fakesqs(queues={"jobs": {}, "results": {}})
def test_pyqs_worker_processes_run_tasks_through_aws_endpoint_url_sqs(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    for a, b in ((1, 2), (40, 2)):
        pyqs_tasks.add.delay(a, b)  # sent in-process, by PyQS's own decorator
    env = {**os.environ, **fakesqs_server.env()}  # AWS_ENDPOINT_URL_SQS: the worker's only hint
    worker = subprocess.Popen(
        [sys.executable, "-c", "from pyqs.main import main; main()", "jobs", "-c", "2"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for(lambda: len(fakesqs.queue("results").bodies()) == 2 or worker.poll() is not None)
    finally:
        worker.send_signal(signal.SIGTERM)  # PyQS shuts its processes down gracefully
        output, _ = worker.communicate(timeout=DEADLINE)

    sums = sorted(json.loads(body)["sum"] for body in fakesqs.queue("results").bodies())
    assert sums == [3, 42], output
    wait_for(lambda: fakesqs.queue("jobs").backlog().count == 0)  # each deleted once done
    assert fakesqs_server.requests_served > 0
