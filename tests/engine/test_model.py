"""Model-based tests: the engine against `reference_model`, step by step, for standard and FIFO
queues, with sends, receives, deletes, visibility changes, purges, dead-letter moves and clock
advances interleaved. Any divergence fails with the steps that led to it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pytest_fakesqs.engine import (
    Broker,
    Clock,
    MalformedReceiptHandle,
    Outgoing,
    Queue,
    QueueSettings,
    RedriveTarget,
    StaleReceiptHandle,
    State,
    VisibilityLimitExceeded,
)

from .reference_model import ModelQueue, Refused

RETENTION = 7200.0
MAX_RECEIVE_COUNT = 2
MAIN = ("us-east-1", "123456789012", "main")
DEAD = ("us-east-1", "123456789012", "dead")
# CI-friendly and reproducible: a fixed, derandomized budget per machine. 150 examples missed a
# FIFO turn-order divergence that 1,500 found (test_fifo_rules covers it now); 400 is ~10 s.
MODEL_SETTINGS = settings(
    max_examples=400,
    stateful_step_count=50,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

queue_names = st.sampled_from(["main", "main", "dead"])
visibilities = st.sampled_from([None, 0, 5, 30, 60])
advances = st.sampled_from([0.5, 1.0, 5.0, 29.0, 31.0, 300.0, 3600.0])
# A delete, or a visibility change to that many seconds.
handle_actions = st.sampled_from(["delete", "delete", 0, 0, 1, 10, 45, 43200])
# Mostly one of the latest handles (the interesting ones), sometimes any older one.
picks = st.one_of(st.integers(0, 3), st.integers(0, 10**6))


def _quiet_means_nothing_is_due(queue: Queue, now: float) -> None:
    """Queue.apply_due skips its eight steps when Schedule.quiet says nothing is due: each
    step must then find nothing and change nothing (before the engine applies what is due)."""
    schedule = queue.schedule
    if not schedule.quiet(now):
        return
    work = schedule.work
    windows = (dict(schedule.dedup._entries), dict(schedule.attempts._attempts))
    assert not schedule.ended_delays(now)
    assert not schedule.lapsed_visibility(now)
    assert not schedule.appearing_copies(now)
    assert not schedule.expired(now)
    schedule.end_windows(now)
    assert (dict(schedule.dedup._entries), dict(schedule.attempts._attempts)) == windows
    assert schedule.work == work


class QueueMachine(RuleBasedStateMachine):
    fifo = False
    stale_slack: int | None = None  # set: the queues prune stale heap entries that eagerly

    def __init__(self) -> None:
        super().__init__()
        suffix = ".fifo" if self.fifo else ""
        self.broker = Broker(Clock())
        main_key = (*MAIN[:2], MAIN[2] + suffix)
        dead_key = (*DEAD[:2], DEAD[2] + suffix)
        self.dead = self.broker.create_queue(
            dead_key, QueueSettings(fifo=self.fifo, retention=RETENTION, max_in_flight=None)
        )
        self.main = self.broker.create_queue(
            main_key,
            QueueSettings(
                fifo=self.fifo,
                retention=RETENTION,
                redrive=RedriveTarget(dead_key, MAX_RECEIVE_COUNT),
                max_in_flight=None,
            ),
        )
        dead_model = ModelQueue(self.fifo, RETENTION)
        self.models = {
            "main": ModelQueue(self.fifo, RETENTION, dead_model, MAX_RECEIVE_COUNT),
            "dead": dead_model,
        }
        self.queues: dict[str, Queue] = {"main": self.main, "dead": self.dead}
        if self.stale_slack is not None:
            for queue in self.queues.values():
                queue.schedule.stale_slack = self.stale_slack
        self.handles: list[tuple[str, str]] = []  # (queue name, handle), oldest first
        self.sent = 0

    @property
    def now(self) -> float:
        return self.broker.clock.now()

    # -- rules ---------------------------------------------------------------------------------

    @initialize(count=st.integers(0, 6))
    def some_messages_to_start_with(self, count: int) -> None:
        for index in range(count):
            if self.fifo:
                self.send_fifo("ab"[index % 2], None)
            else:
                self.send_standard(0)

    @rule(delay=st.sampled_from([0, 0, 0, 3, 40]))
    def send_standard(self, delay: int) -> None:
        if self.fifo:
            return
        body = f"m{self.sent}"
        self.sent += 1
        result = self.broker.send(
            self.main, Outgoing(body=body, size=len(body), delay=float(delay))
        )
        assert not result.duplicate
        assert self.models["main"].send(body, self.now, delay=delay) == body

    @rule(group=st.sampled_from(["a", "b"]), dedup=st.sampled_from(["d0", "d1", None]))
    def send_fifo(self, group: str, dedup: str | None) -> None:
        if not self.fifo:
            return
        body = f"m{self.sent}"
        self.sent += 1
        dedup_id = dedup if dedup is not None else f"unique-{body}"
        result = self.broker.send(
            self.main, Outgoing(body=body, size=len(body), group_id=group, dedup_id=dedup_id)
        )
        expected = self.models["main"].send(body, self.now, group=group, dedup=dedup_id)
        assert result.message.body == expected
        assert result.duplicate == (expected != body)

    @rule(name=queue_names, max_messages=st.integers(1, 10), visibility=visibilities)
    def receive(self, name: str, max_messages: int, visibility: int | None) -> None:
        queue = self.queues[name]
        deliveries = self.broker.receive(
            queue, max_messages, None if visibility is None else float(visibility)
        )
        timeout = queue.settings.visibility_timeout if visibility is None else visibility
        delivered, _moved = self.models[name].receive(max_messages, timeout, self.now)
        assert [d.message.body for d in deliveries] == [m.body for m in delivered]
        assert [d.receive_count for d in deliveries] == [m.receive_count for m in delivered]
        for delivery, message in zip(deliveries, delivered, strict=True):
            self.models[name].delivered_as(message, delivery.receipt_handle)
            self.handles.append((name, delivery.receipt_handle))

    @precondition(lambda self: self.handles)
    @rule(pick=picks, action=handle_actions)
    def use_a_handle(self, pick: int, action: str | int) -> None:
        """Delete, or change the visibility, with one of the handles received so far."""
        name, handle = self.handles[-1 - pick % len(self.handles)]
        model, queue = self.models[name], self.queues[name]
        if action == "delete":
            expected = _outcome(lambda: model.delete(handle, self.now))
            actual = _outcome(lambda: self.broker.delete(queue, handle).body)
        else:
            timeout = float(action)
            expected = _outcome(lambda: model.change_visibility(handle, timeout, self.now))
            actual = _outcome(lambda: self.broker.change_visibility(queue, handle, timeout).body)
        assert actual == expected

    @rule(name=queue_names)
    def garbage_handle_is_refused(self, name: str) -> None:
        with pytest.raises(MalformedReceiptHandle):
            self.broker.delete(self.queues[name], "AQEBnot-a-handle")

    @rule(name=queue_names, roll=st.integers(0, 3))
    def purge(self, name: str, roll: int) -> None:
        if roll:
            return  # a purge wipes the state the other rules build up: keep it occasional
        removed = self.broker.purge(self.queues[name])
        assert sorted(m.body for m in removed) == sorted(self.models[name].purge(self.now))

    @rule(seconds=advances)
    def advance(self, seconds: float) -> None:
        self.broker.clock.advance(seconds)

    # -- invariants ----------------------------------------------------------------------------

    @invariant()
    def states_and_counters_match_the_model(self) -> None:
        for name, queue in self.queues.items():
            _quiet_means_nothing_is_due(queue, self.broker.clock.now())
            engine_states = self.broker.states(queue)
            actual = {state: sorted(m.body for m in engine_states[state]) for state in State}
            expected = {
                state: sorted(bodies)
                for state, bodies in self.models[name].by_state(self.now).items()
            }
            assert actual == expected, f"queue {name} at t+{self.now:.1f}"
            assert (queue.visible, queue.in_flight, queue.delayed) == (
                len(actual[State.VISIBLE]),
                len(actual[State.IN_FLIGHT]),
                len(actual[State.DELAYED]),
            )
            counts = {m.body: m.receive_count for m in queue.live_messages()}
            assert counts == {m.body: m.receive_count for m in self.models[name].messages}
            assert queue.bytes == sum(m.size for m in queue.live_messages())
            assert set(queue.store.by_handle.values()) == set(engine_states[State.IN_FLIGHT])


def _outcome(action: object) -> str:
    """What an operation did, comparable between engine and model: a body or an error kind."""
    assert callable(action)
    try:
        return str(action())
    except (Refused, StaleReceiptHandle, VisibilityLimitExceeded) as exc:
        if isinstance(exc, Refused):
            return f"refused: {exc.kind}"
        return "refused: stale" if isinstance(exc, StaleReceiptHandle) else "refused: limit"


class FifoQueueMachine(QueueMachine):
    fifo = True


TestStandardQueueAgainstModel = QueueMachine.TestCase
TestStandardQueueAgainstModel.settings = MODEL_SETTINGS
TestFifoQueueAgainstModel = FifoQueueMachine.TestCase
TestFifoQueueAgainstModel.settings = MODEL_SETTINGS


class PruningQueueMachine(QueueMachine):
    """Stale heap entries are dropped after every removal, so a rebuild happens between most
    steps: the model proves a rebuild never loses or revives a message."""

    stale_slack = 1


class PruningFifoQueueMachine(FifoQueueMachine):
    stale_slack = 1


TestStandardQueuePruningEagerly = PruningQueueMachine.TestCase
TestStandardQueuePruningEagerly.settings = MODEL_SETTINGS
TestFifoQueuePruningEagerly = PruningFifoQueueMachine.TestCase
TestFifoQueuePruningEagerly.settings = MODEL_SETTINGS
