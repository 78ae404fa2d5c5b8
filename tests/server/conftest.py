"""Server-mode tests: real HTTP on 127.0.0.1, clients in this process and in subprocesses."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from typing import IO

from pytest_fakesqs import FakeSQSServer

PYTHON = sys.executable
SUBPROCESS_TIMEOUT = 120  # seconds; a bound, never an expectation


def subprocess_env(server: FakeSQSServer | None = None, **extra: str) -> dict[str, str]:
    """This environment minus anything pointing at real AWS, plus the server's AWS_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["AWS_CONFIG_FILE"] = os.devnull
    env["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull
    if server is not None:
        env.update(server.env())
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT, check=False
    )


def read_line(stream: IO[str], timeout: float = SUBPROCESS_TIMEOUT) -> str:
    """The next line a subprocess prints, or "" if none comes within `timeout` seconds."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if selector.select(timeout=deadline - time.monotonic()):  # real-time: a subprocess
                return stream.readline()
        return ""
    finally:
        selector.close()
