"""docs/pictures.md says what the code does: its screenshot, names and examples."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_fakesqs.pictures.dashboard import route
from pytest_fakesqs.plugin.pages import page_name

DOCS = Path(__file__).parents[2] / "docs"
PAGE = (DOCS / "pictures.md").read_text(encoding="utf-8")


def test_the_screenshot_is_there_and_a_png() -> None:
    (image,) = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", PAGE)
    assert (DOCS / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_names_it_uses_exist() -> None:
    assert "--fakesqs-html reports/fakesqs" in PAGE and "fakesqs_html = reports/fakesqs" in PAGE
    assert f"`{page_name('tests/test_orders.py::test_retries')}`" in PAGE
    for path in re.findall(r"`(/_fakesqs/[^`]*)`", PAGE):
        concrete = path.replace("<region>", "r").replace("<account>", "a")
        concrete = concrete.replace("<name>", "n").replace("<message id>", "m")
        found = route(concrete)
        assert found is not None and found.page != "not found", path
