"""One seed per run, printed in the header; each test's seed derives from it and its node id."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

SESSION_SEED = pytest.StashKey[int]()
WORKER_SEED_KEY = "fakesqs_seed"


def configure_seed(config: pytest.Config) -> int:
    given = config.getoption("fakesqs_seed", default=None)
    # An xdist worker takes the controller's seed: the one the header printed.
    from_controller = getattr(config, "workerinput", {}).get(WORKER_SEED_KEY)
    if given is not None:
        seed = int(given)
    elif from_controller is not None:
        seed = int(from_controller)
    else:
        seed = random.SystemRandom().randrange(2**32)
    config.stash[SESSION_SEED] = seed
    return seed


def give_seed_to_worker(node: Any) -> None:
    """pytest-xdist's `pytest_configure_node`: the worker's tests derive from this run's seed."""
    node.workerinput[WORKER_SEED_KEY] = session_seed(node.config)


def session_seed(config: pytest.Config) -> int:
    return config.stash.get(SESSION_SEED, 0)


def seed_for_test(config: pytest.Config, nodeid: str) -> int:
    """Stable per test for a given run seed, so rerunning one test reproduces its choices."""
    return zlib.crc32(f"{session_seed(config)}:{nodeid}".encode())


def seed_line(config: pytest.Config) -> str:
    seed = session_seed(config)
    return f"fakesqs: seed={seed} (reproduce with --fakesqs-seed={seed})"


def show_seed(config: pytest.Config, ini_values: dict[str, Any]) -> bool:
    """Whether the header names the seed before collection: given on the command line, fault
    injection turned on by the ini file, or tests spread over xdist workers (the controller
    never sees their markers). Otherwise `uses_run_seed` decides after collection."""
    if config.getoption("fakesqs_seed", default=None) is not None or "seed" in ini_values:
        return True
    if config.pluginmanager.hasplugin("dsession"):
        return True
    if not ini_values:
        return False  # no ini option set: nothing injects faults
    from ..fake.options import make_options

    return make_options(**ini_values).injects_faults


def uses_run_seed(items: list[pytest.Item], ini_values: dict[str, Any]) -> bool:
    """Whether a collected test's marker turns on a seeded fault without pinning its own seed,
    so that its random choices come from the run's seed."""
    for item in items:
        if item.get_closest_marker("fakesqs") is None:
            continue
        from .options import options_for  # a test with the marker: the options load now

        try:
            options = options_for(item, ini_values)
        except (TypeError, ValueError):
            continue  # the test errors at setup, saying why
        if options.seed is None and options.injects_faults:
            return True
    return False
