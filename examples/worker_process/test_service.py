"""Testing a service that runs in another process, against the test's own fake over HTTP.

`fakesqs_server` serves the same FakeSQS as `fakesqs`: the subprocess talks HTTP to it, the
test inspects queues and dead letters directly, and the frozen clock still means no waiting
(each empty long poll of the service jumps time to the next visibility timeout).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_fakesqs import FakeSQS, FakeSQSServer

REPO = Path(__file__).resolve().parents[2]
# About the fake's own HTTP server (a subprocess against `fakesqs_server`): not a contract test.
pytestmark = [
    pytest.mark.fakesqs_only,
    pytest.mark.fakesqs(
        queues={
            "jobs": {"VisibilityTimeout": "10", "dlq": "jobs-dlq", "max_receive_count": 3},
            "jobs-dlq": {},
            "results": {},
        }
    ),
]


def run_service(server: FakeSQSServer) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **server.env(), "JOBS_QUEUE": "jobs", "RESULTS_QUEUE": "results"}
    return subprocess.run(
        [sys.executable, "-m", "examples.worker_process.service"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_service_answers_jobs_and_dead_letters_poison(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    sqs = fakesqs_server.client()
    jobs = sqs.get_queue_url(QueueName="jobs")["QueueUrl"]
    for body in ('{"a": 1, "b": 2}', "not json", '{"a": 40, "b": 2}'):
        sqs.send_message(QueueUrl=jobs, MessageBody=body)

    result = run_service(fakesqs_server)

    assert result.returncode == 0, result.stderr
    assert fakesqs.queue("results").bodies() == ['{"sum": 3}', '{"sum": 42}']
    assert fakesqs.queue("jobs").backlog().count == 0
    fakesqs.assert_dead_lettered("jobs-dlq", body="not json", count=1)
