"""Server-mode tests: real HTTP on 127.0.0.1, clients in this process and in subprocesses."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
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


class LineReader:
    """Collects a subprocess's output lines on a thread, so waiting for one is bounded."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)  # end of output

    def next_line(self, timeout: float = SUBPROCESS_TIMEOUT) -> str:
        """The next line, or "" at the end of output or after `timeout` seconds."""
        try:
            return self._lines.get(timeout=timeout) or ""  # real-time: waits on a subprocess
        except queue.Empty:
            return ""

    def rest(self, timeout: float = SUBPROCESS_TIMEOUT) -> str:
        """Every remaining line, once the subprocess has closed its output."""
        self._thread.join(timeout=timeout)  # real-time: the subprocess is exiting
        lines = []
        while not self._lines.empty():
            line = self._lines.get_nowait()
            if line is not None:
                lines.append(line)
        return "".join(lines)
