"""Small text helpers shared by failure messages and the report section."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# The project's home; pyproject's [project.urls] names the same (a test keeps them equal). An
# installed user has no checkout at hand, so messages cite each docs page at its address.
PROJECT_URL = "https://github.com/pytest-fakesqs/pytest-fakesqs"
DOCS_URL = f"{PROJECT_URL}/tree/main/docs"
# Documentation pages (under docs/, with an anchor where the page has several sections) that
# messages point to; tests/layout/test_docs.py checks that each page and anchor exists.
ANCHORS = {
    "time": "time-travel.md",
    "queues": "declaring-queues.md#declaring-queues",
    "dead_letters": "dead-letters.md",
    "history": "histories-and-reports.md",
    "calls": "calls-and-client-errors.md",
    "options": "options.md",
    "faults": "fault-injection.md",
    "fail_safe": "fail-safe.md",
}

BODY_LIMIT = 40


def see(topic: str) -> str:
    """`See the pytest-fakesqs docs: <url of the page>`, readable where the package is installed."""
    return f"See the pytest-fakesqs docs: {page_url(topic)}"


def page_url(topic: str) -> str:
    return f"{PROJECT_URL}/blob/main/docs/{ANCHORS[topic]}"


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` is most likely a typo of, if one is close enough."""
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def abridge(text: str, *, verbose: bool, limit: int = BODY_LIMIT) -> str:
    """`text` quoted; cut to `limit` characters unless verbose."""
    if verbose or len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"… ({len(text)} chars)"


def offset(seconds: float) -> str:
    """Seconds since the fake started, as `+90s` / `+2.5s`."""
    return f"+{seconds:g}s" if seconds < 1e6 else f"+{seconds:.0f}s"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def short_id(message_id: str) -> str:
    return message_id[:8]
