"""The `fakesqs` section of a failed test's report: queue states and unfinished messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..fake.history import describe_message, render_timeline
from ..fake.text import offset, plural

if TYPE_CHECKING:
    from ..fake.core import Inspection
    from ..fake.facade import FakeSQS

MESSAGE_LIMIT = 5


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
    lines += _queue_lines(seen)
    lines += _refused_lines(fake)
    lines += _elsewhere_lines(fake)
    lines += _message_lines(seen, verbose=verbose, now=now)
    return "\n".join(lines)


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
    """Calls that found no queue although one of that name lives in another region/account."""
    explained = [call for call in fake.calls() if call.hint is not None]
    if not explained:
        return []
    lines = ["queues not found where the call looked:"]
    for call in explained:
        when = offset(call.at.timestamp() - fake.started_at)
        lines.append(f"  - {when} {call.action} {call.queue}: {call.error_code}: {call.hint}")
    return lines


def _message_lines(seen: Inspection, *, verbose: bool, now: float) -> list[str]:
    log = seen.message_log
    unfinished = log.not_deleted()
    if not log.message_ids():
        return ["no messages were sent"]
    if not unfinished:
        return ["every message sent was deleted"]
    lines = [f"{plural(len(unfinished), 'message')} not deleted:"]
    shown = unfinished if verbose else unfinished[:MESSAGE_LIMIT]
    for message_id in shown:
        queue_name, message = log.latest(message_id)
        lines.append("  " + describe_message(message, queue_name, verbose=verbose, now=now))
        timeline = render_timeline(
            log.events(message_id), started_at=seen.started_at, verbose=verbose
        )
        lines += [f"    {line}" for line in timeline]
    if len(shown) < len(unfinished):
        lines.append(f"  … and {len(unfinished) - len(shown)} more (add -v to show all)")
    return lines
