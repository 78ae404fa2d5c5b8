"""`fakesqs serve --enforce-policies --account KEY:ACCOUNT`, run as a user would."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import boto3
import pytest
from botocore.exceptions import ClientError

from .conftest import PYTHON, SUBPROCESS_TIMEOUT, LineReader, subprocess_env


def test_serve_enforces_policies_for_mapped_accounts(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "pytest_fakesqs",
            "serve",
            "--port",
            "0",
            "--enforce-policies",
            "--account",
            "partner-key:222222222222",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=subprocess_env(),
        cwd=tmp_path,
    )
    assert process.stdout is not None
    output = LineReader(process.stdout)
    try:
        banner = output.next_line()
        assert banner.startswith("fakesqs: serving SQS at http://127.0.0.1:"), banner
        assert output.next_line() == "fakesqs: enforcing queue policies (docs/policies.md)\n"
        endpoint = banner.split(" at ", 1)[1].split(" ", 1)[0]

        def client(key: str) -> object:
            return boto3.client(
                "sqs",
                endpoint_url=endpoint,
                region_name="us-east-1",
                aws_access_key_id=key,
                aws_secret_access_key="s",
            )

        owner, partner = client("111111111111"), client("partner-key")
        url = owner.create_queue(QueueName="orders")["QueueUrl"]  # type: ignore[attr-defined]
        assert url == f"{endpoint}/111111111111/orders"
        with pytest.raises(ClientError) as caught:
            partner.send_message(QueueUrl=url, MessageBody="x")  # type: ignore[attr-defined]
        assert caught.value.response["Error"]["Message"].startswith(
            "User: arn:aws:iam::222222222222:user/partner-key is not authorized to perform: "
            "sqs:sendmessage on resource: arn:aws:sqs:us-east-1:111111111111:orders"
        )
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=SUBPROCESS_TIMEOUT)
        output.rest()
        process.stdout.close()
