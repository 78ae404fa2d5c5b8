"""One seed per run, printed in the header; each test's seed derives from it and its node id."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from ..fake.options import make_options

SESSION_SEED = pytest.StashKey[int]()


def configure_seed(config: pytest.Config) -> int:
    given = config.getoption("fakesqs_seed", default=None)
    seed = int(given) if given is not None else random.SystemRandom().randrange(2**32)
    config.stash[SESSION_SEED] = seed
    return seed


def session_seed(config: pytest.Config) -> int:
    return config.stash.get(SESSION_SEED, 0)


def seed_for_test(config: pytest.Config, nodeid: str) -> int:
    """Stable per test for a given run seed, so rerunning one test reproduces its choices."""
    return zlib.crc32(f"{session_seed(config)}:{nodeid}".encode())


def show_seed(config: pytest.Config, ini_values: dict[str, Any]) -> bool:
    """The header names the seed only when it matters: given on the command line, or fault
    injection turned on by the ini file (a marker's seed is in that test's report)."""
    if config.getoption("fakesqs_seed", default=None) is not None or "seed" in ini_values:
        return True
    return make_options(**ini_values).injects_faults
