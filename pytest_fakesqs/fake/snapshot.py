"""What the pictures draw, read from a FakeSQS as plain records (peeking changes nothing).

`pictures/` renders these and never sees the façade; the plugin and the server take a snapshot
and hand it over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from ..engine import Queue, State
from .records import Call, DeadLetter, HistoryEvent, moment
from .views import MessageView

if TYPE_CHECKING:
    from .core import Inspection
    from .facade import FakeSQS

MESSAGE_LIMIT = 50
Choice = Literal["not_deleted_first", "recent"]


@dataclass(frozen=True, kw_only=True)
class QueueSummary:
    """One queue: counts, redrive settings and its attributes as GetQueueAttributes has them."""

    name: str
    region: str
    account_id: str
    url: str
    fifo: bool
    visible: int
    in_flight: int
    delayed: int
    dead_letter_queue: str | None  # where its messages go after max_receive_count receives
    max_receive_count: int | None
    dead_letter_sources: tuple[str, ...]  # queues whose dead letters come here
    attributes: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class Snapshot:
    """One moment of a fake, for a picture of it."""

    clock: str
    flavor: str
    started_at: datetime
    now: datetime
    queues: tuple[QueueSummary, ...]
    histories: tuple[tuple[HistoryEvent, ...], ...]  # the messages shown, in the order sent
    messages_sent: int  # every message the fake saw; histories may hold fewer
    not_deleted: tuple[str, ...]  # ids of the messages whose story did not end with a delete
    dead_letters: tuple[DeadLetter, ...]  # the most recent ones, oldest first
    dead_letters_total: int
    calls: tuple[Call, ...]  # the most recent calls, oldest first
    calls_made: int


def _inspection(fake: FakeSQS) -> Inspection:
    from .facade import inspection

    return inspection(fake)


def summarize(fake: FakeSQS, queue: Queue) -> QueueSummary:
    seen = _inspection(fake)
    seen.refresh(queue)
    redrive = queue.settings.redrive
    sources = tuple(
        sorted(
            other.name
            for other in seen.queues()
            if other.settings.redrive is not None
            and other.settings.redrive.dead_letter_queue == queue.key
        )
    )
    return QueueSummary(
        name=queue.name,
        region=queue.key[0],
        account_id=queue.key[1],
        url=seen.url(queue),
        fifo=queue.settings.fifo,
        visible=queue.visible,
        in_flight=queue.in_flight,
        delayed=queue.delayed,
        dead_letter_queue=None if redrive is None else redrive.dead_letter_queue[2],
        max_receive_count=None if redrive is None else redrive.max_receive_count,
        dead_letter_sources=sources,
        attributes=seen.attributes(queue),
    )


def queues(fake: FakeSQS) -> list[Queue]:
    """Every queue, by name then account and region (a stable order for every picture)."""
    return sorted(_inspection(fake).queues(), key=lambda q: (q.name, q.key[1], q.key[0]))


def take_snapshot(
    fake: FakeSQS,
    *,
    message_limit: int = MESSAGE_LIMIT,
    choose: Choice = "not_deleted_first",
    call_limit: int | None = None,
    dead_letter_limit: int | None = None,
) -> Snapshot:
    """The fake now. At most `message_limit` histories: the messages not deleted first (what a
    failing test wants), or the most recent ones (what a dashboard wants)."""
    seen = _inspection(fake)
    log = seen.message_log
    sent = log.message_ids()
    not_deleted = log.not_deleted()
    shown = _choose(sent, not_deleted, message_limit, choose)
    calls_made = seen.calls.count()
    limit = calls_made if call_limit is None else call_limit
    book = seen.dead_letters
    dead_letters, dead_letters_total = book.recent(
        book.count() if dead_letter_limit is None else dead_letter_limit
    )
    return Snapshot(
        clock=fake.options.clock,
        flavor=fake.options.flavor,
        started_at=moment(fake.started_at),
        now=moment(seen.now()),
        queues=tuple(summarize(fake, queue) for queue in queues(fake)),
        histories=tuple(tuple(log.events(message_id)) for message_id in shown),
        messages_sent=len(sent),
        not_deleted=tuple(not_deleted),
        dead_letters=tuple(dead_letters),
        dead_letters_total=dead_letters_total,
        calls=tuple(seen.calls.recent(limit)),
        calls_made=calls_made,
    )


def _choose(sent: list[str], not_deleted: list[str], limit: int, choose: Choice) -> list[str]:
    if len(sent) <= limit:
        return sent
    if choose == "recent":
        return sent[-limit:] if limit > 0 else []
    chosen = set(not_deleted[:limit])
    for message_id in sent:
        if len(chosen) >= limit:
            break
        chosen.add(message_id)
    return [message_id for message_id in sent if message_id in chosen]


def peek(fake: FakeSQS, queue: Queue, limit: int) -> tuple[list[MessageView], int]:
    """Up to `limit` live messages of `queue` in arrival order, and how many there are."""
    states = _inspection(fake).states(queue)
    live = [m for s in (State.VISIBLE, State.IN_FLIGHT, State.DELAYED) for m in states[s]]
    live.sort(key=lambda m: m.sequence)
    return [MessageView.of(m) for m in live[:limit]], len(live)


def where_now(fake: FakeSQS, message_id: str) -> tuple[str, MessageView] | None:
    """The queue a message is in and a view of it, or None once it is gone."""
    try:
        queue_name, message = _inspection(fake).message_log.latest(message_id)
    except LookupError:
        return None
    if message.state is State.GONE:
        return None
    return queue_name, MessageView.of(message)
