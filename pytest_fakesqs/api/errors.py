"""The error catalogue: one row per AWS error (shape, query code, HTTP status, fault).

Validation raises a row of the error-text table (error_texts.ErrorText, each text with its source),
which names its row here; the protocol layer renders the row on the wire; tests iterate both.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    shape: str  # JSON `__type` shape name; botocore picks the exception class from it
    query_code: str  # `x-amzn-query-error` code and the XML <Code>; botocore's Error.Code
    status: int = 400
    fault: Literal["Sender", "Receiver"] = "Sender"
    # True for shapes botocore models as exceptions (client.exceptions.<shape>).
    modelled: bool = True
    # AWS's fixed XML <Message> where the query protocol words the error differently from JSON
    # (a row of the error-text table too, with its source).
    query_message: str | None = None


_QS = "AWS.SimpleQueueService."


class ErrorCode(enum.Enum):
    QueueDoesNotExist = ErrorSpec(
        "QueueDoesNotExist",
        _QS + "NonExistentQueue",
        query_message="The specified queue does not exist for this wsdl version.",
    )
    QueueNameExists = ErrorSpec("QueueNameExists", "QueueAlreadyExists")
    QueueDeletedRecently = ErrorSpec("QueueDeletedRecently", _QS + "QueueDeletedRecently")
    PurgeQueueInProgress = ErrorSpec("PurgeQueueInProgress", _QS + "PurgeQueueInProgress", 403)
    OverLimit = ErrorSpec("OverLimit", "OverLimit", 403)
    TooManyEntriesInBatchRequest = ErrorSpec(
        "TooManyEntriesInBatchRequest", _QS + "TooManyEntriesInBatchRequest"
    )
    EmptyBatchRequest = ErrorSpec("EmptyBatchRequest", _QS + "EmptyBatchRequest")
    BatchEntryIdsNotDistinct = ErrorSpec(
        "BatchEntryIdsNotDistinct", _QS + "BatchEntryIdsNotDistinct"
    )
    InvalidBatchEntryId = ErrorSpec("InvalidBatchEntryId", _QS + "InvalidBatchEntryId")
    BatchRequestTooLong = ErrorSpec("BatchRequestTooLong", _QS + "BatchRequestTooLong")
    MessageNotInflight = ErrorSpec("MessageNotInflight", _QS + "MessageNotInflight")
    UnsupportedOperation = ErrorSpec("UnsupportedOperation", _QS + "UnsupportedOperation")
    ReceiptHandleIsInvalid = ErrorSpec("ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid")
    InvalidAttributeName = ErrorSpec("InvalidAttributeName", "InvalidAttributeName")
    InvalidAttributeValue = ErrorSpec("InvalidAttributeValue", "InvalidAttributeValue")
    InvalidMessageContents = ErrorSpec("InvalidMessageContents", "InvalidMessageContents")
    InvalidIdFormat = ErrorSpec("InvalidIdFormat", "InvalidIdFormat")
    InvalidAddress = ErrorSpec("InvalidAddress", "InvalidAddress")
    InvalidSecurity = ErrorSpec("InvalidSecurity", "InvalidSecurity")
    # botocore's SQS retry policy expects RequestThrottled with HTTP 403.
    RequestThrottled = ErrorSpec("RequestThrottled", "RequestThrottled", 403)
    KmsAccessDenied = ErrorSpec("KmsAccessDenied", "KMS.AccessDeniedException")
    KmsDisabled = ErrorSpec("KmsDisabled", "KMS.DisabledException")
    KmsInvalidKeyUsage = ErrorSpec("KmsInvalidKeyUsage", "KMS.InvalidKeyUsageException")
    KmsInvalidState = ErrorSpec("KmsInvalidState", "KMS.InvalidStateException")
    KmsNotFound = ErrorSpec("KmsNotFound", "KMS.NotFoundException")
    KmsOptInRequired = ErrorSpec("KmsOptInRequired", "KMS.OptInRequired")
    KmsThrottled = ErrorSpec("KmsThrottled", "KMS.ThrottlingException")
    ResourceNotFoundException = ErrorSpec(
        "ResourceNotFoundException", "ResourceNotFoundException", 404
    )
    InvalidParameterValue = ErrorSpec(
        "InvalidParameterValueException", "InvalidParameterValue", modelled=False
    )
    MissingParameter = ErrorSpec(
        "MissingRequiredParameterException", "MissingParameter", modelled=False
    )
    # YMQ's own answers (YDB `error.cpp`): attribute and queue-creation checks, unknown actions.
    ValidationError = ErrorSpec("ValidationError", "ValidationError", modelled=False)
    MissingAction = ErrorSpec("MissingAction", "MissingAction", modelled=False)
    # Protocol-level errors: the request could not be understood at all.
    InvalidAction = ErrorSpec("InvalidAction", "InvalidAction", modelled=False)
    MalformedQueryString = ErrorSpec(
        "MalformedQueryString", "MalformedQueryString", 404, modelled=False
    )
    UnknownOperation = ErrorSpec(
        "UnknownOperationException", "UnknownOperationException", modelled=False
    )
    SerializationException = ErrorSpec(
        "SerializationException", "SerializationException", modelled=False
    )
    AccessDenied = ErrorSpec("AccessDeniedException", "AccessDenied", 403, modelled=False)
    # Authentication (SigV4), checked only when signature verification is on.
    InvalidClientTokenId = ErrorSpec(
        "InvalidClientTokenId", "InvalidClientTokenId", 403, modelled=False
    )
    SignatureDoesNotMatch = ErrorSpec(
        "SignatureDoesNotMatch", "SignatureDoesNotMatch", 403, modelled=False
    )
    MissingAuthenticationToken = ErrorSpec(
        "MissingAuthenticationToken", "MissingAuthenticationToken", 403, modelled=False
    )
    IncompleteSignature = ErrorSpec(
        "IncompleteSignature", "IncompleteSignature", 400, modelled=False
    )
    InternalError = ErrorSpec("InternalError", "InternalError", 500, "Receiver", modelled=False)
    ServiceUnavailable = ErrorSpec(
        "ServiceUnavailable", "ServiceUnavailable", 503, "Receiver", modelled=False
    )
    ThrottlingException = ErrorSpec("ThrottlingException", "ThrottlingException", modelled=False)

    @property
    def spec(self) -> ErrorSpec:
        value: ErrorSpec = self.value
        return value


class SqsError(Exception):
    """An AWS error answer. `error` is a row of the catalogue, `message` AWS's exact text."""

    def __init__(self, error: ErrorCode | ErrorSpec, message: str) -> None:
        super().__init__(message)
        self.spec = error.spec if isinstance(error, ErrorCode) else error
        self.message = message

    def __repr__(self) -> str:
        return f"SqsError({self.spec.query_code!r}, {self.message!r})"


Err = ErrorCode  # the earlier name, kept importable
