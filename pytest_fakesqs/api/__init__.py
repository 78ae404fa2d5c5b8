"""SQS semantics: validation with AWS's exact codes and texts, attributes, MD5s, URLs."""

from .context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION, Flavor, RequestContext
from .errors import Err, ErrorSpec, SqsError
from .limits import LIMITS, Limits
from .service import SqsService

__all__ = [
    "DEFAULT_ACCOUNT_ID",
    "DEFAULT_REGION",
    "LIMITS",
    "Err",
    "ErrorSpec",
    "Flavor",
    "Limits",
    "RequestContext",
    "SqsError",
    "SqsService",
]
