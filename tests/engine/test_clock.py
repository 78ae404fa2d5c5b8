from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from pytest_fakesqs.engine import Clock
from pytest_fakesqs.engine.clock import calling_thread, serving_for


def test_frozen_clock_stands_still_until_moved() -> None:
    clock = Clock(start="2030-05-01T12:00:00Z")
    assert clock.now_datetime() == datetime(2030, 5, 1, 12, tzinfo=UTC)
    assert clock.now() == clock.now()
    clock.advance(timedelta(minutes=2))
    clock.advance(1.5)
    assert clock.now_datetime() == datetime(2030, 5, 1, 12, 2, 1, 500000, tzinfo=UTC)


def test_time_cannot_go_backwards() -> None:
    clock = Clock()
    with pytest.raises(ValueError, match="time can't go backwards"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="time can't go backwards"):
        clock.advance_to(clock.now() - 1)


def test_unknown_mode_and_bad_start_are_refused() -> None:
    with pytest.raises(ValueError, match="clock must be one of"):
        Clock("sundial")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ISO-8601"):
        Clock(start="next tuesday")
    with pytest.raises(TypeError):
        Clock().advance("5")  # type: ignore[arg-type]


def test_frozen_wait_jumps_to_the_earlier_of_deadline_and_next_event() -> None:
    clock = Clock()
    condition = threading.Condition()
    start = clock.now()
    with condition:
        assert clock.wait(condition, start + 20, start + 7)
    assert clock.now() == start + 7
    with condition:
        assert clock.wait(condition, start + 20, None)
    assert clock.now() == start + 20


def test_real_clock_advance_shifts_it_forward() -> None:
    clock = Clock("real")
    before = clock.now()
    clock.advance(3600)
    assert clock.now() - before >= 3600


def test_a_system_clock_poll_gives_up_when_time_is_held_still(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("time.time", lambda: 1_900_000_000.0)
    clock = Clock("system")
    condition = threading.Condition()
    with condition:
        keep_polling = clock.wait(condition, deadline=clock.now() + 20, next_event=None)
    assert keep_polling is False


def test_a_system_clock_poll_goes_on_while_time_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = iter(range(1_900_000_000, 1_900_000_100))
    monkeypatch.setattr("time.time", lambda: float(next(readings)))
    clock = Clock("system")
    condition = threading.Condition()
    with condition:
        keep_polling = clock.wait(condition, deadline=clock.now() + 20, next_event=None)
    assert keep_polling is True


def test_frozen_owner_thread_jumps_at_once_even_with_a_long_threshold() -> None:
    clock = Clock(autojump_threshold=3600)  # a wait of the threshold would hang the test
    condition = threading.Condition()
    start = clock.now()
    with condition:
        assert clock.wait(condition, start + 20, None)
    assert clock.now() == start + 20


def test_frozen_other_thread_waits_for_a_send_before_jumping() -> None:
    clock = Clock(autojump_threshold=3600)
    condition = threading.Condition()
    start = clock.now()
    waiting, result = threading.Event(), []

    def poll() -> None:
        with condition:
            waiting.set()  # the lock is held from here until the wait inside releases it
            result.append(clock.wait(condition, start + 20, None))

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    assert waiting.wait(timeout=10)  # real-time: a bounded wait for the thread to start
    with condition:  # acquired only once the poll waits
        condition.notify_all()  # a send arriving while the other thread's poll waits
    thread.join(timeout=10)  # real-time: a bounded join
    assert result == [True]
    assert clock.now() == start  # it woke for the send; time did not jump


def test_frozen_other_thread_jumps_once_the_threshold_passes() -> None:
    clock = Clock(autojump_threshold=0.01)  # real-time: the other thread waits 10 ms
    condition = threading.Condition()
    start = clock.now()
    finished = threading.Event()

    def poll() -> None:
        with condition:
            clock.wait(condition, start + 20, None)
        finished.set()

    threading.Thread(target=poll, daemon=True).start()
    assert finished.wait(timeout=10)  # real-time: a bounded join
    assert clock.now() == start + 20


def test_frozen_instant_jumps_at_once_in_every_thread() -> None:
    clock = Clock("frozen-instant", autojump_threshold=3600)
    condition = threading.Condition()
    start = clock.now()
    finished = threading.Event()

    def poll() -> None:
        with condition:
            clock.wait(condition, start + 20, None)
        finished.set()

    threading.Thread(target=poll, daemon=True).start()
    assert finished.wait(timeout=10)  # real-time: a bounded join; waiting 3600 s would fail
    assert clock.now() == start + 20


def test_a_thread_serving_for_the_owner_jumps_at_once() -> None:
    clock = Clock(autojump_threshold=3600)
    condition = threading.Condition()
    start = clock.now()
    owner = threading.get_ident()
    finished = threading.Event()

    def poll() -> None:
        with serving_for(owner), condition:
            clock.wait(condition, start + 20, None)
        finished.set()

    threading.Thread(target=poll, daemon=True).start()
    assert finished.wait(timeout=10)  # real-time: a bounded join
    assert clock.now() == start + 20
    assert calling_thread() == owner


def test_claim_moves_the_owner_to_the_calling_thread() -> None:
    clock = Clock()
    claimed = threading.Event()

    def claim() -> None:
        clock.claim()
        claimed.set()

    threading.Thread(target=claim, daemon=True).start()
    assert claimed.wait(timeout=10)  # real-time: a bounded join
    assert clock.waits_before_jumping()  # this thread is no longer the owner
    clock.claim()
    assert not clock.waits_before_jumping()
