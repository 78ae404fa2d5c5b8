"""Errors a test may inject with `fail_next`: the error row and the text AWS sends with it."""

from __future__ import annotations

from .errors import Err, SqsError
from .receiving import OVER_LIMIT_TEXT

# What SQS (or KMS behind it) says with each error; used when a test injects one.
INJECTABLE: dict[Err, str] = {
    Err.RequestThrottled: "Request is throttled.",
    Err.ThrottlingException: "Rate exceeded",
    Err.KmsThrottled: "The request was denied due to request throttling.",
    Err.KmsAccessDenied: "The caller doesn't have the required KMS access.",
    Err.KmsDisabled: "The request was denied because the specified key is disabled.",
    Err.KmsInvalidKeyUsage: "The request was rejected for one of the following reasons: the KeyUsage value of the KMS key is incompatible with the API operation, or the encryption algorithm or signing algorithm specified for the operation is incompatible with the type of key material in the KMS key.",
    Err.KmsInvalidState: "The request was rejected because the state of the specified resource is not valid for this request.",
    Err.KmsNotFound: "The request was rejected because the specified entity or resource can't be found.",
    Err.KmsOptInRequired: "The request was rejected because the specified key policy isn't syntactically or semantically correct.",
    Err.InternalError: "We encountered an internal error. Please try again.",
    Err.ServiceUnavailable: "The request has failed due to a temporary failure of the server.",
    Err.OverLimit: OVER_LIMIT_TEXT,  # what a receive past the in-flight limit says
    Err.InvalidSecurity: "The request was not made over HTTPS or did not use SigV4 for signing.",
    Err.QueueDoesNotExist: "The specified queue does not exist.",
    Err.PurgeQueueInProgress: "Only one PurgeQueue operation is allowed every 60 seconds.",
    Err.UnsupportedOperation: "This operation is not supported.",
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
    return SqsError(error, INJECTABLE[error])
