"""Transports: in-process (botocore's send step; `serving` says which fake answers) and HTTP on
a local port (`http`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .serving import activate, current_handler, deactivate

__all__ = ["activate", "current_handler", "deactivate"]

# Names load on first use (see pytest_fakesqs._lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "activate": ".serving",
        "current_handler": ".serving",
        "deactivate": ".serving",
    },
)
