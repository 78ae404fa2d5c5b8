"""Small text helpers shared by failure messages and the report section."""

from __future__ import annotations

from collections.abc import Collection

from .._spelling import did_you_mean

# Documentation pages (under docs/, with an anchor where the page has several sections) that
# messages point to; tests/layout/test_docs.py checks that each page and anchor exists. The pages
# are installed with the package, so a message can say how to read one: `fakesqs docs PAGE`.
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
    """`See docs/<page> (`fakesqs docs <page>` prints it)`: readable where it is installed."""
    page = ANCHORS[topic]
    return f"See docs/{page} (`fakesqs docs {page.partition('.md')[0]}` prints it)"


def check_action(action: str, actions: Collection[str], *, lead: str) -> None:
    """Refuse an action name SQS does not have: `<lead> 'SendMesage'; actions: ...; did you
    mean 'SendMessage'?`."""
    if action in actions:  # the usual case: a lookup, no list to sort
        return
    known = sorted(actions)
    raise ValueError(f"{lead} {action!r}; actions: {', '.join(known)}{did_you_mean(action, known)}")


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
