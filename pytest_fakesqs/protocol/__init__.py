"""Wire codecs (AWS JSON 1.0, query/XML) and the dispatcher shared by every transport."""

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
