"""Errors a test may inject with `fail_next`: the error row and the text AWS sends with it."""

from __future__ import annotations

from .._spelling import did_you_mean
from .error_texts import ErrorText
from .errors import ErrorCode, SqsError

# What SQS (or KMS behind it) says with each error; used when a test injects one.
INJECTABLE: dict[ErrorCode, ErrorText] = {
    ErrorCode.RequestThrottled: ErrorText.INJECTED_REQUEST_THROTTLED,
    ErrorCode.ThrottlingException: ErrorText.INJECTED_THROTTLING,
    ErrorCode.KmsThrottled: ErrorText.INJECTED_KMS_THROTTLED,
    ErrorCode.KmsAccessDenied: ErrorText.INJECTED_KMS_ACCESS_DENIED,
    ErrorCode.KmsDisabled: ErrorText.INJECTED_KMS_DISABLED,
    ErrorCode.KmsInvalidKeyUsage: ErrorText.INJECTED_KMS_INVALID_KEY_USAGE,
    ErrorCode.KmsInvalidState: ErrorText.INJECTED_KMS_INVALID_STATE,
    ErrorCode.KmsNotFound: ErrorText.INJECTED_KMS_NOT_FOUND,
    ErrorCode.KmsOptInRequired: ErrorText.INJECTED_KMS_OPT_IN_REQUIRED,
    ErrorCode.InternalError: ErrorText.INJECTED_INTERNAL_ERROR,
    ErrorCode.ServiceUnavailable: ErrorText.INJECTED_SERVICE_UNAVAILABLE,
    ErrorCode.OverLimit: ErrorText.OVER_LIMIT,  # what a receive past the in-flight limit says
    ErrorCode.InvalidSecurity: ErrorText.INJECTED_INVALID_SECURITY,
    ErrorCode.QueueDoesNotExist: ErrorText.QUEUE_DOES_NOT_EXIST,
    ErrorCode.PurgeQueueInProgress: ErrorText.INJECTED_PURGE_IN_PROGRESS,
    ErrorCode.UnsupportedOperation: ErrorText.INJECTED_UNSUPPORTED_OPERATION,
}


# The errors a fault schedule may inject: ones SQS returns that botocore retries in both its
# retry modes (legacy: _retry.json's "sqs" RequestThrottled/403 policy, ThrottlingException/400,
# and 500/503 "general_server_error"/"service_unavailable"; standard: its throttled codes and
# transient statuses 500/502/503/504), so the code under test sees a retry, not a failure.
# The first is what a schedule shrinks toward: SQS's own throttling.
RETRIED_BY_CLIENTS: tuple[ErrorCode, ...] = (
    ErrorCode.RequestThrottled,
    ErrorCode.ThrottlingException,
    ErrorCode.InternalError,
    ErrorCode.ServiceUnavailable,
)
RETRIED_CODES: tuple[str, ...] = tuple(error.spec.query_code for error in RETRIED_BY_CLIENTS)


INJECTABLE_CODES: tuple[str, ...] = tuple(sorted(e.spec.query_code for e in INJECTABLE))


def find_injectable(code: str) -> ErrorCode:
    """An injectable error by its query code ("KMS.ThrottlingException") or shape name."""
    for error in INJECTABLE:
        if code in (error.spec.query_code, error.spec.shape, error.name):
            return error
    raise ValueError(
        f"cannot inject {code!r}; injectable codes: {', '.join(INJECTABLE_CODES)}"
        f"{did_you_mean(code, INJECTABLE_CODES)}"
    )


def injected_error(code: str) -> SqsError:
    error = find_injectable(code)
    return INJECTABLE[error]()
