"""Dead letters: what reached a dead-letter queue, assertions on it, the teardown check."""

from __future__ import annotations

import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import Delivery, Event, Message, Queue, State
from .history import MessageLog, render_timeline
from .records import PRIVATE, DeadLetter, HistoryEvent, moment
from .text import BODY_LIMIT, abridge, plural, see, short_id
from .views import MessageView

if TYPE_CHECKING:
    from .directory import QueueDirectory

Matcher = str | re.Pattern[str] | Callable[[DeadLetter], bool]
CANDIDATE_LIMIT = 10


@dataclass(frozen=True, slots=True)
class _Move:
    source: str
    queue: str
    message: Message  # the copy in the dead-letter queue
    receive_count: int
    first_received_at: float
    moved_at: float


class DeadLetterBook:
    """Listens for dead-letter moves; remembers which ones a test asserted on."""

    def __init__(
        self,
        directory: QueueDirectory,
        log: MessageLog,
        started_at: float,
        *,
        limit: int | None = None,
    ) -> None:
        self._directory = directory
        self._started_at = started_at
        self._log = log
        self._lock = threading.Lock()
        # With a limit (history_limit), the latest `limit` moves; `_dropped` counts the older
        # ones, so a move's number (what `_asserted` holds) stays its position since the start.
        self._limit = limit
        self._moves: deque[_Move] = deque()
        self._dropped = 0
        self._asserted: set[int] = set()
        directory.broker.dead_letter_listeners.append(self._moved)

    def _moved(self, source: Queue, target: Queue, message: Message) -> None:
        arrival = _latest_arrival(message)
        if arrival is None or arrival[1] is not Event.ARRIVED_FROM:
            return  # moved back by a redrive, not dead-lettered
        move = _Move(
            source.name,
            target.name,
            message,
            message.receive_count,
            message.first_received_at or message.sent_at,
            arrival[0],
        )
        with self._lock:
            self._moves.append(move)
            if self._limit is not None and len(self._moves) > self._limit:
                self._moves.popleft()
                self._asserted.discard(self._dropped)
                self._dropped += 1

    # -- records -------------------------------------------------------------------------------

    def _record(self, move: _Move) -> DeadLetter:
        message = move.message
        delivery = Delivery(message, "", move.receive_count, move.first_received_at)
        rendered = self._directory.service.render_delivery(delivery, {"All"}, [])
        return DeadLetter(
            body=message.body,
            message_id=message.message_id,
            message_attributes=MessageView.of(message).message_attributes,
            attributes=dict(rendered.get("Attributes", {})),
            source_queue=move.source,
            queue=move.queue,
            receive_count=move.receive_count,
            moved_at=moment(move.moved_at),
            history=self._history(message.message_id),
            _token=PRIVATE,
        )

    def _history(self, message_id: str) -> tuple[HistoryEvent, ...]:
        try:
            return tuple(self._log.events(message_id))
        except LookupError:  # finished long ago and forgotten (history_limit)
            return ()

    def _in_scope(self, queue: str | None) -> list[tuple[int, _Move]]:
        with self._lock:
            moves = list(enumerate(self._moves, self._dropped))
        if queue is None:
            return moves
        name = self._directory.name(queue)
        return [(i, m) for i, m in moves if name in (m.queue, m.source)]

    def dead_letters(self, queue: str | None = None) -> list[DeadLetter]:
        return [self._record(move) for _, move in self._in_scope(queue)]

    def count(self) -> int:
        with self._lock:
            return len(self._moves)

    def recent(self, limit: int) -> tuple[list[DeadLetter], int]:
        """The last `limit` dead letters (only those are rendered) and how many there are."""
        with self._lock:
            moves = list(self._moves)
        shown = moves[-limit:] if limit > 0 else []
        return [self._record(move) for move in shown], len(moves)

    # -- assertions ----------------------------------------------------------------------------

    def assert_dead_lettered(self, query: DeadLetterQuery) -> list[DeadLetter]:
        __tracebackhide__ = True
        scope = self._in_scope(query.queue)
        matched: list[tuple[int, DeadLetter]] = []
        rejected: list[tuple[DeadLetter, str]] = []
        for index, move in scope:
            record = self._record(move)
            reason = query.rejects(record)
            if reason is None:
                matched.append((index, record))
            else:
                rejected.append((record, reason))
        if query.satisfied_by(len(matched)):
            with self._lock:
                self._asserted.update(index for index, _ in matched)
            return [record for _, record in matched]
        raise AssertionError(self._mismatch(query, matched, rejected))

    def _mismatch(
        self,
        query: DeadLetterQuery,
        matched: list[tuple[int, DeadLetter]],
        rejected: list[tuple[DeadLetter, str]],
    ) -> str:
        queue, body, info, verbose = query.queue, query.body, query.info, query.verbose
        found = "none" if not matched else f"{len(matched)}:"
        lines = [
            f"assert_dead_lettered: expected {query.wanted()}{query.criteria()}, found {found}"
        ]
        lines += [f"  - {_line(record, verbose)}" for _, record in matched]
        if info:
            lines.append(f"info: {info}")
        if rejected:
            lines.append(f"{plural(len(rejected), 'other dead letter')} did not match:")
            shown = rejected if verbose else rejected[:CANDIDATE_LIMIT]
            lines += [f"  - {_line(record, verbose)}: {why}" for record, why in shown]
            if len(shown) < len(rejected):
                lines.append(f"  … and {len(rejected) - len(shown)} more (add -v to list all)")
            if body is not None and not matched:
                lines.append("body= compares whole bodies; match= takes a regex or a callable.")
        elif not matched:
            lines += self._why_nothing_moved(queue)
        if not verbose and any(
            _is_cut(r.body) for r, _ in rejected + [(m, "") for _, m in matched]
        ):
            lines.append(f"Bodies are cut to {BODY_LIMIT} characters; add -v to see them whole.")
        lines.append(see("dead_letters"))
        return "\n".join(lines)

    def _why_nothing_moved(self, queue: str | None) -> list[str]:
        where = "" if queue is None else f" for {self._directory.name(queue)}"
        lines = [f"No message reached a dead-letter queue{where} during this test."]
        sources = [q for q in self._directory.broker.queues() if q.settings.redrive is not None]
        if not sources:
            lines.append(
                "No queue has a dead-letter queue; declare one with @pytest.mark.fakesqs(queues="
                '{"orders": {"dlq": "orders-dlq", "max_receive_count": 5}, "orders-dlq": {}}).'
            )
            return lines
        in_flight = False
        for source in sorted(sources, key=lambda q: q.name):
            assert source.settings.redrive is not None
            limit = source.settings.redrive.max_receive_count
            live = self._directory.broker.states(source)
            in_flight = in_flight or bool(live[State.IN_FLIGHT])
            counts = [m.receive_count for s in State if s is not State.GONE for m in live[s]]
            dlq = source.settings.redrive.dead_letter_queue[2]
            lines.append(
                f"{source.name} dead-letters a message to {dlq} on the receive after its "
                f"{_ordinal(limit)} (maxReceiveCount {limit}); "
                + (
                    f"its most-received message has been received {_times(max(counts))}."
                    if counts
                    else f"{source.name} has no messages left."
                )
            )
        if in_flight:  # the usual reason a count stopped short: the test waited for nothing
            lines.append(
                "fakesqs.advance_to_next_event() makes in-flight messages visible again without "
                "waiting."
            )
        return lines

    def assert_no_dead_letters(self, queue: str | None, verbose: bool) -> None:
        __tracebackhide__ = True
        scope = self._in_scope(queue)
        if not scope:
            return
        where = "" if queue is None else f" for {self._directory.name(queue)}"
        lines = [f"assert_no_dead_letters: expected no dead letters{where}, found {len(scope)}:"]
        lines += self._listing([self._record(move) for _, move in scope], verbose)
        lines.append(
            "A message moves to its dead-letter queue on the receive after its "
            "maxReceiveCount-th; fakesqs.history(message_id) shows each step."
        )
        lines.append(see("dead_letters"))
        raise AssertionError("\n".join(lines))

    def _listing(self, records: list[DeadLetter], verbose: bool) -> list[str]:
        lines = []
        started_at = self._started_at
        for record in records:
            lines.append(f"  - {_line(record, verbose)}")
            timeline = render_timeline(list(record.history), started_at=started_at, verbose=verbose)
            lines += [f"      {line}" for line in timeline]
        return lines

    # -- teardown ------------------------------------------------------------------------------

    def unasserted_report(self, verbose: bool) -> str | None:
        """The teardown error text for dead letters no assertion claimed, or None."""
        with self._lock:
            pending = [
                m for i, m in enumerate(self._moves, self._dropped) if i not in self._asserted
            ]
        if not pending:
            return None
        records = [self._record(move) for move in pending]
        noun = plural(len(records), "dead letter")
        verb = "was" if len(records) == 1 else "were"
        lines = [f"fakesqs: {noun} {verb} never asserted on (assert_dlq_empty is on):"]
        lines += [f"  - {_line(record, verbose)}" for record in records]
        lines.append(
            "Assert on them with fakesqs.assert_dead_lettered(...), or turn the check off with "
            "@pytest.mark.fakesqs(assert_dlq_empty=False)."
        )
        lines.append(see("dead_letters"))
        return "\n".join(lines)


