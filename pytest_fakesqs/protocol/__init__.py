"""Wire codecs (AWS JSON 1.0, query/XML) and the dispatcher shared by every transport."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .base import DecodedRequest, WireRequest, WireResponse
    from .dispatch import CallInterceptor, CallListener, CallRecord, WireHandler

__all__ = [
    "CallInterceptor",
    "CallListener",
    "CallRecord",
    "DecodedRequest",
    "WireHandler",
    "WireRequest",
    "WireResponse",
]

# Names load on first use (see pytest_fakesqs._lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "CallInterceptor": ".dispatch",
        "CallListener": ".dispatch",
        "CallRecord": ".dispatch",
        "DecodedRequest": ".base",
        "WireHandler": ".dispatch",
        "WireRequest": ".base",
        "WireResponse": ".base",
    },
)
