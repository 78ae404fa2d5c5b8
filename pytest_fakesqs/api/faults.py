"""Errors a test may inject with `fail_next`: the error row and the text AWS sends with it."""

from __future__ import annotations

from .error_texts import Text
from .errors import Err, SqsError

# What SQS (or KMS behind it) says with each error; used when a test injects one.
INJECTABLE: dict[Err, Text] = {
    Err.RequestThrottled: Text.INJECTED_REQUEST_THROTTLED,
    Err.ThrottlingException: Text.INJECTED_THROTTLING,
    Err.KmsThrottled: Text.INJECTED_KMS_THROTTLED,
    Err.KmsAccessDenied: Text.INJECTED_KMS_ACCESS_DENIED,
    Err.KmsDisabled: Text.INJECTED_KMS_DISABLED,
    Err.KmsInvalidKeyUsage: Text.INJECTED_KMS_INVALID_KEY_USAGE,
    Err.KmsInvalidState: Text.INJECTED_KMS_INVALID_STATE,
    Err.KmsNotFound: Text.INJECTED_KMS_NOT_FOUND,
    Err.KmsOptInRequired: Text.INJECTED_KMS_OPT_IN_REQUIRED,
    Err.InternalError: Text.INJECTED_INTERNAL_ERROR,
    Err.ServiceUnavailable: Text.INJECTED_SERVICE_UNAVAILABLE,
    Err.OverLimit: Text.OVER_LIMIT,  # what a receive past the in-flight limit says
    Err.InvalidSecurity: Text.INJECTED_INVALID_SECURITY,
    Err.QueueDoesNotExist: Text.QUEUE_DOES_NOT_EXIST,
    Err.PurgeQueueInProgress: Text.INJECTED_PURGE_IN_PROGRESS,
    Err.UnsupportedOperation: Text.INJECTED_UNSUPPORTED_OPERATION,
}


def find_injectable(code: str) -> Err:
    """An injectable error by its query code ("KMS.ThrottlingException") or shape name."""
    for error in INJECTABLE:
        if code in (error.spec.query_code, error.spec.shape, error.name):
            return error
    known = ", ".join(sorted(e.spec.query_code for e in INJECTABLE))
    raise ValueError(f"cannot inject {code!r}; injectable codes: {known}")


def injected_error(code: str) -> SqsError:
    error = find_injectable(code)
    return INJECTABLE[error]()