def _latest_arrival(message: Message) -> tuple[float, Event] | None:
    for at, event, _detail in reversed(message.history):
        if event in (Event.ARRIVED_FROM, Event.MOVED_BACK):
            return at, event
    return None


@dataclass(frozen=True, slots=True)
class DeadLetterQuery:
    """What one assert_dead_lettered asks, in the fake and in contract mode: which dead letters
    match, how many must, and the words a failure message describes them with."""

    queue: str | None = None  # the dead-letter queue or its source; None: every queue
    body: str | None = None  # the whole body
    match: Matcher | None = None  # a regex searched in the body, or a predicate
    count: int | None = None  # None: at least one
    info: str | None = None  # the test's own words, shown on failure
    verbose: bool = False

    def rejects(self, record: DeadLetter) -> str | None:
        """Why `record` does not match, or None when it does."""
        return _why_not(record, self.body, self.match)

    def satisfied_by(self, matched: int) -> bool:
        return matched >= 1 if self.count is None else matched == self.count

    def wanted(self) -> str:
        return "at least 1 dead letter" if self.count is None else plural(self.count, "dead letter")

    def criteria(self) -> str:
        return _criteria(self.queue, self.body, self.match, self.verbose)


def _why_not(record: DeadLetter, body: str | None, match: Matcher | None) -> str | None:
    if body is not None and record.body != body:
        return "body differs"
    if match is None:
        return None
    if callable(match) and not isinstance(match, re.Pattern):
        try:
            accepted = match(record)
        except Exception as error:  # the test's own predicate: report, don't crash the listing
            return f"match raised {type(error).__name__}: {error}"
        return None if accepted else f"{_callable_name(match)} returned {accepted!r}"
    pattern = re.compile(match) if isinstance(match, str) else match
    if pattern.search(record.body) is None:
        return f"body does not match /{pattern.pattern}/"
    return None


def _criteria(queue: str | None, body: str | None, match: Matcher | None, verbose: bool) -> str:
    parts = []
    if body is not None:
        parts.append(f" with body {abridge(body, verbose=verbose)}")
    if match is not None:
        if callable(match) and not isinstance(match, re.Pattern):
            parts.append(f" accepted by {_callable_name(match)}")
        else:
            pattern = match if isinstance(match, str) else match.pattern
            parts.append(f" with a body matching /{pattern}/")
    if queue is not None:
        parts.append(f" for queue {queue!r}")
    return "".join(parts)


def _line(record: DeadLetter, verbose: bool) -> str:
    return (
        f"{short_id(record.message_id)} from {record.source_queue} to {record.queue} after "
        f"{plural(record.receive_count, 'receive')}, body {abridge(record.body, verbose=verbose)}"
    )


def _callable_name(function: Callable[..., object]) -> str:
    name = getattr(function, "__name__", None) or type(function).__name__
    return f"{name}()" if name != "<lambda>" else "the match lambda"


def _is_cut(body: str) -> bool:
    return len(body) > BODY_LIMIT


def _times(count: int) -> str:
    return {0: "0 times", 1: "once", 2: "twice"}.get(count, f"{count} times")


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"
