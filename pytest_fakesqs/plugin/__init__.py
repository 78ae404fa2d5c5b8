"""The pytest plugin (the `pytest11` entry point): its hooks and fixtures live in hooks.py.

pytest rewrites the asserts of the module it loads as a plugin; this one is kept small, and stops
the rewriting of the rest before they load (see rewrite.py).
"""

from __future__ import annotations

from .rewrite import keep_our_modules_unrewritten

keep_our_modules_unrewritten()

from .hooks import (
    active_fake_key,
    fakesqs,
    fakesqs_server,
    fakesqs_session_options,
    fakesqs_session_server,
    ini_values_key,
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_configure_node,
    pytest_report_collectionfinish,
    pytest_report_header,
    pytest_runtest_makereport,
    pytest_runtest_setup,
    reports_key,
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
