"""The boto3 clients of tests/api, for tests of this package's verbs through real clients."""

from __future__ import annotations

from ..api.conftest import fifo_url, queue_url, sqs

__all__ = ["fifo_url", "queue_url", "sqs"]
