"""The `fakesqs` section of a failed test's report: queue states and unfinished messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.errors import ErrorCode
from ..fake.history import describe_duplicate, describe_message, render_timeline
from ..fake.records import HistoryEvent
from ..fake.text import offset, plural

if TYPE_CHECKING:
    from ..engine import Message
    from ..fake.core import Inspection
    from ..fake.facade import FakeSQS

MESSAGE_LIMIT = 5
FAULT_LIMIT = 10
_NOT_FOUND = ErrorCode.QueueDoesNotExist.spec.query_code


def report_section(fake: FakeSQS, *, verbose: bool) -> str:
    from ..fake.facade import inspection

    seen = inspection(fake)
    now = seen.now()
    lines = [
        f"clock {fake.options.clock} at {fake.now().isoformat()} "
        f"({offset(now - fake.started_at)} since the test started)"
    ]
    if fake.uses_randomness:
        lines.append(
            f"seed {fake.seed}: @pytest.mark.fakesqs(seed={fake.seed}) repeats this test's "
            "random choices"
        )
    if seen.sleep_hint is not None:
        lines.append(seen.sleep_hint)
    lines += _queue_lines(seen)
    lines += _refused_lines(fake)
    lines += _elsewhere_lines(fake)
    lines += _message_lines(seen, verbose=verbose, now=now)
    lines += _fault_lines(fake)
    return "\n".join(lines)


def _fault_lines(fake: FakeSQS) -> list[str]:
    fired = fake.fired_faults()
    if not fired:
        return []
    lines = [f"faults that fired ({len(fired)}):"]
    lines += [f"  {text}" for text in fired[:FAULT_LIMIT]]
    if len(fired) > FAULT_LIMIT:
        lines.append(f"  … and {len(fired) - FAULT_LIMIT} more (fakesqs.fired_faults())")
    return lines


def _refused_lines(fake: FakeSQS) -> list[str]:
    refused = fake.refused_deliveries()
    if not refused:
        return []
    count = "1 delivery" if len(refused) == 1 else f"{len(refused)} deliveries"
    lines = [f"{count} refused by a queue policy, and dropped as on AWS:"]
    for delivery in refused:
        when = offset(delivery.at.timestamp() - fake.started_at)
        lines.append(f"  {when} {delivery}")
    return lines


def _queue_lines(seen: Inspection) -> list[str]:
    queues = sorted(seen.queues(), key=lambda q: (q.name, q.key))
    if not queues:
        return ["no queues"]
    regions = {queue.key[0] for queue in queues}
    accounts = {queue.key[1] for queue in queues}
    lines = ["queues:"]
    for queue in queues:
        # Where the queue lives, once that tells queues apart (one region is the usual case).
        where = [queue.key[0]] if len(regions) > 1 else []
        where += [queue.key[1]] if len(accounts) > 1 else []
        label = f"{queue.name} ({' / '.join(where)})" if where else queue.name
        seen.refresh(queue)
        redrive = queue.settings.redrive
        dead_letters = (
            ""
            if redrive is None
            else f"; dead-letters to {redrive.dead_letter_queue[2]} after "
            f"{plural(redrive.max_receive_count, 'receive')}"
        )
        lines.append(
            f"  {label}: {queue.visible} visible, {queue.in_flight} in flight, "
            f"{queue.delayed} delayed{dead_letters}"
        )
    return lines


def _elsewhere_lines(fake: FakeSQS) -> list[str]:
    """Failed calls the fake can explain: a queue that lives in another region or account, a
    misspelt attribute name (AWS's text stays as it was; the hint line is the fake's)."""
    explained = [call for call in fake.calls() if call.hint is not None]
    not_found = [call for call in explained if call.error_code == _NOT_FOUND]
    others = [call for call in explained if call.error_code != _NOT_FOUND]
    lines = []
    if not_found:
        lines.append("queues not found where the call looked:")
        for call in not_found:
            when = offset(call.at.timestamp() - fake.started_at)
            lines.append(f"  - {when} {call.action} {call.queue}: {call.error_code}: {call.hint}")
    if others:
        lines.append("calls refused:")
        for call in others:
            when = offset(call.at.timestamp() - fake.started_at)
            where = f" {call.queue}" if call.queue else ""
            lines.append(
                f"  - {when} {call.action}{where}: {call.error_code}: {call.error_message}"
            )
            lines.append(f"      hint: {call.hint}")
    return lines


def _message_lines(seen: Inspection, *, verbose: bool, now: float) -> list[str]:
    log = seen.message_log
    if not log.message_ids():
        return ["no messages were sent"]
    unfinished = log.not_deleted()
    duplicates = log.duplicates_not_deleted()
    lines: list[str] = []
    if unfinished:
        lines.append(f"{plural(len(unfinished), 'message')} not deleted:")
        shown = unfinished if verbose else unfinished[:MESSAGE_LIMIT]
        for message_id in shown:
            queue_name, message = log.latest(message_id)
            lines.append("  " + describe_message(message, queue_name, verbose=verbose, now=now))
            lines += _timeline(seen, log.events(message_id), verbose=verbose)
        if len(shown) < len(unfinished):
            lines.append(f"  … and {len(unfinished) - len(shown)} more (add -v to show all)")
    elif not duplicates:
        return ["every message sent was deleted"]
    if duplicates:
        lines += _duplicate_lines(seen, duplicates, verbose=verbose, now=now, alone=not lines)
    return lines


def _duplicate_lines(
    seen: Inspection,
    duplicates: list[tuple[str, Message]],
    *,
    verbose: bool,
    now: float,
    alone: bool,
) -> list[str]:
    """Injected second deliveries (duplicate_delivery, duplicate_next) left undeleted: each
    is its own copy of a message, with its own fate (received, expired, still waiting)."""
    count = plural(len(duplicates), "injected duplicate")
    # Never "every message sent was deleted" here: a copy that expired unreceived is the
    # point (the consumer never saw SQS deliver it twice).
    lines = [f"{count} not deleted{' (the messages themselves were)' if alone else ''}:"]
    shown = duplicates if verbose else duplicates[:MESSAGE_LIMIT]
    for queue_name, copy in shown:
        lines.append("  " + describe_duplicate(copy, queue_name, verbose=verbose, now=now))
        lines += _timeline(seen, seen.message_log.copy_events(queue_name, copy), verbose=verbose)
    if len(shown) < len(duplicates):
        lines.append(f"  … and {len(duplicates) - len(shown)} more (add -v to show all)")
    return lines


def _timeline(seen: Inspection, events: list[HistoryEvent], *, verbose: bool) -> list[str]:
    timeline = render_timeline(events, started_at=seen.started_at, verbose=verbose)
    return [f"    {line}" for line in timeline]
