"""The timeline as SVG: one lane per queue, virtual time across, each message a line.

A message's line runs through the lanes of the queues it was in; a mark stands at each event
(shapes in marks.MARKS), with a hover `<title>` that says what the text timeline says. The output
depends only on the input (no clock, no randomness): tests parse it and compare its structure.
No script: a browser or an image viewer shows it as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from .marks import LINE_STYLES, MARKS, OTHER, PALETTE, STYLE
from .markup import duration, escape, number, offset, plural, seconds_between, short_id

if TYPE_CHECKING:
    from ..fake.records import HistoryEvent

# What a message is doing after an event, until the next one (a line style each).
_STATE_AFTER = {
    "sent": "visible",
    "arrived from": "visible",
    "received": "in-flight",
    "visibility changed": "in-flight",
    "visible again": "visible",
    "delay ended": "visible",
}
_LEAVES = {"moved to dead-letter queue", "moved back"}  # the next event is in another lane
_ENDS = {"deleted", "expired", "purged", "queue deleted"}

LABEL_WIDTH = 190
AXIS_HEIGHT = 30
TRACK = 26
LANE_HEADER = 20  # the queue's name, above its tracks
LANE_PADDING = 6
LANE_GAP = 6
MIN_GAP = 14  # px between two marks of one message, so events at one moment stay apart
LEGEND_ROW = 22


@dataclass
class _Point:
    x: float
    y: float
    event: HistoryEvent


def timeline_svg(
    histories: Sequence[Sequence[HistoryEvent]],
    *,
    start: datetime,
    now: datetime,
    lanes: Sequence[str] = (),
    other_queues: Sequence[str] = (),
    width: int = 960,
    href: Callable[[str], str] | None = None,
) -> str:
    """The SVG element for these messages (each history oldest first, as `history()` has it).

    Lanes are `lanes` first, then the queues in the order messages reached them, then
    `other_queues` (empty lanes: a dead-letter queue nothing reached says so too); time
    runs from `start` (the fake's start: offsets are counted from it) to `now`. With `href`,
    each message's line links to `href(message_id)`.
    """
    drawn = [list(events) for events in histories if events]
    lane_names = _lane_order(drawn, lanes)
    lane_names += [name for name in dict.fromkeys(other_queues) if name not in lane_names]
    first = min([start, *(events[0].at for events in drawn)])
    last = max([now, *(events[-1].at for events in drawn)])
    span = seconds_between(first, last) or 1.0
    plot_left, plot_right = LABEL_WIDTH + 16, width - 72

    tracks = _tracks(drawn, lane_names)
    lane_top: dict[str, float] = {}
    y = float(AXIS_HEIGHT)
    for name in lane_names:
        lane_top[name] = y
        y += _lane_height(len(tracks[name])) + LANE_GAP
    lanes_bottom = y - LANE_GAP if lane_names else y + 40

    def x_of(moment: datetime) -> float:
        return plot_left + seconds_between(first, moment) / span * (plot_right - plot_left)

    def place(gap: float) -> list[list[_Point]]:
        paths = []
        for events in drawn:
            points: list[_Point] = []
            for event in events:
                x = x_of(event.at)
                if points:
                    x = max(x, points[-1].x + gap)
                track = tracks[event.queue].index(event.message_id)
                points.append(
                    _Point(x, _track_top(lane_top[event.queue], track) + TRACK / 2, event)
                )
            paths.append(points)
        return paths

    paths = place(MIN_GAP)
    if max((p[-1].x for p in paths), default=0) > plot_right + 2 * width:
        paths = place(0)  # hundreds of events close together: true times, marks may overlap
    now_x = x_of(now)
    right = max([plot_right, now_x, *(p[-1].x for p in paths)]) + 72
    legend, legend_height = _legend(paths, lanes_bottom + 18, right - LABEL_WIDTH - 32)
    height = lanes_bottom + 10 + legend_height

    queue_count = plural(len(lane_names), "queue")
    summary = f"{plural(len(drawn), 'message')} in {queue_count} over {duration(span)[1:]}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fakesqs-timeline" '
        f'width="{number(right)}" height="{number(height)}" '
        f'viewBox="0 0 {number(right)} {number(height)}" role="img" '
        f'aria-label="{escape("timeline: " + summary)}">',
        f"<title>{escape('fakesqs timeline: ' + summary)}</title>",
        f"<style>{STYLE}</style>",
    ]
    out += _axis(first, start, span, plot_left, plot_right, lanes_bottom, now_x)
    out += _lanes(lane_names, lane_top, tracks, right)
    if not drawn:
        out.append(
            f'<text class="empty" x="{LABEL_WIDTH + 16}" y="{AXIS_HEIGHT + 24}">'
            "no messages were sent</text>"
        )
    out.append('<g class="messages">')
    for index, points in enumerate(paths):
        out += _message(points, index, start, now_x, href)
    out.append("</g>")
    out.append(
        f'<g class="now"><line x1="{number(now_x)}" y1="{AXIS_HEIGHT - 6}" x2="{number(now_x)}" '
        f'y2="{number(lanes_bottom)}"/><text x="{number(now_x)}" y="{AXIS_HEIGHT - 16}" '
        'text-anchor="middle">'
        f"now {escape(duration(seconds_between(start, now)))}</text>"
        f"<title>now: {escape(now.isoformat())}</title></g>"
    )
    out += legend
    out.append("</svg>")
    return "\n".join(out)


def _lane_order(histories: list[list[HistoryEvent]], lanes: Sequence[str]) -> list[str]:
    names = list(dict.fromkeys(lanes))
    events = sorted(
        (event.at, index, position, event.queue)
        for index, history in enumerate(histories)
        for position, event in enumerate(history)
    )
    for *_, queue in events:
        if queue not in names:
            names.append(queue)
    return names


def _tracks(histories: list[list[HistoryEvent]], lane_names: list[str]) -> dict[str, list[str]]:
    """Per lane, the messages that were in it, in the order they arrived there."""
    tracks: dict[str, list[str]] = {name: [] for name in lane_names}
    arrivals = sorted(
        (event.at, index, event.queue, event.message_id)
        for index, history in enumerate(histories)
        for event in history
    )
    for _, _, queue, message_id in arrivals:
        if message_id not in tracks[queue]:
            tracks[queue].append(message_id)
    return tracks


def _lane_height(track_count: int) -> float:
    return LANE_HEADER + max(1, track_count) * TRACK + LANE_PADDING


def _track_top(lane_top: float, track: int) -> float:
    return lane_top + LANE_HEADER + track * TRACK


def _axis(
    first: datetime,
    start: datetime,
    span: float,
    left: float,
    right: float,
    bottom: float,
    now_x: float,
) -> list[str]:
    step = _tick_step(span)
    before = seconds_between(start, first)  # <= 0: offsets count from the fake's start
    out = ['<g class="axis">']
    tick = 0
    while tick * step <= span + 1e-9:
        seconds = tick * step
        x = left + seconds / span * (right - left)
        label = duration(before + seconds) if before + seconds >= 0 else f"{before + seconds:g}s"
        if abs(x - now_x) < 36 and x != left:
            label = ""  # the "now" label stands there
        out.append(
            f'<line class="tick" x1="{number(x)}" y1="{AXIS_HEIGHT - 4}" x2="{number(x)}" '
            f'y2="{number(bottom)}"/><text class="tick-label" x="{number(x)}" '
            f'y="{AXIS_HEIGHT - 16}" text-anchor="middle">{escape(label)}</text>'
        )
        tick += 1
    out.append("</g>")
    return out


def _tick_step(span: float) -> float:
    steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
    steps += [7200, 10800, 21600, 43200, 86400, 172800, 345600, 604800, 1209600]
    for step in steps:
        if span / step <= 8:
            return step
    return span / 8


def _lanes(
    lane_names: list[str], lane_top: dict[str, float], tracks: dict[str, list[str]], width: float
) -> list[str]:
    out = ['<g class="lanes">']
    for name in lane_names:
        top = lane_top[name]
        count = len(tracks[name])
        out.append(
            f'<g class="lane" data-queue="{escape(name)}">'
            f"<title>{escape('queue ' + name + ': ' + plural(count, 'message'))}</title>"
            f'<rect class="lane-band" x="4" y="{number(top)}" width="{number(width - 8)}" '
            f'height="{number(_lane_height(count))}" rx="4"/>'
            f'<text class="lane-name" x="12" y="{number(top + 16)}">{escape(_cut(name, 26))}</text>'
        )
        for index, message_id in enumerate(tracks[name]):
            y = _track_top(top, index) + TRACK / 2 + 4
            out.append(
                f'<text class="track-label" x="{LABEL_WIDTH - 6}" y="{number(y)}" '
                f'text-anchor="end">{escape(short_id(message_id))}</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message(
    points: list[_Point],
    index: int,
    start: datetime,
    now_x: float,
    href: Callable[[str], str] | None,
) -> list[str]:
    message_id = points[0].event.message_id
    color = PALETTE[index % len(PALETTE)]
    last = points[-1].event
    alive = last.event not in _ENDS and last.event not in _LEAVES
    where = " → ".join(dict.fromkeys(p.event.queue for p in points))
    ended = "still there" if alive else last.event
    title = (
        f"message {message_id}\n{where}; {plural(len(points), 'event')}, "
        f"last at {offset(seconds_between(start, last.at))}: {ended}"
    )
    out = [
        f'<g class="message" data-message-id="{escape(message_id)}" stroke="{color}">'
        f"<title>{escape(title)}</title>"
    ]
    if href is not None:
        out.append(f'<a href="{escape(href(message_id))}">')
    for position, point in enumerate(points):
        following = points[position + 1] if position + 1 < len(points) else None
        segment = _segment(point, following, now_x, alive)
        if segment is not None:
            out.append(segment)
    for point in points:
        out.append(_mark(point, start))
    if href is not None:
        out.append("</a>")
    out.append("</g>")
    return out


def _segment(point: _Point, following: _Point | None, now_x: float, alive: bool) -> str | None:
    event = point.event.event
    if event in _ENDS:
        return None
    if following is None:
        if not alive:
            return None
        end_x, end_y = max(now_x, point.x + 8), point.y
        state = _STATE_AFTER.get(event, "visible")
    else:
        end_x, end_y = following.x, following.y
        if event in _LEAVES or following.event.queue != point.event.queue:
            state = "move"
        elif following.event.event == "delay ended" and event in ("sent", "arrived from"):
            state = "delayed"
        else:
            state = _STATE_AFTER.get(event, "visible")
    return (
        f'<line class="segment {state}" x1="{number(point.x)}" y1="{number(point.y)}" '
        f'x2="{number(end_x)}" y2="{number(end_y)}"/>'
    )


def _mark(point: _Point, start: datetime) -> str:
    event = point.event
    kind, _label, shape = MARKS.get(event.event, (_slug(event.event), event.event, OTHER[0]))
    detail = f" {event.detail}" if event.detail else ""
    title = (
        f"{offset(seconds_between(start, event.at))} {event.queue}: {event.event}{detail}\n"
        f"message {event.message_id}\nat {event.at.isoformat()}"
    )
    label = ""
    if event.event == "received" and event.detail.startswith("#"):
        label = f'<text class="mark-label" y="-9">{escape(event.detail.split()[0])}</text>'
    return (
        f'<g class="mark {kind}" data-event="{escape(event.event)}" '
        f'data-queue="{escape(event.queue)}" transform="translate({number(point.x)} '
        f'{number(point.y)})"><title>{escape(title)}</title>{shape}{label}</g>'
    )


def _slug(event: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in event.lower()).strip("-") or "event"


def _legend(paths: list[list[_Point]], top: float, room: float) -> tuple[list[str], float]:
    """The marks drawn and the line styles, in rows no wider than `room`; and their height."""
    seen = {point.event.event for points in paths for point in points}
    items = [
        (f'data-event="{escape(event)}"', f'<g class="mark {kind}">{shape}</g>', 10, label)
        for event, (kind, label, shape) in MARKS.items()
        if event in seen
    ]
    line = '<line class="segment {0}" x1="0" y1="0" x2="28" y2="0" stroke="#57606a"/>'
    styles = [
        (f'data-line="{state}"', line.format(state), 34, label) for state, label in LINE_STYLES
    ]
    out = [f'<g class="legend" transform="translate({LABEL_WIDTH + 16} {number(top)})">']
    row = 0
    for group in (items, styles):
        x = 0.0
        for attribute, symbol, text_x, label in group:
            width = text_x + 14 + 7 * len(label)
            if x and x + width > room:
                row, x = row + 1, 0.0
            out.append(
                f'<g class="legend-item" {attribute} transform="translate({number(x)} '
                f'{row * LEGEND_ROW})">{symbol}<text x="{text_x}" y="4">{escape(label)}</text></g>'
            )
            x += width
        row += 1
    out.append("</g>")
    return out, row * LEGEND_ROW
