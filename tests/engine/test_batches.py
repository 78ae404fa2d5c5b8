"""A queue's batch operations do what their one-message twins do, one message at a time.

The stress cycle's sends, receives and deletes go through `enqueue_visible`, `take_ready` with
`_deliver_all`, and `delete_all`, a batch in one pass; `next_ready`, `_deliver` and `delete`
stay the general way, and a batch of sends must leave what as many one-message `enqueue`s leave.
Two queues with the same past take the same steps, one each way, and must stay alike: every
message's state, place, history and counters, every order's size, each step's answer.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.engine import (
    Broker,
    Clock,
    MalformedReceiptHandle,
    Message,
    Outgoing,
    Queue,
    QueueSettings,
    StaleReceiptHandle,
)
from pytest_fakesqs.engine.message import IN_FLIGHT

KEY = ("us-east-1", "123456789012", "q")


def _snapshot(queue: Queue) -> Any:
    messages = [
        (
            m.message_id,
            m.state,
            m.sequence,
            m.rank,
            m.slot,
            m.visible_at,
            m.receive_count,
            m.receipt_handle is None,
            [(at, event) for at, event, _ in m.timeline()],
        )
        for m in queue.store.slots
        if m is not None
    ]
    counters = (queue.visible, queue.in_flight, queue.delayed, queue.bytes, len(queue.store))
    return messages, counters, queue.schedule.sizes()


def _in_flight(queue: Queue) -> list[Message]:
    return sorted(
        (m for m in queue.live_messages() if m.state is IN_FLIGHT), key=lambda m: m.sequence
    )


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(1, 12)),
        st.tuples(st.just("receive"), st.integers(1, 10)),
        st.tuples(st.just("delete"), st.lists(st.integers(0, 15), max_size=10)),
        st.tuples(st.just("return"), st.integers(0, 15)),  # visible again: out of order
        st.tuples(st.just("advance"), st.sampled_from([1.0, 30.0])),
    ),
    max_size=30,
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(STEPS)
def test_batches_and_one_at_a_time_stay_alike(steps: list[tuple[str, Any]]) -> None:
    clock = Clock()
    batched, single = Queue(KEY, QueueSettings(), clock), Queue(KEY, QueueSettings(), clock)
    sent = 0
    for step, argument in steps:
        now = clock.now()
        batched.apply_due(now)
        single.apply_due(now)
        if step == "send":
            made = [
                [Message(f"m{sent + i}", "body", now, 4) for i in range(argument)] for _ in range(2)
            ]
            sent += argument
            batched.enqueue_visible(made[0], now)
            for message in made[1]:
                single.enqueue(message, 0.0, now)
        elif step == "receive":
            taken = batched.schedule.take_ready(argument)
            one_by_one: list[Message] = []
            while len(one_by_one) < argument and (next_one := single.schedule.next_ready()):
                one_by_one.append(next_one)
            assert [m.message_id for m in taken] == [m.message_id for m in one_by_one]
            batched._deliver_all(taken, 30.0, now)  # take()'s run, in one pass
            for message in one_by_one:
                single._deliver(message, 30.0, now)
        elif step == "delete":
            handles = []
            for queue in (batched, single):
                flying = _in_flight(queue)
                # An index past the messages in flight stands for a handle that is no longer
                # current (deleted already) or was never issued.
                handles.append(
                    [
                        flying[i].receipt_handle or "" if i < len(flying) else "AQEBbm9wZQ=="
                        for i in argument
                    ]
                )
            outcomes = batched.delete_all(handles[0], now)
            expected: list[Any] = []
            for handle in handles[1]:
                try:
                    expected.append(single.delete(handle, now))
                except (MalformedReceiptHandle, StaleReceiptHandle) as error:
                    expected.append(error)
            assert [_outcome(o) for o in outcomes] == [_outcome(o) for o in expected]
        elif step == "return":
            for queue in (batched, single):
                flying = _in_flight(queue)
                if argument < len(flying):
                    queue.change_visibility(flying[argument].receipt_handle or "", 0, now)
        else:
            clock.advance(argument)
        assert _snapshot(batched) == _snapshot(single)


def _outcome(outcome: Message | Exception) -> str:
    return outcome.message_id if isinstance(outcome, Message) else type(outcome).__name__


@settings(max_examples=100, derandomize=True, deadline=None)
@given(
    st.sampled_from([QueueSettings(), QueueSettings(delay=5.0), QueueSettings(fifo=True)]),
    st.lists(st.lists(st.sampled_from(["a", "body", "x" * 300]), max_size=10), max_size=6),
)
def test_a_plain_send_leaves_what_send_many_leaves(
    queue_settings: QueueSettings, batches: list[list[str]]
) -> None:
    """Broker.send_plain, a batch of bodies with their MD5s, against send_many of an Outgoing
    each: the same ids, messages, places and histories, and the same news for the listeners."""
    results = []
    for plain in (True, False):
        broker = Broker(Clock(), seed=3)
        queue = broker.create_queue(KEY, queue_settings)
        heard: list[list[str]] = []
        broker.sent_listeners.append(
            lambda _queue, sent, heard=heard: heard.append([m.body for m in sent])
        )
        system = {"SenderId": "AKIA"}
        for bodies in batches:
            digests = [f"md5 of {body}" for body in bodies]
            if plain:
                sent = broker.send_plain(queue, bodies, digests, system)
            else:
                outgoings = [
                    Outgoing(body, len(body), None, system, None, None, None, digest)
                    for body, digest in zip(bodies, digests, strict=True)
                ]
                sent = broker.send_many(queue, outgoings)
            assert [(m.body, m.body_digest, m.system) for m in sent] == list(
                zip(bodies, digests, [system] * len(bodies), strict=True)
            )
            broker.clock.advance(1.0)
        results.append((_snapshot(queue), heard))
    assert results[0] == results[1]
