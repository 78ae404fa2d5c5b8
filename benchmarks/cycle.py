"""The seed stress cycle, timed for the botocore floor, this project and moto's `mock_aws`.

One sample: `ROUNDS` times, send `messages` in batches of 10, then receive 10 at a time and
delete each receive in one batch until a receive comes back empty.

An active fake answers every SQS client of the process (the innermost one alone), so each fake
subject is active only while its own samples run: measured beside another fake, it still
answers its own client.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from typing import Any, NamedTuple

import boto3
import checkout  # noqa: F401 - this checkout's package, not another copy
import floor

ROUNDS = 3
BODY = "x" * 100
BATCH = floor.BATCH


class Subject(NamedTuple):
    """What a subject's factory yields: a client, its queue's URL, and what must be on while
    (and only while) its samples run. A factory may yield the first two alone."""

    client: Any
    queue_url: str
    active: Callable[[], AbstractContextManager[Any]] = nullcontext


def make_client() -> Any:
    return boto3.client(
        "sqs",
        region_name="us-east-1",
        aws_access_key_id="AKIABENCHMARK",
        aws_secret_access_key="benchmark-secret",
    )


def stress_cycle(client: Any, queue_url: str, messages: int) -> int:
    """One round; returns how many messages were received (must equal `messages`)."""
    send_entries = [{"Id": str(i), "MessageBody": BODY} for i in range(BATCH)]
    for _ in range(0, messages, BATCH):
        client.send_message_batch(QueueUrl=queue_url, Entries=send_entries)
    received = 0
    while True:
        got = client.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=BATCH).get(
            "Messages", []
        )
        if not got:
            return received
        received += len(got)
        client.delete_message_batch(
            QueueUrl=queue_url,
            Entries=[
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(got)
            ],
        )


def time_sample(client: Any, queue_url: str, messages: int) -> float:
    """Seconds for one sample (ROUNDS rounds); checks every message came back."""
    start = time.process_time()
    for _ in range(ROUNDS):
        received = stress_cycle(client, queue_url, messages)
        if received != messages:
            raise RuntimeError(f"expected {messages} messages back, got {received}")
    return time.process_time() - start


@contextmanager
def _floor_client() -> Iterator[tuple[Any, str]]:
    client = make_client()
    floor.install(client, BODY)
    yield client, client.create_queue(QueueName="bench")["QueueUrl"]


@contextmanager
def _bare_client(*, keep_calls: bool) -> Iterator[tuple[Any, str]]:
    import bare

    client = make_client()
    bare.install(client, keep_calls=keep_calls)
    yield client, client.create_queue(QueueName="bench")["QueueUrl"]


@contextmanager
def fake_subject(
    fake_sqs: Callable[..., AbstractContextManager[Any]], **options: Any
) -> Iterator[Subject]:
    """A fake made by `fake_sqs(**options)` (this checkout's, or an earlier revision's in
    versus.py) with its client and queue, on only while its samples run."""
    with fake_sqs(**options) as fake:
        client = make_client()
        queue_url = client.create_queue(QueueName="bench")["QueueUrl"]
        fake.stop()  # on again for each of its samples: see the module's docstring

        @contextmanager
        def started() -> Iterator[Any]:
            fake.start()
            try:
                yield fake
            finally:
                fake.stop()

        yield Subject(client, queue_url, started)


def _fake_client(history_limit: int | None = None) -> AbstractContextManager[Subject]:
    from pytest_fakesqs import fake_sqs

    return fake_subject(fake_sqs, history_limit=history_limit)


@contextmanager
def _moto_client() -> Iterator[tuple[Any, str]]:
    from moto import mock_aws

    with mock_aws():
        client = make_client()
        yield client, client.create_queue(QueueName="bench")["QueueUrl"]


Factory = Callable[[], AbstractContextManager[Subject | tuple[Any, str]]]

SUBJECTS: dict[str, Factory] = {
    "botocore floor": _floor_client,
    "pytest-fakesqs": _fake_client,
    # What keeping every call and story costs a long loop: the same, remembering the last 1,000.
    "pytest-fakesqs, history_limit=1000": lambda: _fake_client(history_limit=1000),
    "moto mock_aws": _moto_client,
    # The least any fake must do (benchmarks/bare.py), alone and keeping every call's bytes.
    "bare fake": lambda: _bare_client(keep_calls=False),
    "bare fake + call log": lambda: _bare_client(keep_calls=True),
}


def measure(
    subjects: list[str],
    messages: int,
    samples: int,
    factories: Mapping[str, Factory] = SUBJECTS,
) -> dict[str, float]:
    """Median seconds per sample for each subject (made by `factories`, SUBJECTS unless a
    benchmark brings its own); samples alternate between subjects so a busy machine slows
    them alike."""
    with ExitStack() as stack:
        made = {name: Subject(*stack.enter_context(factories[name]())) for name in subjects}
        for subject in made.values():
            with subject.active():
                stress_cycle(subject.client, subject.queue_url, min(messages, 100))  # warm caches
        durations: dict[str, list[float]] = {name: [] for name in subjects}
        for _ in range(samples):
            for name, subject in made.items():
                with subject.active():
                    durations[name].append(time_sample(subject.client, subject.queue_url, messages))
    return {name: statistics.median(values) for name, values in durations.items()}
