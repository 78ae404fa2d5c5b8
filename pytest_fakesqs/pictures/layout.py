"""The HTML around the pictures: one self-contained document (inline CSS, no script, no
fonts or images from elsewhere) and the tables the report page and the dashboard share."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from .markup import escape, offset, plural, seconds_between, short_id

if TYPE_CHECKING:
    from ..fake.records import Call, DeadLetter, HistoryEvent
    from ..fake.snapshot import QueueSummary
    from ..fake.views import MessageView

Link = Callable[[str], str]
BODY_LIMIT = 80
PARAMS_LIMIT = 160

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#24292f;
background:#fff;font-size:14px}
header{background:#24292f;color:#fff;padding:12px 24px}
header h1{font-size:18px;margin:0 0 4px}
header p{margin:0;color:#d0d7de}
header a,nav a{color:#fff}
nav{padding:6px 24px;background:#32383f;font-size:13px}
nav a{margin-right:16px}
main{padding:8px 24px 32px}
section{margin-top:18px}
h2{font-size:16px;border-bottom:1px solid #d8dee4;padding-bottom:4px;margin:0 0 8px}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.number{text-align:right;font-variant-numeric:tabular-nums}
tr.error td{background:#fff1f0}
code,pre,.id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:24em;border:1px solid #d0d7de}
.timeline-frame{overflow-x:auto;border:1px solid #d0d7de;padding:4px;background:#fff}
.note{color:#57606a}
.empty{color:#57606a;font-style:italic}
details{margin:4px 0}
summary{cursor:pointer}
"""


def document(title: str, heading: str, subtitle: str, body: str, nav: str = "") -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        '<meta name="generator" content="pytest-fakesqs"/>\n'
        '<link rel="icon" href="data:,"/>\n'  # no favicon request (to the SQS endpoint)
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<header><h1>{escape(heading)}</h1><p>{escape(subtitle)}</p></header>\n"
        f"{nav}<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def section(section_id: str, heading: str, content: str) -> str:
    return f'<section id="{section_id}">\n<h2>{escape(heading)}</h2>\n{content}\n</section>'


def table(table_class: str, headers: Sequence[str], rows: Sequence[str], empty: str) -> str:
    if not rows:
        return f'<p class="empty">{escape(empty)}</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return (
        f'<table class="{table_class}">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>"
    )


def cell(text: object, *, css: str = "", title: str = "") -> str:
    attributes = (f' class="{css}"' if css else "") + (f' title="{escape(title)}"' if title else "")
    return f"<td{attributes}>{escape(text)}</td>"


def link_cell(text: str, href: str | None, *, css: str = "", title: str = "") -> str:
    if href is None:
        return cell(text, css=css, title=title)
    attributes = (f' class="{css}"' if css else "") + (f' title="{escape(title)}"' if title else "")
    return f'<td{attributes}><a href="{escape(href)}">{escape(text)}</a></td>'


def when(moment: datetime, start: datetime) -> str:
    return cell(offset(seconds_between(start, moment)), css="number", title=moment.isoformat())


def abridged(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + f"… ({len(text)} chars)"


def redrive(queue: QueueSummary) -> str:
    parts = []
    if queue.dead_letter_queue is not None:
        receives = plural(queue.max_receive_count or 0, "receive")
        parts.append(f"dead-letters to {queue.dead_letter_queue} after {receives}")
    if queue.dead_letter_sources:
        parts.append("dead-letter queue of " + ", ".join(queue.dead_letter_sources))
    return "; ".join(parts) or "—"


def queues_table(
    queues: Sequence[QueueSummary], queue_link: Callable[[QueueSummary], str] | None = None
) -> str:
    rows = []
    for queue in queues:
        href = None if queue_link is None else queue_link(queue)
        rows.append(
            f'<tr data-queue="{escape(queue.name)}">'
            + link_cell(queue.name, href, title=queue.url)
            + cell("FIFO" if queue.fifo else "standard")
            + cell(queue.visible, css="number visible")
            + cell(queue.in_flight, css="number in-flight")
            + cell(queue.delayed, css="number delayed")
            + cell(redrive(queue), css="redrive")
            + "</tr>"
        )
    headers = ("Queue", "Type", "Visible", "In flight", "Delayed", "Redrive")
    return table("queues", headers, rows, "no queues")


def dead_letters_table(
    dead_letters: Sequence[DeadLetter], start: datetime, message_link: Link | None = None
) -> str:
    rows = []
    for letter in dead_letters:
        href = None if message_link is None else message_link(letter.message_id)
        rows.append(
            f'<tr data-message-id="{escape(letter.message_id)}">'
            + link_cell(short_id(letter.message_id), href, css="id", title=letter.message_id)
            + cell(letter.source_queue)
            + cell(letter.queue)
            + cell(letter.receive_count, css="number")
            + when(letter.moved_at, start)
            + cell(abridged(letter.body, BODY_LIMIT), css="body", title=letter.body)
            + "</tr>"
        )
    headers = ("Message", "From", "Dead-letter queue", "Receives", "Moved at", "Body")
    return table("dead-letters", headers, rows, "no dead letters")


def calls_table(calls: Sequence[Call], start: datetime) -> str:
    rows = []
    for call in calls:
        params = {k: v for k, v in call.params.items() if k != "QueueUrl"}
        shown = abridged(_compact(params), PARAMS_LIMIT)
        outcome = call.outcome + (" (injected)" if call.injected else "")
        css = "" if call.ok else ' class="error"'
        rows.append(
            f'<tr{css} data-action="{escape(call.action)}">'
            + when(call.at, start)
            + cell(call.action)
            + cell(call.queue or "—")
            + cell(outcome, title=call.error_message or "")
            + cell(shown, css="params")
            + "</tr>"
        )
    headers = ("At", "Action", "Queue", "Outcome", "Parameters")
    return table("calls", headers, rows, "no calls")


def messages_table(
    messages: Sequence[MessageView], start: datetime, message_link: Link | None = None
) -> str:
    rows = []
    for message in messages:
        href = None if message_link is None else message_link(message.message_id)
        rows.append(
            f'<tr data-message-id="{escape(message.message_id)}">'
            + link_cell(short_id(message.message_id), href, css="id", title=message.message_id)
            + cell(message.state.replace("_", " "), css="state")
            + cell(message.receive_count, css="number receive-count")
            + when(message.sent_at, start)
            + when(message.visible_at, start)
            + cell(message.group_id or "—")
            + cell(abridged(message.body, BODY_LIMIT), css="body", title=message.body)
            + "</tr>"
        )
    headers = ("Message", "State", "Receives", "Sent", "Visible at", "Group", "Body")
    return table("messages", headers, rows, "no messages in this queue")


def history_table(events: Sequence[HistoryEvent], start: datetime) -> str:
    rows = [
        f'<tr data-event="{escape(event.event)}">'
        + when(event.at, start)
        + cell(event.queue)
        + cell(event.event)
        + cell(event.detail)
        + "</tr>"
        for event in events
    ]
    return table("history", ("At", "Queue", "Event", "Detail"), rows, "no events")


def _compact(params: dict[str, object]) -> str:
    return json.dumps(params, sort_keys=True, ensure_ascii=False, default=str)
