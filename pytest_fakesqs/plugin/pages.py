"""`--fakesqs-html DIR` (ini `fakesqs_html`): an HTML page for each failing test that used the
fake, its path in the report section, and a link to it in pytest-html's report.

The pictures are imported only when a page is written: a run with no failures never loads them.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .config import HTML_INI

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS

BESIDE_PYTEST_HTML = "fakesqs"  # the folder beside pytest-html's report when no DIR is given
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NAME_LIMIT = 120
# A page stays small enough to open: a test that made 100,000 calls shows the last of them.
CALL_LIMIT = 2000
DEAD_LETTER_LIMIT = 500


def pages_dir(config: pytest.Config) -> Path | None:
    """Where pages go: --fakesqs-html, else the ini option, else beside pytest-html's report
    (when it writes one), else nowhere."""
    option = config.getoption("fakesqs_html", default=None)
    if option:
        return Path(option).resolve()
    ini = config.getini(HTML_INI)
    if isinstance(ini, str) and ini.strip():
        base = config.inipath.parent if config.inipath is not None else config.rootpath
        return (base / ini.strip()).resolve()
    html_report = _pytest_html_report(config)
    if html_report is not None:
        return html_report.parent / BESIDE_PYTEST_HTML
    return None


def page_name(nodeid: str) -> str:
    """A file name for a test's page: its node id with unsafe characters replaced."""
    name = _UNSAFE.sub("_", nodeid.replace("::", "__")).strip("_") or "test"
    if len(name) > _NAME_LIMIT:
        digest = hashlib.sha1(nodeid.encode("utf-8")).hexdigest()[:10]
        name = f"{name[:_NAME_LIMIT]}-{digest}"
    return name + ".html"


def write_page(item: pytest.Item, fake: FakeSQS, report: pytest.TestReport) -> str:
    """Write the page when a directory is configured; the report section's line about it."""
    directory = pages_dir(item.config)
    if directory is None:
        return ""
    from ..fake.snapshot import take_snapshot
    from ..pictures.page import report_page

    path = directory / page_name(item.nodeid)
    try:
        taken = take_snapshot(fake, call_limit=CALL_LIMIT, dead_letter_limit=DEAD_LETTER_LIMIT)
        page = report_page(taken, test_id=item.nodeid, failure=report.longreprtext)
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as error:  # a page is a convenience: never the reason a run breaks
        return f"html page not written: {error}"
    _attach_to_pytest_html(item.config, report, path)
    return f"html page: {path}"


def _pytest_html_report(config: pytest.Config) -> Path | None:
    if config.pluginmanager.getplugin("html") is None:
        return None
    html_path = config.getoption("htmlpath", default=None)
    return Path(os.path.expandvars(html_path)).expanduser().resolve() if html_path else None


def _attach_to_pytest_html(config: pytest.Config, report: pytest.TestReport, path: Path) -> None:
    plugin: Any = config.pluginmanager.getplugin("html")
    if plugin is None:
        return
    html_report = _pytest_html_report(config)
    if html_report is not None:  # a relative link survives moving the folder as a whole
        href = Path(os.path.relpath(path, html_report.parent)).as_posix()
    else:
        href = path.as_uri()
    extras = list(getattr(report, "extras", []))
    extras.append(plugin.extras.url(href, name="fakesqs"))
    report.extras = extras  # type: ignore[attr-defined]
