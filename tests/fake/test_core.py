"""The façade keeps its parts private: a core built from the options, which `renew` replaces."""

from __future__ import annotations

import boto3

from pytest_fakesqs import fake_sqs
from pytest_fakesqs.fake.facade import FakeSQS, core_of, inspection
from pytest_fakesqs.fake.options import make_options
from pytest_fakesqs.protocol.sigv4 import SignatureVerifier

INTERNALS = ("broker", "service", "handler", "directory", "clock", "message_log")


def test_the_facade_exposes_none_of_its_parts() -> None:
    with fake_sqs() as fake:
        assert [name for name in INTERNALS if hasattr(fake, name)] == []


def test_the_parts_get_what_they_need_when_built() -> None:
    with fake_sqs(
        enforce_policies=True,
        verify_signatures=True,
        credentials={"AKIDTEAM": "secret"},
        accounts={"AKIDTEAM": "333333333333"},
    ) as fake:
        core = core_of(fake)
        assert core.service.enforce_policies is True
        assert isinstance(core.handler.authenticate, SignatureVerifier)
        assert core.handler.identities.principal("AKIDTEAM").account_id == "333333333333"
    with fake_sqs() as plain:
        assert core_of(plain).handler.authenticate is None
        assert core_of(plain).service.enforce_policies is False


def test_renew_swaps_the_core_and_keeps_serving() -> None:
    with fake_sqs(region="eu-west-1") as fake:
        seen = inspection(fake)
        fake.create_queue("before")
        first = core_of(fake)
        fake.verbose = True
        fake.renew(make_options(region="eu-west-1", queues={"after": {}}))
        assert core_of(fake) is not first
        assert fake.verbose is True
        # A view taken before the renew reads the new core.
        assert [queue.name for queue in seen.queues()] == ["after"]
        sqs = boto3.client("sqs", region_name="eu-west-1")
        assert [url.rsplit("/", 1)[1] for url in sqs.list_queues()["QueueUrls"]] == ["after"]
    assert isinstance(fake, FakeSQS)
