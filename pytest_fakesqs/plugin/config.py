"""The plugin's ini keys and flags: registered at start, the ini values read once; and the two
switches they turn on at configure time, contract mode and the moto drop-in.

This loads on every pytest run, so registering the ini keys and the marker reads only the
options' catalogue; `Options` itself (fake/options.py: types, defaults, checks) loads once an
option is read: an ini value is set, or a test asks for the fake (a test's options, markers over
ini: plugin/options.py). Contract mode (`--fakesqs-endpoint`: the fixture's verbs against a real
endpoint, contract/) and the moto drop-in (`fakesqs_moto`: SQS served by a fake whenever moto's
mock_aws is active, moto_lifetime.py) load their parts only once turned on.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

import pytest

from ..fake.option_catalogue import HELP, INI_PREFIX, parse_bool

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS
    from .moto_lifetime import MotoDropIn

BLOCK_INI = "fakesqs_block_real_sqs"  # the real-SQS guard's (guard.py, refusals.py)
ALLOW_MARKER = "fakesqs_allow_real_sqs"
BlockMode = Literal["cloud", "true", "false"]
DEFAULT_BLOCK_MODE: BlockMode = "cloud"
# The header of a run whose ini sets no option, which then needs no `Options` loaded: the
# defaults of the four options the header always names (tests/plugin/test_options.py keeps it
# equal to the line options.header() makes).
DEFAULT_HEADER = "fakesqs: clock=frozen, region=us-east-1, account_id=123456789012, flavor=aws"
HTML_INI = "fakesqs_html"  # pages.py writes the pages; registered here, with the other keys

# What the hooks and the fixtures share on pytest's config and items.
ini_values_key = pytest.StashKey[dict[str, Any]]()
active_fake_key: pytest.StashKey[FakeSQS] = pytest.StashKey()
reports_key = pytest.StashKey[dict[str, pytest.TestReport]]()


def add_ini_options(parser: pytest.Parser) -> None:
    for name, help in HELP.items():
        parser.addini(INI_PREFIX + name, f"fakesqs: {help}", type="string", default="")


def add_html_options(parser: pytest.Parser, group: pytest.OptionGroup) -> None:
    group.addoption(
        "--fakesqs-html",
        dest="fakesqs_html",
        metavar="DIR",
        default=None,
        help="write an HTML page (queues, dead letters, a timeline of the messages, the calls) "
        "into DIR for each failing test that used the fake",
    )
    parser.addini(
        HTML_INI,
        "fakesqs: directory for the HTML page of each failing test that used the fake "
        "(as --fakesqs-html; relative to the ini file)",
        type="string",
        default="",
    )


def ini_flag(config: pytest.Config, key: str) -> bool:
    """An ini boolean of the plugin (false when unset); UsageError names the key."""
    text = config.getini(key)
    if not isinstance(text, str) or not text.strip():
        return False
    try:
        return parse_bool(text)
    except ValueError as error:
        raise pytest.UsageError(f"ini option {key}: {error}") from None


def marker_line(config: pytest.Config) -> str:
    """The marker's registration: its full signature when `pytest --markers` shows it, the
    option names otherwise (all --strict-markers needs, without loading Options)."""
    if config.getoption("markers", default=False):
        from ..fake.options import signature

        options = signature()
    else:
        options = ", ".join(HELP)
    return (
        f"fakesqs(*, {options}): turn the fake SQS on for this test and configure it; "
        "closest marker wins per option, then ini fakesqs_<option>, then the default."
    )


def ini_texts(config: pytest.Config) -> dict[str, str]:
    """The texts of the options set in ini (name -> text), a misspelt key refused; parsing them
    is plugin/options.py's, which loads only when there is one."""
    refuse_unknown_ini_keys(config)
    texts = {name: config.getini(INI_PREFIX + name) for name in HELP}
    return {name: text for name, text in texts.items() if isinstance(text, str) and text.strip()}


def refuse_unknown_ini_keys(config: pytest.Config) -> None:
    """A misspelt `fakesqs_*` ini key would silently do nothing: name the nearest real one."""
    unknown_keys = getattr(config, "_get_unknown_ini_keys", None)  # pytest keeps it private
    if unknown_keys is None:
        return
    ours = sorted(key for key in unknown_keys() if key.startswith(INI_PREFIX))
    if ours:
        from ..fake.options import unknown_options_text

        known = sorted(name for name in config._parser._inidict if name.startswith(INI_PREFIX))
        raise pytest.UsageError(unknown_options_text(ours, known, kind="ini key"))


# -- contract mode -----------------------------------------------------------------------------

ENDPOINT_KEY = pytest.StashKey[str | None]()
PREFIX_KEY = pytest.StashKey[str]()
TEST_COUNTER_KEY = pytest.StashKey[Iterator[int]]()


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
        from ..contract.naming import run_prefix

        config.stash[PREFIX_KEY] = run_prefix()
        config.stash[TEST_COUNTER_KEY] = itertools.count(1)
    config.addinivalue_line(
        "markers",
        "fakesqs_only: the test needs the fake (fault injection, time travel...); "
        "skipped in contract mode (--fakesqs-endpoint)",
    )


def contract_endpoint(config: pytest.Config) -> str | None:
    return config.stash.get(ENDPOINT_KEY, None)


def skip_if_fake_only(item: pytest.Item) -> None:
    """In contract mode, skip a test marked `fakesqs_only` (the options' part: session.py)."""
    endpoint = contract_endpoint(item.config)
    if endpoint is not None and item.get_closest_marker("fakesqs_only") is not None:
        pytest.skip(
            f"fakesqs_only: this test needs the fake; contract mode runs against {endpoint}"
        )


# -- the moto drop-in --------------------------------------------------------------------------

MOTO_INI = "fakesqs_moto"
MOTO_HELP = (
    "whenever moto's mock_aws is active, serve SQS from a fake living as long as moto's state; "
    "moto keeps every other service"
)


def add_moto_options(parser: pytest.Parser, group: pytest.OptionGroup) -> None:
    group.addoption(
        "--fakesqs-moto", action="store_true", dest="fakesqs_moto", default=False, help=MOTO_HELP
    )
    parser.addini(MOTO_INI, f"fakesqs: {MOTO_HELP} (true | false)", type="string", default="")


def moto_requested(config: pytest.Config) -> bool:
    return bool(config.getoption("fakesqs_moto", default=False)) or ini_flag(config, MOTO_INI)


def configure_moto(config: pytest.Config, ini_values: dict[str, Any]) -> None:
    """Turn the drop-in on when asked (moto_lifetime.turn_on: checks moto, registers its hooks);
    until then nothing imports moto, botocore or the fake."""
    if not moto_requested(config):
        return
    from .moto_lifetime import turn_on  # the drop-in is asked for: its parts load now

    config.stash[dropin_key] = turn_on(config, ini_values)


def moto_dropin(config: pytest.Config) -> MotoDropIn | None:
    return config.stash.get(dropin_key, None)


dropin_key = pytest.StashKey["MotoDropIn"]()
