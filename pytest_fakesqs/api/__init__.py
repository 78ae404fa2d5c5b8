"""SQS semantics: validation with AWS's exact codes and texts, attributes, MD5s, URLs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION, Flavor, RequestContext
    from .errors import Err, ErrorCode, ErrorSpec, SqsError
    from .limits import LIMITS, Limits
    from .service import SqsService

__all__ = [
    "DEFAULT_ACCOUNT_ID",
    "DEFAULT_REGION",
    "LIMITS",
    "Err",
    "ErrorCode",
    "ErrorSpec",
    "Flavor",
    "Limits",
    "RequestContext",
    "SqsError",
    "SqsService",
]

# Names load on first use (see pytest_fakesqs._lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "DEFAULT_ACCOUNT_ID": ".context",
        "DEFAULT_REGION": ".context",
        "Err": ".errors",
        "ErrorCode": ".errors",
        "ErrorSpec": ".errors",
        "Flavor": ".context",
        "LIMITS": ".limits",
        "Limits": ".limits",
        "RequestContext": ".context",
        "SqsError": ".errors",
        "SqsService": ".service",
    },
)
