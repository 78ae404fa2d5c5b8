"""The fake's options: one keyword-only signature shared by the marker, ini and `fake_sqs()`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from .api.context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION
from .engine.clock import CLOCK_MODES, DEFAULT_AUTOJUMP_THRESHOLD, to_epoch

FLAVORS = ("aws", "ymq")


@dataclass(kw_only=True)
class Options:
    clock: str = "frozen"
    start: datetime | str | float | None = None
    region: str = DEFAULT_REGION
    account_id: str = DEFAULT_ACCOUNT_ID
    flavor: str = "aws"
    queues: dict[str, dict[str, Any]] = field(default_factory=dict)
    autojump_threshold: float = DEFAULT_AUTOJUMP_THRESHOLD
    assert_dlq_empty: bool = False
    assert_no_client_errors: bool = False

    def __post_init__(self) -> None:
        if self.clock not in CLOCK_MODES:
            raise ValueError(f"clock must be one of {', '.join(CLOCK_MODES)}; got {self.clock!r}")
        if self.flavor not in FLAVORS:
            raise ValueError(f"flavor must be one of {', '.join(FLAVORS)}; got {self.flavor!r}")
        to_epoch(self.start)  # validates the form early, with a readable message
        if not isinstance(self.region, str) or not self.region:
            raise ValueError(f"region must be a non-empty string; got {self.region!r}")
        if not isinstance(self.account_id, str) or not (
            self.account_id.isdigit() and len(self.account_id) == 12
        ):
            raise ValueError(f"account_id must be 12 digits; got {self.account_id!r}")
        if not isinstance(self.queues, dict):
            raise TypeError(f"queues must be a dict of name -> attributes; got {self.queues!r}")
        if self.autojump_threshold < 0:
            raise ValueError("autojump_threshold must be >= 0 seconds")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


def make_options(**kwargs: Any) -> Options:
    """Build options, turning an unknown keyword into a short TypeError naming the valid ones."""
    unknown = sorted(set(kwargs) - set(Options.names()))
    if unknown:
        raise TypeError(
            f"unknown fakesqs option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"valid options: {', '.join(Options.names())}"
        )
    return Options(**kwargs)
