"""Contract mode's pytest wiring: options, the explicit switch, skips, and starting a session."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..fake.options import Options
    from .sqs import ContractSQS

ENDPOINT_KEY = pytest.StashKey[str | None]()
PREFIX_KEY = pytest.StashKey[str]()
TEST_COUNTER_KEY = pytest.StashKey[Iterator[int]]()
# Options that only a fake can honour (beside the fault options): a test that sets them is
# skipped in contract mode. queues_from: contract mode declares only `queues` (its names are
# prefixed, which would break the ARNs a file wires between queues), so a test reading files
# skips there.
FAKE_ONLY_OPTIONS = ("faults", "clock", "start", "queues_from")


def add_contract_options(parser: pytest.Parser, group: Any) -> None:
    group.addoption(
        "--fakesqs-endpoint",
        dest="fakesqs_endpoint",
        default=None,
        metavar="URL",
        help="contract mode: fake nothing; send every SQS call to this real endpoint "
        "(AWS, YMQ, ElasticMQ, LocalStack) with your own credentials",
    )
    group.addoption(
        "--fakesqs-region",
        dest="fakesqs_region",
        default=None,
        metavar="REGION",
        help="contract mode: the endpoint's region (default: the region option)",
    )
    parser.addini(
        "fakesqs_endpoint",
        "fakesqs contract mode: the real SQS endpoint to test against (explicit only)",
        type="string",
        default="",
    )


def configure_contract(config: pytest.Config) -> None:
    # Only the command line or an ini file turn contract mode on: never the environment alone.
    endpoint = config.getoption("fakesqs_endpoint", default=None) or config.getini(
        "fakesqs_endpoint"
    )
    config.stash[ENDPOINT_KEY] = str(endpoint).strip() or None
    if config.stash[ENDPOINT_KEY] is not None:  # contract mode: its parts load now
        from .naming import run_prefix

        config.stash[PREFIX_KEY] = run_prefix()
        config.stash[TEST_COUNTER_KEY] = itertools.count(1)
    config.addinivalue_line(
        "markers",
        "fakesqs_only: the test needs the fake (fault injection, time travel...); "
        "skipped in contract mode (--fakesqs-endpoint)",
    )


def contract_endpoint(config: pytest.Config) -> str | None:
    return config.stash.get(ENDPOINT_KEY, None)


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


def skip_if_fake_only(item: pytest.Item, options: Options | None = None) -> None:
    endpoint = contract_endpoint(item.config)
    if endpoint is None:
        return
    if item.get_closest_marker("fakesqs_only") is not None:
        pytest.skip(
            f"fakesqs_only: this test needs the fake; contract mode runs against {endpoint}"
        )
    if options is None:
        return
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
