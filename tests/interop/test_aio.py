"""aiobotocore / aioboto3 clients served in-process, long polls included, without blocking the loop.

Every scenario runs with each async library and HTTP backend aiobotocore offers: asyncio with
aiohttp (its default) and with httpx, and trio with httpx (the backend that runs under trio).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.fake.facade import core_of
from pytest_fakesqs.protocol.base import DecodedRequest

from ..retry_log import logged_back_offs

aioboto3 = pytest.importorskip("aioboto3")
pytest.importorskip("aiobotocore")
anyio = pytest.importorskip("anyio")

Scenario = Callable[[Any], Awaitable[Any]]
Runner = Callable[[Scenario], Any]
# (async library, aiobotocore HTTP backend); trio needs httpx, aiohttp is asyncio's alone.
FLAVOURS = [("asyncio", "aiohttp"), ("asyncio", "httpx"), ("trio", "httpx")]


def client_config(backend: str) -> Any:
    if backend == "aiohttp":
        return None
    config = pytest.importorskip("aiobotocore.config")
    httpx_session = pytest.importorskip("aiobotocore.httpxsession")  # aiobotocore >= 2.23
    return config.AioConfig(http_session_cls=httpx_session.HttpxSession)


@pytest.fixture(params=FLAVOURS, ids=[f"{library}-{backend}" for library, backend in FLAVOURS])
def run(request: pytest.FixtureRequest) -> Runner:
    """`run(scenario)` runs `scenario(sqs)` with an aioboto3 SQS client on a fresh event loop."""
    library, backend = request.param
    if library == "trio":
        pytest.importorskip("trio")
    config = client_config(backend)

    def runner(scenario: Scenario) -> Any:
        async def main() -> Any:
            session = aioboto3.Session(
                aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake", region_name="us-east-1"
            )
            async with session.client("sqs", config=config) as sqs:
                return await scenario(sqs)

        return anyio.run(main, backend=library)

    return runner


async def gathered(*calls: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Run the calls concurrently in a task group; their results in order."""
    results: list[Any] = [None] * len(calls)

    async def one(index: int) -> None:
        results[index] = await calls[index]()

    async with anyio.create_task_group() as group:
        for index in range(len(calls)):
            group.start_soon(one, index)
    return results


def test_send_receive_delete(fakesqs: FakeSQS, run: Runner) -> None:
    async def scenario(sqs: Any) -> Any:
        url = (await sqs.create_queue(QueueName="jobs"))["QueueUrl"]
        sent = await sqs.send_message(QueueUrl=url, MessageBody="hello")
        received = await sqs.receive_message(QueueUrl=url)
        message = received["Messages"][0]
        await sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        return url, sent, message

    url, sent, message = run(scenario)

    assert url == "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
    assert message["MessageId"] == sent["MessageId"]
    assert message["Body"] == "hello"
    assert fakesqs.queue("jobs").bodies() == []


@pytest.mark.fakesqs(autojump_threshold=3600)  # the test's own loop: no wait, whatever it is
@pytest.mark.timeout(30)
def test_an_empty_long_poll_jumps_the_frozen_clock(fakesqs: FakeSQS, run: Runner) -> None:
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()

    async def scenario(sqs: Any) -> Any:
        return await sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)

    answer = run(scenario)

    assert "Messages" not in answer
    assert (fakesqs.now() - before).total_seconds() == 20


@pytest.mark.fakesqs(clock="autojump", autojump_threshold=5)
def test_a_long_poll_leaves_the_event_loop_free_for_a_producer(
    fakesqs: FakeSQS, run: Runner
) -> None:
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()
    poll_started = threading.Event()

    def note_receive(request: DecodedRequest, _ctx: Any, _wire: Any) -> None:
        if request.action == "ReceiveMessage":
            poll_started.set()

    core_of(fakesqs).handler.interceptors.append(note_receive)

    async def scenario(sqs: Any) -> Any:
        async def produce() -> None:
            # The producer sends only once the poll is inside the fake, waiting.
            assert await anyio.to_thread.run_sync(poll_started.wait, 5)
            await sqs.send_message(QueueUrl=url, MessageBody="late")

        answer, _ = await gathered(
            lambda: sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20), produce
        )
        return answer

    answer = run(scenario)

    # The producer ran while the poll waited: the poll returned the message, no time jumped.
    assert [m["Body"] for m in answer["Messages"]] == ["late"]
    assert fakesqs.now() == before


