"""RetentionOrder.pop_finished's shortcut (one deque in send order, read directly) pops what
the general way through first()/pop() pops, in the same order, and leaves the same behind."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pytest_fakesqs.engine.message import GONE, Message
from pytest_fakesqs.engine.order import RetentionOrder

# (seconds after the previous message, gone already): messages as a queue retains them.
ARRIVALS = st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.5]), st.booleans()), max_size=30)


def _order(arrivals: list[tuple[float, bool]]) -> RetentionOrder:
    order = RetentionOrder()
    at = 0.0
    for sequence, (gap, gone) in enumerate(arrivals):
        at += gap
        message = Message(f"m{sequence}", "body", at, 4)
        message.enqueued_at, message.sequence = at, sequence
        if gone:
            message.state = GONE
        order.push(message)
    return order


def _remaining(order: RetentionOrder) -> list[str]:
    left = []
    while (first := order.first()) is not None:
        left.append(first.message_id)
        order.pop()
    return left


@given(ARRIVALS, st.sampled_from([1.0, 5.0, 60.0]), st.floats(min_value=0, max_value=80))
def test_the_shortcut_pops_what_the_general_way_pops(
    arrivals: list[tuple[float, bool]], retention: float, now: float
) -> None:
    shortcut, general = _order(arrivals), _order(arrivals)
    assert not shortcut.fresh._heap  # in send order: the shortcut's case
    fast_expired, fast_popped = shortcut.pop_finished(retention, now)
    slow_expired, slow_popped = general._pop_finished_in_parts(retention, now)
    assert [m.message_id for m in fast_expired] == [m.message_id for m in slow_expired]
    assert fast_popped == slow_popped
    assert _remaining(shortcut) == _remaining(general)
