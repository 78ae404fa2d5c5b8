"""The read-only dashboard of `fakesqs serve` (`GET /_fakesqs/`): its addresses and its pages.

Plain server-side HTML, rendered afresh on every request (reload to refresh); no script.
`route()` reads an address, the `*_page` functions draw what the server looked up for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from .layout import (
    calls_table,
    cell,
    dead_letters_table,
    document,
    history_table,
    messages_table,
    queues_table,
    redrive,
    section,
    table,
)
from .markup import escape, offset, plural, seconds_between
from .svg import timeline_svg

if TYPE_CHECKING:
    from ..fake.records import DeadLetter, HistoryEvent
    from ..fake.snapshot import QueueSummary, Snapshot
    from ..fake.views import MessageView

BASE = "/_fakesqs/"
RECENT_CALLS = 50
RECENT_MESSAGES = 20
RECENT_DEAD_LETTERS = 50
ALL_DEAD_LETTERS = 1000
PEEK_LIMIT = 100


@dataclass(frozen=True)
class Route:
    """What an address under BASE asks for: page is "overview", "queue", "message", "dead
    letters", "redirect" or "not found"; `key` the (region, account, name) of a queue, the
    message id, or where to go."""

    page: str
    key: tuple[str, ...] = ()


def route(path: str) -> Route | None:
    """The page `path` (with any query) names; None for paths the dashboard does not serve."""
    path = path.partition("?")[0].partition("#")[0]
    if path == BASE.rstrip("/"):
        return Route("redirect", (BASE,))
    if not path.startswith(BASE):
        return None
    parts = [unquote(part) for part in path[len(BASE) :].split("/")]
    if parts[-1] == "":
        parts.pop()
    if parts and parts[0] == "health":
        return None  # the health check answers there
    if not parts:
        return Route("overview")
    if parts[0] == "queues" and len(parts) == 4 and all(parts[1:]):
        return Route("queue", tuple(parts[1:]))
    if parts[0] == "messages" and len(parts) == 2 and parts[1]:
        return Route("message", (parts[1],))
    if parts == ["dead-letters"]:
        return Route("dead letters")
    return Route("not found", (path,))


def queue_href(queue: QueueSummary) -> str:
    names = (queue.region, queue.account_id, queue.name)
    return BASE + "queues/" + "/".join(quote(name, safe="") for name in names)


DEAD_LETTERS_HREF = BASE + "dead-letters"


def message_href(message_id: str) -> str:
    return BASE + "messages/" + quote(message_id, safe="")


def _nav(here: str) -> str:
    return (
        f'<nav><a href="{BASE}">Overview</a><a href="{escape(here)}" class="refresh">'
        "Refresh</a></nav>\n"
    )


def _clock_line(snapshot_clock: str, start: datetime, now: datetime) -> str:
    since = offset(seconds_between(start, now))
    return f"clock {snapshot_clock} at {now.isoformat()} ({since} since the fake started)"


def overview_page(snapshot: Snapshot, *, endpoint: str) -> str:
    """Every queue with its counts and redrive settings, recent dead letters, the timeline of
    the most recent messages and the most recent calls."""
    start, now = snapshot.started_at, snapshot.now
    subtitle = (
        f"SQS at {endpoint} · {_clock_line(snapshot.clock, start, now)} · "
        f"{plural(snapshot.messages_sent, 'message')} sent · "
        f"{plural(snapshot.calls_made, 'call')}"
    )
    svg = timeline_svg(snapshot.histories, start=start, now=now, href=message_href)
    drawn = len(snapshot.histories)
    parts = [
        section("queues", "Queues", queues_table(snapshot.queues, queue_href)),
        section(
            "dead-letters",
            "Dead letters",
            _last_of(snapshot.dead_letters_total, len(snapshot.dead_letters), "dead letters")
            + dead_letters_table(snapshot.dead_letters, start, message_href)
            + f'<p><a href="{DEAD_LETTERS_HREF}" class="all">All dead letters, with their '
            "timeline</a></p>",
        ),
        section(
            "timeline",
            "Timeline",
            _last_of(snapshot.messages_sent, drawn, "messages")
            + '<p class="note">Hover a mark for what happened, click a line for the message.</p>'
            + f'\n<div class="timeline-frame">{svg}</div>',
        ),
        section(
            "calls",
            "Recent calls",
            _last_of(snapshot.calls_made, len(snapshot.calls), "calls")
            + calls_table(snapshot.calls, start),
        ),
    ]
    return document(
        "fakesqs dashboard", "fakesqs dashboard", subtitle, "\n".join(parts), _nav(BASE)
    )


def _last_of(total: int, shown: int, noun: str) -> str:
    if total <= shown:
        return ""
    return f'<p class="note">the last {shown} of {total} {noun}</p>'


def queue_page(
    queue: QueueSummary,
    *,
    messages: Sequence[MessageView],
    total: int,
    histories: Sequence[Sequence[HistoryEvent]],
    dead_letters: Sequence[DeadLetter],
    start: datetime,
    now: datetime,
    clock: str,
) -> str:
    """One queue: its settings and attributes, its messages (peeked: receive counts stay as
    they are), a timeline of them and the dead letters it sent or holds."""
    kind = "FIFO queue" if queue.fifo else "queue"
    subtitle = (
        f"{queue.url} · {queue.visible} visible, {queue.in_flight} in flight, "
        f"{queue.delayed} delayed · {_clock_line(clock, start, now)}"
    )
    settings = [
        "<tr>" + cell("Redrive") + cell(redrive(queue), css="redrive") + "</tr>",
        *(
            "<tr>" + cell(name) + cell(value, css="attribute") + "</tr>"
            for name, value in sorted(queue.attributes.items())
        ),
    ]
    shown = (
        f'<p class="note">the first {len(messages)} of {total} messages</p>'
        if total > len(messages)
        else ""
    )
    svg = timeline_svg(histories, start=start, now=now, lanes=[queue.name], href=message_href)
    parts = [
        section("messages", "Messages", shown + messages_table(messages, start, message_href)),
        section("timeline", "Timeline", f'<div class="timeline-frame">{svg}</div>'),
        section(
            "dead-letters", "Dead letters", dead_letters_table(dead_letters, start, message_href)
        ),
        section("attributes", "Settings", table("attributes", ("Name", "Value"), settings, "")),
    ]
    return document(
        f"fakesqs: {queue.name}",
        f"{kind} {queue.name}",
        subtitle,
        "\n".join(parts),
        _nav(queue_href(queue)),
    )


def message_page(
    message_id: str,
    events: Sequence[HistoryEvent],
    *,
    current: MessageView | None,
    queue: str | None,
    start: datetime,
    now: datetime,
    clock: str,
) -> str:
    """One message: where it is now, its timeline across queues and its history as a table."""
    if current is not None and queue is not None:
        where = (
            f"in {queue}: {current.state.replace('_', ' ')}, "
            f"received {plural(current.receive_count, 'time')}"
        )
    else:
        where = f"gone: {events[-1].event}" if events else "unknown"
    subtitle = f"{where} · {_clock_line(clock, start, now)}"
    svg = timeline_svg([events], start=start, now=now)
    parts = [
        section("timeline", "Timeline", f'<div class="timeline-frame">{svg}</div>'),
        section("history", "History", history_table(events, start)),
    ]
    if current is not None:
        parts.append(section("body", "Body", f"<pre>{escape(current.body)}</pre>"))
    return document(
        f"fakesqs: message {message_id}",
        f"message {message_id}",
        subtitle,
        "\n".join(parts),
        _nav(message_href(message_id)),
    )


def dead_letters_page(snapshot: Snapshot) -> str:
    """Every dead letter (the most recent ALL_DEAD_LETTERS) and the timeline of the latest."""
    start, now = snapshot.started_at, snapshot.now
    total = snapshot.dead_letters_total
    subtitle = f"{plural(total, 'dead letter')} · {_clock_line(snapshot.clock, start, now)}"
    histories = [letter.history for letter in snapshot.dead_letters[-RECENT_MESSAGES:]]
    svg = timeline_svg(histories, start=start, now=now, href=message_href)
    parts = [
        section(
            "timeline",
            "Timeline",
            _last_of(len(snapshot.dead_letters), len(histories), "dead letters")
            + f'<div class="timeline-frame">{svg}</div>',
        ),
        section(
            "dead-letters",
            "Dead letters",
            _last_of(total, len(snapshot.dead_letters), "dead letters")
            + dead_letters_table(snapshot.dead_letters, start, message_href),
        ),
    ]
    return document(
        "fakesqs: dead letters", "dead letters", subtitle, "\n".join(parts), _nav(DEAD_LETTERS_HREF)
    )


def not_found_page(text: str, *, heading: str = "Not found") -> str:
    """A 404 (or, with `heading="Error"`, a 500) page that says what was not there."""
    section_id = heading.lower().replace(" ", "-")
    body = section(
        section_id,
        heading,
        f'<p>{escape(text)}</p><p><a href="{BASE}">Back to the overview</a></p>',
    )
    return document(
        f"fakesqs: {heading.lower()}", "fakesqs dashboard", heading.lower(), body, _nav(BASE)
    )
