"""The pytest plugin (the `pytest11` entry point): its hooks and fixtures live in hooks.py.

pytest rewrites the asserts of the module it loads as a plugin; this one is kept small, and stops
the rewriting of the rest before they load: pytest would rewrite every module of a plugin's
distribution, which on a run that writes no bytecode (PYTHONDONTWRITEBYTECODE) means parsing and
compiling each of them anew on every pytest run. Our modules keep their plain `assert`s; the
fake's failure texts are built as strings (they read the same under --assert=plain), so nothing
is lost.
"""

from __future__ import annotations

import sys

PACKAGE = __name__.partition(".")[0]


def keep_our_modules_unrewritten() -> None:
    # pytest's AssertionRewritingHook keeps the marked names in a private set; a finder without
    # one (another pytest, --assert=plain) is left alone.
    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(marked, set):
            marked.difference_update(
                {name for name in marked if name == PACKAGE or name.startswith(PACKAGE + ".")}
            )


keep_our_modules_unrewritten()

from .config import active_fake_key, ini_values_key, reports_key
from .hooks import (
    fakesqs,
    fakesqs_server,
    fakesqs_session_options,
    fakesqs_session_server,
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_configure_node,
    pytest_report_collectionfinish,
    pytest_report_header,
    pytest_runtest_makereport,
    pytest_runtest_setup,
)

__all__ = [
    "active_fake_key",
    "fakesqs",
    "fakesqs_server",
    "fakesqs_session_options",
    "fakesqs_session_server",
    "ini_values_key",
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_configure_node",
    "pytest_report_collectionfinish",
    "pytest_report_header",
    "pytest_runtest_makereport",
    "pytest_runtest_setup",
    "reports_key",
]
