"""Names of the real queues contract mode makes: unique per run, so runs never collide."""

from __future__ import annotations

import secrets


def run_prefix() -> str:
    """Short and unique per process, so parallel runs (and xdist workers) never collide."""
    return f"fsq{secrets.token_hex(3)}-"
