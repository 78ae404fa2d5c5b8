"""A real browser for the pictures: Chromium from the distribution, driven headless by
playwright's Python package (never `playwright install`: the system's browser is used).

Without a browser these tests skip, saying how to get one; `make test-browser` (CI) installs
Chromium first and sets FAKESQS_REQUIRE_BROWSER=1, which turns that skip into a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 30_000  # a bound, never an expectation


def chromium() -> str | None:
    for candidate in (os.environ.get("FAKESQS_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _unavailable(reason: str) -> None:
    if os.environ.get("FAKESQS_REQUIRE_BROWSER"):
        pytest.fail(f"FAKESQS_REQUIRE_BROWSER is set but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    """A page in a fresh headless Chromium with a new, empty profile under tmp_path."""
    executable = chromium()
    if executable is None:
        _unavailable(
            "no Chromium found (/usr/bin/chromium): `make test-browser` installs it with "
            "apt-get install -y chromium"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed: pip install -e . --group test")
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1200, "height": 900},
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
