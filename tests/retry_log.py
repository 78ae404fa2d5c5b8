"""The back-offs botocore's and aiobotocore's own retries log, read back from a test's log."""

from __future__ import annotations

import re

import pytest

# What their _needs_retry logs before a back-off (botocore/endpoint.py, aiobotocore/endpoint.py).
RETRY_LINE = re.compile(r"Response received to retry, sleeping for (\S+) seconds")


def logged_back_offs(caplog: pytest.LogCaptureFixture, logger: str) -> list[float]:
    """The seconds of each retry line `logger` logged, in order."""
    return [
        float(match[1])
        for record in caplog.records
        if record.name == logger
        if (match := RETRY_LINE.fullmatch(record.getMessage()))
    ]