def test_errors_raise_the_modeled_exception_classes(fakesqs: FakeSQS, run: Runner) -> None:
    async def scenario(sqs: Any) -> Any:
        with pytest.raises(sqs.exceptions.QueueDoesNotExist) as missing:
            await sqs.get_queue_url(QueueName="nope")
        url = (await sqs.create_queue(QueueName="jobs"))["QueueUrl"]
        with pytest.raises(sqs.exceptions.ReceiptHandleIsInvalid) as invalid:
            await sqs.delete_message(QueueUrl=url, ReceiptHandle="garbage")
        return missing.value, invalid.value

    missing, invalid = run(scenario)

    assert missing.response["Error"]["Code"] == "AWS.SimpleQueueService.NonExistentQueue"
    assert missing.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert invalid.response["Error"]["Code"] == "ReceiptHandleIsInvalid"


def test_other_services_are_left_alone(fakesqs: FakeSQS) -> None:
    from botocore.exceptions import EndpointConnectionError

    # Nothing listens on 127.0.0.1:9: an S3 call must go there (and fail to connect), while an
    # SQS call to the same endpoint is the fake's.
    async def main() -> Any:
        session = aioboto3.Session(
            aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake", region_name="us-east-1"
        )
        endpoint = "http://127.0.0.1:9"
        async with session.client("sqs", endpoint_url=endpoint) as sqs:
            listed = await sqs.list_queues()
        async with session.client("s3", endpoint_url=endpoint, config=no_retries()) as s3:
            with pytest.raises(EndpointConnectionError):
                await s3.list_buckets()
        return listed

    listed = anyio.run(main)

    assert listed["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert [c.action for c in fakesqs.calls()] == ["ListQueues"]


def no_retries() -> Any:
    from aiobotocore.config import AioConfig

    return AioConfig(retries={"total_max_attempts": 1})


def test_throttling_retries_move_the_virtual_clock_instead_of_sleeping(
    fakesqs: FakeSQS, run: Runner, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="aiobotocore.endpoint")
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()
    fakesqs.fail_next("SendMessage", "RequestThrottled", times=2)

    async def scenario(sqs: Any) -> Any:
        return await sqs.send_message(QueueUrl=url, MessageBody="eventually")

    sent = run(scenario)

    assert sent["ResponseMetadata"]["RetryAttempts"] == 2
    assert [c.error_code for c in fakesqs.calls("SendMessage")] == ["RequestThrottled"] * 2 + [None]
    assert fakesqs.queue("jobs").bodies() == ["eventually"]
    assert fakesqs.now() > before  # the back-off went to the virtual clock, not asyncio.sleep
    # ...by what aiobotocore's debug log says it slept, logged as its own retry logs it.
    logged = logged_back_offs(caplog, "aiobotocore.endpoint")
    assert len(logged) == 2
    moved = (fakesqs.now() - before).total_seconds()
    assert moved == pytest.approx(sum(logged), abs=1e-5)  # now() is to the microsecond


@pytest.mark.fakesqs(clock="autojump", autojump_threshold=5)
def test_many_concurrent_long_polls_all_wait_and_all_get_a_message(
    fakesqs: FakeSQS, run: Runner
) -> None:
    pollers = 40  # more than any default thread pool holds on a small machine
    url = fakesqs.create_queue("jobs")
    before = fakesqs.now()
    entered = threading.Semaphore(0)

    def note_receive(request: DecodedRequest, _ctx: Any, _wire: Any) -> None:
        if request.action == "ReceiveMessage":
            entered.release()

    core_of(fakesqs).handler.interceptors.append(note_receive)

    def all_polls_entered() -> bool:
        return all(entered.acquire(timeout=5) for _ in range(pollers))

    async def scenario(sqs: Any) -> Any:
        async def produce() -> None:
            assert await anyio.to_thread.run_sync(all_polls_entered)
            for n in range(pollers):
                await sqs.send_message(QueueUrl=url, MessageBody=str(n))

        def poll() -> Awaitable[Any]:
            return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)

        *answers, _ = await gathered(*[poll] * pollers, produce)
        return answers

    answers = run(scenario)

    bodies = sorted(int(m["Body"]) for answer in answers for m in answer["Messages"])
    assert bodies == list(range(pollers))
    assert fakesqs.now() == before


def test_blocking_real_sqs_covers_aiobotocore_clients(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import asyncio
        import aioboto3, pytest

        async def list_queues():
            session = aioboto3.Session(
                aws_access_key_id="a", aws_secret_access_key="b", region_name="eu-west-1"
            )
            async with session.client("sqs") as sqs:
                return await sqs.list_queues()

        def test_blocked():
            try:
                asyncio.run(list_queues())
            except Exception as error:  # swallowed: the test fails all the same
                assert type(error).__name__ == "RealSQSBlocked"

        def test_served(fakesqs):
            assert "QueueUrls" not in asyncio.run(list_queues())
        """
    )
    result = pytester.runpytest("--fakesqs-block-real-sqs", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_blocked _*",
            "fakesqs: the test tried to reach real SQS (1 request refused, *",
            "  - ListQueues https://sqs.eu-west-1.amazonaws.com/",
        ]
    )
