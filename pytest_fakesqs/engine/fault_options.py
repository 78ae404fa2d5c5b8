"""The rules of the seeded fault options, checked where they are given (fake.options) and where
they are used (engine.faults.FaultPlan): one text for each mistake. Kept apart from the fault
machinery so that reading the options, at every pytest start, does not load it."""

from __future__ import annotations

from typing import Literal

StandardOrder = Literal["fifo", "shuffled"]
STANDARD_ORDERS: tuple[StandardOrder, ...] = ("fifo", "shuffled")


def check_probability(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability between 0 and 1; got {value!r}")


def check_standard_order(value: object) -> None:
    if value not in STANDARD_ORDERS:
        raise ValueError(
            f"standard_order must be one of {', '.join(STANDARD_ORDERS)}; got {value!r}"
        )
