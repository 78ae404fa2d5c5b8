"""The HTML page of one failing test (`--fakesqs-html DIR`): one file, readable offline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .layout import (
    calls_table,
    dead_letters_table,
    document,
    history_table,
    queues_table,
    section,
)
from .markup import escape, offset, plural, seconds_between, short_id
from .svg import timeline_svg

if TYPE_CHECKING:
    from ..fake.snapshot import Snapshot

OTHER_QUEUES = 20  # empty lanes drawn at most: the queues no message drawn was in


def report_page(snapshot: Snapshot, *, test_id: str, failure: str = "") -> str:
    """Queues, dead letters, the timeline, each message's history and every call."""
    start, now = snapshot.started_at, snapshot.now
    since = offset(seconds_between(start, now))
    subtitle = (
        f"clock {snapshot.clock} at {now.isoformat()} ({since} since the test started); "
        f"{plural(snapshot.messages_sent, 'message')} sent, {len(snapshot.not_deleted)} not "
        f"deleted; {plural(snapshot.dead_letters_total, 'dead letter')}; "
        f"{plural(snapshot.calls_made, 'call')}"
    )
    parts = []
    if failure:
        parts.append(section("failure", "Failure", f"<pre>{escape(failure)}</pre>"))
    parts.append(section("queues", "Queues", queues_table(snapshot.queues)))
    letters_note = _last_of(snapshot.dead_letters_total, len(snapshot.dead_letters))
    parts.append(
        section(
            "dead-letters",
            "Dead letters",
            letters_note + dead_letters_table(snapshot.dead_letters, start),
        )
    )
    queues = [queue.name for queue in snapshot.queues][:OTHER_QUEUES]
    svg = timeline_svg(snapshot.histories, start=start, now=now, other_queues=queues)
    note = ""
    if len(snapshot.histories) < snapshot.messages_sent:
        note = (
            f'<p class="note">{len(snapshot.histories)} of {snapshot.messages_sent} messages '
            "drawn: those not deleted first.</p>"
        )
    parts.append(
        section(
            "timeline",
            "Timeline",
            f'{note}<p class="note">Hover a mark for what happened; times count from the '
            f'start of the test.</p>\n<div class="timeline-frame">{svg}</div>',
        )
    )
    parts.append(section("histories", "Message histories", _histories(snapshot)))
    calls_note = _last_of(snapshot.calls_made, len(snapshot.calls))
    parts.append(section("calls", "Calls", calls_note + calls_table(snapshot.calls, start)))
    return document(f"fakesqs: {test_id}", f"fakesqs: {test_id}", subtitle, "\n".join(parts))


def _last_of(total: int, shown: int) -> str:
    return "" if shown >= total else f'<p class="note">the last {shown} of {total}</p>'


def _histories(snapshot: Snapshot) -> str:
    if not snapshot.histories:
        return '<p class="empty">no messages were sent</p>'
    not_deleted = set(snapshot.not_deleted)
    blocks = []
    for events in snapshot.histories:
        message_id = events[0].message_id
        last = events[-1]
        state = "not deleted" if message_id in not_deleted else "deleted"
        where = " → ".join(dict.fromkeys(event.queue for event in events))
        opened = ' open="open"' if message_id in not_deleted else ""
        blocks.append(
            f'<details class="message-history" data-message-id="{escape(message_id)}"{opened}>'
            f"<summary><code>{escape(short_id(message_id))}</code> {escape(where)}: "
            f"{escape(plural(len(events), 'event'))}, last {escape(last.event)} ({state})"
            f"</summary>\n{history_table(events, snapshot.started_at)}</details>"
        )
    return "\n".join(blocks)
