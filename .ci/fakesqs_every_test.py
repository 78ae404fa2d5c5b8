"""A pytest plugin for third-party suites written against a real SQS endpoint: every test gets
the `fakesqs` fixture, so the fake serves it in-process (`-p fakesqs_every_test`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_fakesqs import FakeSQS


@pytest.fixture(autouse=True)
def _served_by_the_fake(fakesqs: FakeSQS) -> Iterator[FakeSQS]:
    yield fakesqs
