"""The fake's options: one keyword-only signature shared by the marker, ini and `fake_sqs()`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from .api.context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION
from .api.limits import LIMITS
from .engine.clock import CLOCK_MODES, DEFAULT_AUTOJUMP_THRESHOLD, to_epoch

FLAVORS = ("aws", "ymq")
YMQ_JSON_MODES = ("accept", "reject")


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
    duplicate_delivery: float = 0.0
    standard_order: str = "fifo"
    empty_receives: float = 0.0
    seed: int | None = None
    # flavor="ymq": serve AWS JSON with YDB-style errors ("accept") or answer 502 ("reject").
    ymq_json: str = "accept"
    verify_signatures: bool = False
    credentials: dict[str, str] = field(default_factory=dict)  # access key id -> secret key

    def __post_init__(self) -> None:
        if self.clock not in CLOCK_MODES:
            raise ValueError(f"clock must be one of {', '.join(CLOCK_MODES)}; got {self.clock!r}")
        if self.flavor not in FLAVORS:
            raise ValueError(f"flavor must be one of {', '.join(FLAVORS)}; got {self.flavor!r}")
        if self.ymq_json not in YMQ_JSON_MODES:
            raise ValueError(
                f"ymq_json must be one of {', '.join(YMQ_JSON_MODES)}; got {self.ymq_json!r}"
            )
        if self.flavor == "ymq" and self.region == DEFAULT_REGION:
            self.region = LIMITS["ymq"].default_region  # YMQ lives in ru-central1 only
        to_epoch(self.start)  # validates the form early, with a readable message
        if not isinstance(self.region, str) or not self.region:
            raise ValueError(f"region must be a non-empty string; got {self.region!r}")
        if not isinstance(self.account_id, str) or not (
            self.account_id.isdigit() and len(self.account_id) == 12
        ):
            raise ValueError(f"account_id must be 12 digits; got {self.account_id!r}")
        if not isinstance(self.queues, dict):
            raise TypeError(f"queues must be a dict of name -> attributes; got {self.queues!r}")
        for name in ("duplicate_delivery", "empty_receives"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"{name} must be a probability between 0 and 1; got {value!r}")
        if self.standard_order not in ("fifo", "shuffled"):
            raise ValueError(
                f"standard_order must be 'fifo' or 'shuffled'; got {self.standard_order!r}"
            )
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int)
        ):
            raise TypeError(f"seed must be an integer; got {self.seed!r}")
        if self.autojump_threshold < 0:
            raise ValueError("autojump_threshold must be >= 0 seconds")
        if not isinstance(self.credentials, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.credentials.items()
        ):
            raise TypeError(
                f"credentials must be a dict of access key id -> secret key; got {self.credentials!r}"
            )
        if self.verify_signatures and not self.credentials:
            raise ValueError(
                "verify_signatures needs credentials={access_key_id: secret_access_key} "
                "to check signatures against"
            )

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
