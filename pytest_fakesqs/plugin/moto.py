"""The moto drop-in: `fakesqs_moto = true` (ini) or `--fakesqs-moto`.

Whenever moto's mock is active, SQS is served by a fake living as long as moto's state would
(`moto_lifetime`), while moto keeps every other service. Registered as a plugin of its own from
`pytest_configure` only when the option is on; until then nothing here imports moto, botocore
or the fake.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

import pytest

from .config import ini_flag

if TYPE_CHECKING:
    from .moto_lifetime import MotoDropIn

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
    """Turn the drop-in on when asked: watch moto, register the hooks below."""
    if not moto_requested(config):
        return
    if importlib.util.find_spec("moto") is None:
        raise pytest.UsageError(
            "fakesqs_moto needs moto installed: pip install 'pytest-fakesqs[moto]'"
        )
    from ..transport import moto_lifecycle

    if not moto_lifecycle.has_mock_aws():
        raise pytest.UsageError(
            f"fakesqs_moto needs moto >= 5 (its mock_aws); moto {moto_lifecycle.moto_version()} "
            "is installed, whose per-service mock_sqs the drop-in does not follow"
        )
    from .moto_lifetime import MotoDropIn  # the drop-in is on: its parts load now

    dropin = MotoDropIn(config, ini_values)
    config.stash[dropin_key] = dropin
    config.pluginmanager.register(dropin, "fakesqs-moto")
    moto_lifecycle.watch(dropin.lifetime)
    if moto_lifecycle.moto_is_active():  # a conftest started moto before the session did
        dropin.lifetime.moto_started(reset=True)


def moto_dropin(config: pytest.Config) -> MotoDropIn | None:
    return config.stash.get(dropin_key, None)


dropin_key = pytest.StashKey["MotoDropIn"]()
