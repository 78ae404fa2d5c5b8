"""Contract mode: the `fakesqs` fixture fakes nothing and talks to a real SQS-compatible endpoint.

The same test suite then checks the user's assumptions against AWS, YMQ, ElasticMQ or LocalStack.
Helpers keep working where a real endpoint allows it; the rest skip the test with a reason.
"""

from __future__ import annotations

import json
import os
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn

import boto3
import pytest
from botocore.exceptions import ClientError

from ..api.queue_record import attribute_text
from ..fake.dead_letters import DeadLetterQuery, Matcher
from ..fake.declare import declare_queues
from ..fake.options import Options
from ..fake.records import DeadLetter
from .dead_letters import assert_dead_lettered, assert_no_dead_letters, read_dead_letters
from .naming import run_prefix
from .views import ContractQueueView, only_with_the_fake

DEFAULT_MAX_SLEEP = 60.0
_PRIVATE = object()
_ENDPOINT_ENV = "AWS_ENDPOINT_URL_SQS"


class ContractSQS:
    """The `fakesqs` fixture under `--fakesqs-endpoint`: every call goes to that endpoint."""

    contract_mode = True

    def __init__(
        self,
        options: Options,
        *,
        endpoint_url: str,
        region: str,
        max_sleep: float = DEFAULT_MAX_SLEEP,
        prefix: str = "",
        _token: object = None,
    ) -> None:
        if _token is not _PRIVATE:
            raise TypeError("use the `fakesqs` fixture with --fakesqs-endpoint")
        self.options = options
        self.endpoint_url = endpoint_url
        self.region = region
        self.max_sleep = max_sleep
        self.prefix = prefix or run_prefix()
        # Any: the stubs' literal attribute names would refuse the test's own names.
        self.client: Any = boto3.client("sqs", endpoint_url=endpoint_url, region_name=region)
        self._created: dict[str, str] = {}  # name as the test knows it -> URL
        self._saved_env: dict[str, str | None] = {}
        self.verbose = False
        self._slept = 0.0

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> ContractSQS:
        # Code under test that makes its own clients is pointed at the endpoint too.
        for name, value in (
            (_ENDPOINT_ENV, self.endpoint_url),
            ("AWS_DEFAULT_REGION", self.region),
        ):
            self._saved_env[name] = os.environ.get(name)
            os.environ[name] = value
        declare_queues(_EndpointCreator(self), self.options.queues)
        return self

    def stop(self) -> None:
        for name, value in self._saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved_env.clear()
        left: list[str] = []
        for name, url in reversed(list(self._created.items())):
            try:
                self.client.delete_queue(QueueUrl=url)
            except ClientError as error:
                if (
                    error.response["Error"].get("QueryErrorCode") == "QueueDoesNotExist"
                    or error.response["Error"].get("Code")
                    == "AWS.SimpleQueueService.NonExistentQueue"
                ):
                    continue  # the test deleted it itself
                left.append(f"{name} ({url}): {error.response['Error'].get('Code')}")
            except Exception as error:  # the endpoint went away: still say what is left
                left.append(f"{name} ({url}): {error!r}")
        self._created.clear()
        if left:
            warnings.warn(
                pytest.PytestWarning(
                    "fakesqs contract mode could not delete these queues; delete them by hand:\n  "
                    + "\n  ".join(left)
                ),
                stacklevel=1,
            )

    # -- time ----------------------------------------------------------------------------------

    def now(self) -> datetime:
        return datetime.now(UTC)

    def advance(self, amount: float | timedelta) -> datetime:
        seconds = amount.total_seconds() if isinstance(amount, timedelta) else float(amount)
        if seconds < 0:
            raise ValueError("time can't go backwards")
        if seconds > self.max_sleep:
            pytest.skip(
                f"contract mode: advance({seconds:g}) would sleep {seconds:g} s for real, more "
                f"than contract_max_sleep={self.max_sleep:g}; raise contract_max_sleep to run it"
            )
        time.sleep(seconds)  # real-time: a real endpoint's clock cannot be moved
        self._slept += seconds
        return self.now()

    def advance_to_next_event(
        self, queue: str | None = None, *, include_expiry: bool = False
    ) -> NoReturn:
        only_with_the_fake("advance_to_next_event()")

    def run_until_idle(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("run_until_idle()")

    # -- queues --------------------------------------------------------------------------------

    def real_name(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def create_queue(self, name: str, **attributes: Any) -> str:
        wire = {k: attribute_text(v) for k, v in attributes.items()}
        if name.endswith(".fifo"):
            wire.setdefault("FifoQueue", "true")
        url: str = self.client.create_queue(QueueName=self.real_name(name), Attributes=wire)[
            "QueueUrl"
        ]
        self._created[name] = url
        return url

    def _url(self, name_or_url: str) -> str:
        if "://" in name_or_url:
            return name_or_url
        if name_or_url in self._created:
            return self._created[name_or_url]
        real_name = self.real_name(name_or_url)
        try:
            url: str = self.client.get_queue_url(QueueName=real_name)["QueueUrl"]
        except ClientError:
            raise LookupError(self._not_found(name_or_url, real_name)) from None
        return url

    def _not_found(self, name: str, real_name: str) -> str:
        known = ", ".join(sorted(self._created)) or "none"
        text = f"no queue named {name!r} (looked up as {real_name!r}); queues: {known}"
        try:  # a read: whether the code under test made the queue itself, with its bare name
            bare: str | None = self.client.get_queue_url(QueueName=name)["QueueUrl"]
        except ClientError:
            bare = None
        if bare is None:
            return text
        return (
            f"{text}. The endpoint has a queue named {name!r} without the prefix ({bare}): "
            "contract mode finds only queues made through the fixture (create_queue, the "
            "queues option), not one the code under test created itself, and it does not "
            f"delete that one at teardown. Read it by URL (fakesqs.queue({bare!r})), declare "
            "the queue through the fixture and hand its URL to the code, or mark the test "
            "@pytest.mark.fakesqs_only"
        )

    def queue(self, name_or_url: str) -> ContractQueueView:
        return ContractQueueView(self.client, self._url(name_or_url))

    def queues(self) -> list[ContractQueueView]:
        """The real queues this test made through the fixture, by the name it gave them."""
        return [
            ContractQueueView(self.client, self._created[name]) for name in sorted(self._created)
        ]

    def dead_letter_queues(
        self, queue: str | None = None
    ) -> Iterator[tuple[str, ContractQueueView]]:
        """(source name, DLQ view) for the test's queues with a RedrivePolicy; `queue` (a name
        or URL) keeps the pairs where it is the source or the dead-letter queue."""
        wanted = None if queue is None else self._url(queue)
        for name, url in list(self._created.items()):
            policy = (
                self.client.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy"])
                .get("Attributes", {})
                .get("RedrivePolicy")
            )
            if not policy:
                continue
            target = json.loads(policy)["deadLetterTargetArn"].rsplit(":", 1)[-1]
            view = self.queue(self.client.get_queue_url(QueueName=target)["QueueUrl"])
            if wanted is None or wanted in (url, view.url):
                yield name, view

    def test_name(self, real_name: str) -> str:
        """The name the test used for a queue (the run prefix stripped)."""
        return real_name[len(self.prefix) :] if real_name.startswith(self.prefix) else real_name

    # -- dead letters --------------------------------------------------------------------------

    def dead_letters(self, queue: str | None = None) -> list[DeadLetter]:
        return read_dead_letters(self.dead_letter_queues(queue), self.test_name)

    def assert_dead_lettered(
        self,
        queue: str | None = None,
        *,
        body: str | None = None,
        match: Matcher | None = None,
        count: int | None = None,
        info: str | None = None,
    ) -> list[DeadLetter]:
        __tracebackhide__ = True
        return assert_dead_lettered(
            self.dead_letters(queue),
            self.endpoint_url,
            DeadLetterQuery(queue, body, match, count, info, self.verbose),
        )

    def assert_no_dead_letters(self, queue: str | None = None) -> None:
        __tracebackhide__ = True
        assert_no_dead_letters(self.dead_letters(queue), queue, self.verbose)

    def teardown_problems(self) -> list[str]:
        return []  # teardown checks need the fake's records

    # -- what only the fake can do -------------------------------------------------------------

    def fail_next(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("fail_next()")

    def duplicate_next(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("duplicate_next()")

    def history(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("history()")

    def calls(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("calls()")

    def trigger(self, *args: Any, **kwargs: Any) -> NoReturn:
        only_with_the_fake("trigger()")

    def __repr__(self) -> str:
        return f"<ContractSQS endpoint={self.endpoint_url} prefix={self.prefix!r}>"


class _EndpointCreator:
    """Contract mode's declared queues, created at the real endpoint as the fake creates them
    (fake/declare.py): the same order, RedrivePolicy and tags."""

    def __init__(self, sqs: ContractSQS) -> None:
        self._sqs = sqs

    def exists(self, name: str) -> bool:
        return False  # each run's queue names are its own (run_prefix)

    def arn(self, name: str) -> str:
        return self._sqs.queue(name).arn

    def create(self, name: str, attributes: dict[str, Any]) -> str:
        return self._sqs.create_queue(name, **attributes)

    def tag(self, url: str, tags: dict[str, str]) -> None:
        self._sqs.client.tag_queue(QueueUrl=url, Tags=tags)


def new_contract(options: Options, **kwargs: Any) -> ContractSQS:
    return ContractSQS(options, _token=_PRIVATE, **kwargs)


@dataclass(frozen=True)
class ContractServer:
    """`fakesqs_server` in contract mode: subprocesses are pointed at the real endpoint."""

    endpoint_url: str
