"""Dead letters in contract mode: read from the real dead-letter queues, never deleted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..fake.dead_letters import DeadLetterQuery, _line
from ..fake.records import PRIVATE, DeadLetter
from ..fake.text import plural

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .views import ContractQueueView


def read_dead_letters(
    dead_letter_queues: Iterable[tuple[str, ContractQueueView]], test_name: Callable[[str], str]
) -> list[DeadLetter]:
    """Each message now in a dead-letter queue of the test's queues (inspected, not deleted).

    A real endpoint does not say when a message moved: `moved_at` is when it was inspected, and
    `history` is empty.
    """
    records: list[DeadLetter] = []
    now = datetime.now(UTC)
    seen_queues: set[str] = set()
    for source, view in dead_letter_queues:
        if view.url in seen_queues:
            continue
        seen_queues.add(view.url)
        for message in view.inspect():
            source_arn = message.attributes.get("DeadLetterQueueSourceArn", "")
            source_name = test_name(source_arn.rsplit(":", 1)[-1]) if source_arn else source
            records.append(
                DeadLetter(
                    body=message.body,
                    message_id=message.message_id,
                    message_attributes={
                        name: value.get("StringValue", value.get("BinaryValue"))
                        for name, value in message.message_attributes.items()
                    },
                    attributes=dict(message.attributes),
                    source_queue=source_name,
                    queue=test_name(view.name),
                    receive_count=message.receive_count,
                    moved_at=now,
                    history=(),
                    _token=PRIVATE,
                )
            )
    return records


def assert_dead_lettered(
    records: list[DeadLetter], endpoint_url: str, query: DeadLetterQuery
) -> list[DeadLetter]:
    __tracebackhide__ = True
    verbose = query.verbose
    matched, rejected = [], []
    for record in records:
        reason = query.rejects(record)
        if reason is None:
            matched.append(record)
        else:
            rejected.append((record, reason))
    if query.satisfied_by(len(matched)):
        return matched
    found = "none" if not matched else f"{len(matched)}:"
    lines = [
        f"assert_dead_lettered: expected {query.wanted()}{query.criteria()}, found {found} "
        f"(contract mode, {endpoint_url})"
    ]
    lines += [f"  - {_line(record, verbose)}" for record in matched]
    if query.info:
        lines.append(f"info: {query.info}")
    if rejected:
        lines.append(f"{plural(len(rejected), 'other dead letter')} did not match:")
        lines += [f"  - {_line(record, verbose)}: {why}" for record, why in rejected]
    elif not matched:
        lines.append(
            "A real endpoint moves messages on its own clock: approximate counters and moves "
            "can lag by seconds, so allow time (fakesqs.advance) before asserting."
        )
    raise AssertionError("\n".join(lines))


def assert_no_dead_letters(records: list[DeadLetter], queue: str | None, verbose: bool) -> None:
    __tracebackhide__ = True
    if not records:
        return
    where = "" if queue is None else f" for {queue}"
    lines = [f"assert_no_dead_letters: expected no dead letters{where}, found {len(records)}:"]
    lines += [f"  - {_line(record, verbose)}" for record in records]
    raise AssertionError("\n".join(lines))
