"""Contract mode, once it is on: the header, the per-test skips that read a test's options, and
starting the session's verbs against the real endpoint (its options and switch, which every run
loads, are plugin/config.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from ..plugin.config import PREFIX_KEY, TEST_COUNTER_KEY, contract_endpoint

if TYPE_CHECKING:
    from ..fake.options import Options
    from .sqs import ContractSQS

# Options that only a fake can honour (beside the fault options): a test that sets them is
# skipped in contract mode. queues_from: contract mode declares only `queues` (its names are
# prefixed, which would break the ARNs a file wires between queues), so a test reading files
# skips there.
FAKE_ONLY_OPTIONS = ("faults", "clock", "start", "queues_from")


def contract_header(config: pytest.Config, region: str) -> str:
    endpoint = contract_endpoint(config)
    return (
        f"fakesqs: CONTRACT MODE: nothing is faked; every SQS call goes to {endpoint} "
        f"(region {region}); queues made by fakesqs helpers are prefixed "
        f"'{config.stash[PREFIX_KEY]}<test number>-' and deleted at teardown"
    )


def endpoint_flavor(endpoint: str) -> str:
    """Which service an endpoint is: YMQ by its host, anything else speaks AWS's dialect."""
    return "ymq" if "message-queue.api.cloud.yandex.net" in endpoint else "aws"


def skip_if_options_need_the_fake(item: pytest.Item, options: Options) -> None:
    """Skip a test whose options describe another flavor, or need what only a fake does."""
    endpoint = contract_endpoint(item.config)
    assert endpoint is not None
    if options.flavor != endpoint_flavor(endpoint):
        pytest.skip(
            f"contract mode: this test describes flavor={options.flavor!r}, but {endpoint} "
            f"is {endpoint_flavor(endpoint)!r}"
        )
    from ..fake.option_catalogue import FAULT_OPTIONS
    from ..fake.options import Options

    defaults = Options()
    for name in (*FAULT_OPTIONS, *FAKE_ONLY_OPTIONS):
        if getattr(options, name) != getattr(defaults, name):
            pytest.skip(
                f"contract mode: option {name}={getattr(options, name)!r} needs the fake; "
                f"{endpoint} cannot honour it"
            )


def start_contract(config: pytest.Config, options: Options) -> ContractSQS:
    from .sqs import new_contract  # boto3: only in contract mode, never at plugin load

    endpoint = contract_endpoint(config)
    assert endpoint is not None
    region = config.getoption("fakesqs_region", default=None) or options.region
    counter: Iterator[int] = config.stash[TEST_COUNTER_KEY]
    return new_contract(
        options,
        endpoint_url=endpoint,
        region=region,
        max_sleep=options.contract_max_sleep,
        # Per test too: AWS refuses to re-create a name for 60 s after it was deleted.
        prefix=f"{config.stash[PREFIX_KEY]}{next(counter)}-",
    ).start()
