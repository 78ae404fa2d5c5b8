"""The error texts: one row per text the fake answers with, its error row and its source.

`raise ErrorText.X(field=value)` builds the SqsError. Every row says where its wording comes from, so
users (docs/fifo-and-aws-rules.md) and tests (tests/api/test_error_texts.py) know which texts to trust:

- recorded: in the responses recorded against real SQS (tests/api/aws_recorded); the evidence
  names the scenario, and a test finds the text there;
- documented: an AWS documentation page or, for YMQ, YDB's published source (the service's own);
- quoted: a real AWS reply quoted in a public report (an issue, a pull request, an AWS-validated
  test that asserts the text); the evidence names it;
- guessed: none of these was found; the wording is the fake's best guess (the evidence says what
  it rests on). Replace a guess when a real reply turns up.
"""

from __future__ import annotations

import enum
from typing import Any

from .errors import ErrorCode, SqsError


class Source(enum.Enum):
    RECORDED = "recorded"
    DOCUMENTED = "documented"
    QUOTED = "quoted"
    GUESSED = "guessed"


RECORDED, DOCUMENTED, QUOTED, GUESSED = Source
_INVALID_PARAMETER_VALUE = ErrorCode.InvalidParameterValue
_INVALID_ATTRIBUTE_VALUE = ErrorCode.InvalidAttributeValue
_INVALID_ATTRIBUTE_NAME = ErrorCode.InvalidAttributeName
_VALIDATION_ERROR = ErrorCode.ValidationError
_VALUE_OF = "Value {value} for parameter {name} is invalid. Reason: "
_NOT_VALID_ARN = "Value {value} for parameter RedrivePolicy is invalid. Reason: "
_REDRIVE_ALLOW = (
    "Value {value} for parameter RedriveAllowPolicy is invalid. Reason: Amazon SQS can't create "
    "the redrive allow policy. "
)
_YDB = "YDB source (ydb-platform/ydb), "


class ErrorText(enum.Enum):
    """(error row, source, evidence, template); str.format fields fill the template."""

    def __init__(self, error: ErrorCode, source: Source, evidence: str, template: str) -> None:
        self.error = error
        self.source = source
        self.evidence = evidence
        self.template = template

    def __call__(self, **fields: Any) -> SqsError:
        return SqsError(self.error, self.template.format(**fields) if fields else self.template)

    # fmt: off
    # -- queues ---------------------------------------------------------------------------------
    QUEUE_DOES_NOT_EXIST = (ErrorCode.QueueDoesNotExist, RECORDED, "test_non_existent_queue", "The specified queue does not exist.")
    QUEUE_DOES_NOT_EXIST_QUERY = (ErrorCode.QueueDoesNotExist, RECORDED, "test_non_existent_queue", "The specified queue does not exist for this wsdl version.")
    QUEUE_NAME_EXISTS = (ErrorCode.QueueNameExists, RECORDED, "test_create_queue_with_different_attributes_raises_exception", "A queue already exists with the same name and a different value for attribute {attribute}")
    QUEUE_DELETED_RECENTLY = (ErrorCode.QueueDeletedRecently, QUOTED, "hashicorp/terraform-provider-aws resource_aws_sqs_queue.go retries CreateQueue on exactly this reply", "You must wait 60 seconds after deleting a queue before you can create another with the same name.")
    QUEUE_NAME_INVALID = (_INVALID_PARAMETER_VALUE, QUOTED, "boto/botocore#3058 (2023: a standard queue named *.fifo); jamesyonan/brenda#19 (2015)", "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length")
    FIFO_QUEUE_NAME_INVALID = (_INVALID_PARAMETER_VALUE, QUOTED, "pulumi/pulumi-aws-native#794 (2023, with an SQS request id); mapbox/cloudfriend#94 (2020)", "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.")
    TOO_MANY_QUEUES = (ErrorCode.OverLimit, GUESSED, "a per-account queue quota (YMQ: 1,000 per cloud); AWS has none", "Too many queues.")
    PURGE_IN_PROGRESS = (ErrorCode.PurgeQueueInProgress, RECORDED, "test_successive_purge_calls_fail", "Only one PurgeQueue operation on {name} is allowed every 60 seconds.")
    UNKNOWN_ATTRIBUTE = (_INVALID_ATTRIBUTE_NAME, RECORDED, "test_create_standard_queue_with_fifo_attribute_raises_error", "Unknown Attribute {name}.")
    FIFO_ONLY_ATTRIBUTE = (_INVALID_ATTRIBUTE_NAME, RECORDED, "test_create_standard_queue_with_fifo_attribute_raises_error", "You can specify the {name} only when FifoQueue is set to true.")
    ATTRIBUTES_NOT_A_MAP = (_INVALID_ATTRIBUTE_NAME, GUESSED, "a JSON client sent a non-map; botocore never does", "Attributes must be a map.")
    MODIFYING_QUEUE_TYPE = (_INVALID_ATTRIBUTE_VALUE, RECORDED, "test_set_unsupported_attribute_fifo", "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.")
    ATTRIBUTE_VALUE_INVALID = (_INVALID_ATTRIBUTE_VALUE, QUOTED, "hashicorp/terraform-provider-aws#42209 (2025: SQS's JSON reply for Policy)", "Invalid value for the parameter {name}.")
    ATTRIBUTE_VALUE_OUT_OF_RANGE_YMQ = (_INVALID_ATTRIBUTE_VALUE, DOCUMENTED, _YDB + "queue attribute validation", "Invalid value for the parameter {name}. Valid values are from {low} to {high} both inclusive.")
    YMQ_BOOLEAN_INVALID = (_INVALID_ATTRIBUTE_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/queue_attributes.cpp", "Invalid value for the parameter {name}. Valid values: true, false.")
    THROUGHPUT_NEEDS_GROUP_SCOPE = (_INVALID_ATTRIBUTE_VALUE, GUESSED, "the CreateQueue documentation's rule, in the recorded 'Invalid value ... Reason:' form", "Invalid value for the parameter FifoThroughputLimit. Reason: The perMessageGroupId value is allowed only when the value for DeduplicationScope is messageGroup")
    ONE_KIND_OF_SSE = (_INVALID_ATTRIBUTE_NAME, GUESSED, "the SSE documentation's rule; no reply found", "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.")
    LIST_MAX_RESULTS = (_INVALID_PARAMETER_VALUE, GUESSED, "the ListQueues documentation's range", _VALUE_OF + "MaxResults must be an integer between 1 and {maximum}.")
    NEXT_TOKEN_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "no reply found", _VALUE_OF + "Invalid NextToken value.")
    # -- tags -----------------------------------------------------------------------------------
    TAG_KEY_LENGTH = (_INVALID_PARAMETER_VALUE, GUESSED, "the tagging documentation's limits", "Tag keys must be between 1 and {maximum} characters in length.")
    TAG_VALUE_LENGTH = (_INVALID_PARAMETER_VALUE, GUESSED, "the tagging documentation's limits", "Tag values must be between 0 and {maximum} characters in length.")
    TOO_MANY_TAGS = (_INVALID_PARAMETER_VALUE, GUESSED, "the tagging documentation's 50-tag limit", "Too many tags added for queue {name}.")
    TOO_MANY_TAGS_AT_CREATE = (_INVALID_PARAMETER_VALUE, GUESSED, "the tagging documentation's 50-tag limit", "Too many tags added for queue. Max tags: {maximum}.")
    # -- parameters -----------------------------------------------------------------------------
    MISSING_PARAMETER = (ErrorCode.MissingParameter, RECORDED, "test_send_empty_message", "The request must contain the parameter {name}.")
    NOT_A_STRING = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-string; botocore never does", _VALUE_OF + "Must be a string.")
    NOT_AN_INTEGER = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-integer; botocore never does", _VALUE_OF + "Must be an integer.")
    NOT_A_STRING_LIST = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-list; botocore never does", _VALUE_OF + "Must be a list of strings.")
    PARAMETER_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "the recorded 'Value for parameter TaskHandle is invalid.' form, for a malformed list or map", "Value for parameter {name} is invalid.")
    # -- receiving ------------------------------------------------------------------------------
    MAX_NUMBER_OF_MESSAGES = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_receive_max_number_of_messages", _VALUE_OF + "Must be between 1 and 10, if provided.")
    WAIT_TIME_SECONDS = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_receive_wait_time_seconds", _VALUE_OF + "Must be >= 0 and <= {maximum}, if provided.")
    VISIBILITY_TIMEOUT = (_INVALID_PARAMETER_VALUE, GUESSED, "WaitTimeSeconds' recorded wording, with VisibilityTimeout's range", _VALUE_OF + "Must be >= 0 and <= {maximum}, if provided.")
    ATTEMPT_ID_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "the recorded MessageGroupId wording, for ReceiveRequestAttemptId", _VALUE_OF + "ReceiveRequestAttemptId can only include alphanumeric and punctuation characters. 1 to 128 in length.")
    OVER_LIMIT = (ErrorCode.OverLimit, QUOTED, "an SQS ErrorResponse quoted in Cbsoftware/pressureNET-server#74 (2014, line break included)", "Too many messages have been received without being deleted.\nPlease delete your received messages or let them timeout before receiving more.")
    # -- receipt handles ------------------------------------------------------------------------
    RECEIPT_HANDLE_INVALID = (ErrorCode.ReceiptHandleIsInvalid, QUOTED, "LocalStack's AWS-validated test_sqs.py asserts it for a garbage handle", 'The input receipt handle "{handle}" is not a valid receipt handle.')
    RECEIPT_HANDLE_EXPIRED = (_INVALID_PARAMETER_VALUE, RECORDED, "test_fifo_delete_after_visibility_timeout", "Value {handle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.")
    NOT_AVAILABLE_FOR_VISIBILITY = (_INVALID_PARAMETER_VALUE, QUOTED, "aws/aws-sdk-net#1927; LocalStack's AWS-validated test_sqs.py", "Value {handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.")
    VISIBILITY_BEYOND_LIMIT = (_INVALID_PARAMETER_VALUE, QUOTED, "localstack/localstack#3956 (2021, an AWS reply); aws/aws-sdk-net#794 (2017)", "Value {timeout} for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]")
    # -- sending --------------------------------------------------------------------------------
    DELAY_SECONDS = (_INVALID_PARAMETER_VALUE, QUOTED, "aws-samples/amazon-sqs-dlq-replay-backoff#8 (2022)", _VALUE_OF + "DelaySeconds must be >= 0 and <= {maximum}.")
    NOT_FOR_THIS_QUEUE_TYPE = (_INVALID_PARAMETER_VALUE, RECORDED, "test_fifo_queue_send_message_with_delay_seconds_fails", _VALUE_OF + "The request include parameter that is not valid for this queue type.")
    FIFO_ID_INVALID = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_message_to_standard_queue_with_invalid_message_group_id", _VALUE_OF + "{name} can only include alphanumeric and punctuation characters. 1 to 128 in length.")
    BATCH_MISSING_GROUP_ID = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_batch_missing_message_group_id_for_fifo_queue", "The request must contain the parameter MessageGroupId.")
    FIFO_NEEDS_DEDUPLICATION = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_batch_missing_deduplication_id_for_fifo_queue", "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
    INVALID_MESSAGE_CONTENTS = (ErrorCode.InvalidMessageContents, QUOTED, "asim/nitro-plugins#437 (2019)", "Invalid binary character '{character}' was found in the message body, the set of allowed characters is #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].")
    MESSAGE_TOO_LONG = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_oversized_message", "One or more parameters are invalid. Reason: Message must be shorter than {maximum} bytes.")
    BATCH_MESSAGE_TOO_LONG = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_batch_message_size", "One or more parameters cannot be validated. Reason: Message must be shorter than {maximum} bytes.")
    SYSTEM_ATTRIBUTE_UNSUPPORTED = (_INVALID_PARAMETER_VALUE, GUESSED, "the SendMessage documentation: only AWSTraceHeader", _VALUE_OF + "Only AWSTraceHeader is supported.")
    TRACE_HEADER_EMPTY = (_INVALID_PARAMETER_VALUE, GUESSED, "the recorded user-attribute wording, for the system attribute", "Message (system) attribute 'AWSTraceHeader' must contain a non-empty value of type 'String'.")
    TRACE_HEADER_CHARACTERS = (_INVALID_PARAMETER_VALUE, GUESSED, "the user-attribute wording, for the system attribute", "Message (system) attribute 'AWSTraceHeader' must contain a value with valid characters.")
    # -- message attributes ---------------------------------------------------------------------
    ATTRIBUTES_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-map; botocore never does", "The message attributes are invalid.")
    TOO_MANY_ATTRIBUTES = (_INVALID_PARAMETER_VALUE, QUOTED, "aws/aws-sdk-js#2876 (2019): 'message attributes [11] exceeds the allowed maximum'", "Number of message attributes [{count}] exceeds the allowed maximum [{maximum}].")
    ATTRIBUTE_NAME_EMPTY = (_INVALID_PARAMETER_VALUE, QUOTED, "aws/aws-sdk-php#694 (2015), aws/aws-sdk-java#1030 (2017)", "The request must contain non-empty message attribute name.")
    ATTRIBUTE_NAME_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "LocalStack's wording (AWS's odd phrasing, trailing space and all, it seems); no AWS reply found", "Message (user) attributes name can only contain upper and lower score characters, digits, periods, hyphens and underscores. ")
    ATTRIBUTE_NAME_RESERVED = (_INVALID_PARAMETER_VALUE, GUESSED, "LocalStack's wording; no AWS reply found", "You can't use message attribute names beginning with 'AWS.' or 'Amazon.'. These strings are reserved for internal use. Additionally, they cannot start or end with '.'.")
    ATTRIBUTE_NAME_PERIODS = (_INVALID_PARAMETER_VALUE, GUESSED, "the documentation's 'no periods in a sequence'; the fake's own wording", "Message (user) attribute name '{name}' is invalid.")
    ATTRIBUTE_NAME_TOO_LONG = (_INVALID_PARAMETER_VALUE, GUESSED, "LocalStack's wording; no AWS reply found", "Message (user) attribute names must be shorter than 256 Bytes")
    ATTRIBUTE_SPEC_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-structure; botocore never does", "Message (user) attribute '{name}' is invalid.")
    ATTRIBUTE_TYPE_EMPTY = (_INVALID_PARAMETER_VALUE, GUESSED, "the recorded 'must contain a non-empty value' wording, for the type", "Message (user) attribute '{name}' must contain a non-empty attribute type.")
    ATTRIBUTE_TYPE_INVALID = (_INVALID_PARAMETER_VALUE, QUOTED, "grafana/k6-jslib-aws#65 (2023); the 2015 wording, boto/boto3#362, differs", "The type of message (user) attribute '{name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String.")
    ATTRIBUTE_TYPE_TOO_LONG = (_INVALID_PARAMETER_VALUE, GUESSED, "LocalStack's wording; no AWS reply found", "Message (user) attribute types must be shorter than 256 Bytes")
    ATTRIBUTE_LIST_VALUES = (ErrorCode.UnsupportedOperation, GUESSED, "the documentation: list values are 'not implemented'", "Message attribute list values in SendMessage operation are not supported.")
    ATTRIBUTE_BINARY_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "a query client sent bad base64; botocore never does", "Message (user) attribute '{name}' has an invalid binary value.")
    ATTRIBUTE_VALUE_EMPTY = (_INVALID_PARAMETER_VALUE, RECORDED, "test_send_message_with_empty_string_attribute", "Message (user) attribute '{name}' must contain a non-empty value of type '{kind}'.")
    ATTRIBUTE_VALUE_CHARACTERS = (_INVALID_PARAMETER_VALUE, GUESSED, "the recorded empty-value wording; LocalStack's AWS-validated test matches only 'Invalid'", "Message (user) attribute '{name}' must contain a value with valid characters.")
    ATTRIBUTE_NOT_A_NUMBER = (_INVALID_PARAMETER_VALUE, GUESSED, "a real reply is cited by other emulators, but not where it was published", "Can't cast the value of message (user) attribute '{name}' to a number.")
    ATTRIBUTE_NUMBER_RANGE = (_INVALID_PARAMETER_VALUE, GUESSED, "the documentation's Number range", "Value {value} for message (user) attribute '{name}' is invalid. Reason: Number values must be within 38 digits of precision and between 10^-128 and 10^+126.")
    # -- batches --------------------------------------------------------------------------------
    EMPTY_BATCH = (ErrorCode.EmptyBatchRequest, QUOTED, "aws/aws-sdk-php#630 (2015, DeleteMessageBatch); localstack/localstack#1658 (2019, SendMessageBatch)", "There should be at least one {action}RequestEntry in the request.")
    TOO_MANY_ENTRIES = (ErrorCode.TooManyEntriesInBatchRequest, RECORDED, "test_too_many_entries_in_batch_request", "Maximum number of entries per request are {maximum}. You have sent {count}.")
    BATCH_ENTRY_NOT_A_STRUCTURE = (_INVALID_PARAMETER_VALUE, GUESSED, "a JSON client sent a non-structure; botocore never does", "Batch entries must be structures.")
    INVALID_BATCH_ENTRY_ID = (ErrorCode.InvalidBatchEntryId, RECORDED, "test_invalid_batch_id", "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.")
    BATCH_ENTRY_IDS_NOT_DISTINCT = (ErrorCode.BatchEntryIdsNotDistinct, QUOTED, "elixir-broadway/broadway_sqs#49 (2020, with an SQS request id)", "Id {id} repeated.")
    BATCH_REQUEST_TOO_LONG = (ErrorCode.BatchRequestTooLong, RECORDED, "test_send_message_batch_with_oversized_contents", "Batch requests cannot be longer than {maximum} bytes. You have sent {total} bytes.")
    # -- dead-letter queues ---------------------------------------------------------------------
    REDRIVE_NOT_JSON = (_INVALID_ATTRIBUTE_VALUE, GUESSED, "the 'Invalid value ... Reason:' form AWS recorded for FifoQueue", "Invalid value for the parameter RedrivePolicy. Reason: Redrive policy is not a valid JSON map.")
    REDRIVE_MISSING_KEY = (_INVALID_PARAMETER_VALUE, QUOTED, "crossplane-contrib/provider-aws#443 (2020)", _NOT_VALID_ARN + "Redrive policy does not contain mandatory attribute: {key}.")
    REDRIVE_COUNT = (_INVALID_PARAMETER_VALUE, GUESSED, "the documented 1-1000 range; no reply found", _NOT_VALID_ARN + "Invalid value for maxReceiveCount: {count}, valid values are from 1 to {maximum} both inclusive.")
    REDRIVE_ARN_NOT_QUALIFIED = (_INVALID_PARAMETER_VALUE, GUESSED, "no reply found", _NOT_VALID_ARN + "Dead-letter target ARN should be fully qualified ARN.")
    REDRIVE_EXTRA_KEYS = (_INVALID_PARAMETER_VALUE, GUESSED, "no reply found", _NOT_VALID_ARN + "Only following attributes are supported: [maxReceiveCount, deadLetterTargetArn].")
    REDRIVE_NOT_SQS = (_INVALID_PARAMETER_VALUE, GUESSED, "no reply found", _NOT_VALID_ARN + "Only SQS queues are valid resources for deadLetterTargetArn.")
    REDRIVE_TYPE_MISMATCH = (_INVALID_PARAMETER_VALUE, GUESSED, "no reply found (the double period is deliberate)", _NOT_VALID_ARN + "Dead-letter queue must be same type of queue as the source..")
    REDRIVE_TARGET_MISSING = (_INVALID_PARAMETER_VALUE, QUOTED, "serverless/serverless#5215 (2018)", _NOT_VALID_ARN + "Dead letter target does not exist.")
    REDRIVE_NOT_ALLOWED = (_INVALID_PARAMETER_VALUE, GUESSED, "the RedriveAllowPolicy documentation; no reply found", _NOT_VALID_ARN + "Source queue is not allowed by the RedriveAllowPolicy of the dead-letter queue.")
    REDRIVE_ALLOW_FORMAT = (_INVALID_ATTRIBUTE_VALUE, GUESSED, "no reply found", "Invalid value for the parameter RedriveAllowPolicy. Reason: Amazon SQS can't create the redrive allow policy, as it’s in an unsupported format.")  # noqa: RUF001
    REDRIVE_ALLOW_ARNS_NEED_BY_QUEUE = (_INVALID_PARAMETER_VALUE, GUESSED, "the RedriveAllowPolicy documentation", _REDRIVE_ALLOW + "To specify one or more source queue ARNs, you must set redrivePermission to byQueue.")
    REDRIVE_ALLOW_BY_QUEUE_NEEDS_ARNS = (_INVALID_PARAMETER_VALUE, GUESSED, "the RedriveAllowPolicy documentation", _REDRIVE_ALLOW + "When you specify the byQueue permission type, you must also specify one or more sourceQueueArns values.")
    REDRIVE_ALLOW_TOO_MANY_ARNS = (_INVALID_PARAMETER_VALUE, GUESSED, "the RedriveAllowPolicy documentation", _REDRIVE_ALLOW + "The maximum number of source queue ARNs you can specify is {maximum}.")
    # -- move tasks -----------------------------------------------------------------------------
    ARN_FORMAT = (_INVALID_PARAMETER_VALUE, GUESSED, "the StartMessageMoveTask documentation's ARN form", "You must use this format to specify the {parameter}: arn:<partition>:<service>:<region>:<account-id>:<resource-id>")
    RESOURCE_NOT_FOUND = (ErrorCode.ResourceNotFoundException, RECORDED, "test_destination_needs_to_exist", "The resource that you specified for the {parameter} parameter doesn't exist.")
    MOVE_RATE = (_INVALID_PARAMETER_VALUE, GUESSED, "the StartMessageMoveTask documentation's range", _VALUE_OF + "Must be between 1 and {maximum}, if provided.")
    SOURCE_NOT_A_DLQ = (_INVALID_PARAMETER_VALUE, RECORDED, "test_source_needs_redrive_policy", "Source queue must be configured as a Dead Letter Queue.")
    TASK_ALREADY_RUNNING = (_INVALID_PARAMETER_VALUE, RECORDED, "test_start_multiple_move_tasks", "There is already a task running. Only one active task is allowed for a source queue arn at a given time.")
    MOVE_LIST_MAX_RESULTS = (_INVALID_PARAMETER_VALUE, GUESSED, "the ListMessageMoveTasks documentation's range", _VALUE_OF + "You must enter a number that's between 1 and {maximum}.")
    TASK_HANDLE_INVALID = (_INVALID_PARAMETER_VALUE, RECORDED, "test_cancel_with_invalid_task_handle", "Value for parameter TaskHandle is invalid.")
    TASK_NOT_FOUND = (ErrorCode.ResourceNotFoundException, RECORDED, "test_cancel_with_invalid_task_id_in_task_handle", "Task does not exist.")
    # -- permissions ----------------------------------------------------------------------------
    LABEL_INVALID = (_INVALID_PARAMETER_VALUE, GUESSED, "the AddPermission documentation's label rule", _VALUE_OF + "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.")
    LABEL_EXISTS = (_INVALID_PARAMETER_VALUE, RECORDED, "test_sqs_permission_lifecycle", _VALUE_OF + "Already exists.")
    LABEL_NOT_FOUND = (_INVALID_PARAMETER_VALUE, RECORDED, "test_sqs_permission_lifecycle", _VALUE_OF + "can't find label.")
    PRINCIPAL_UNVERIFIED = (_INVALID_PARAMETER_VALUE, QUOTED, "aws/aws-sdk#414 (2022), for a principal AWS cannot verify", _VALUE_OF + "Unable to verify principal.")
    TOO_MANY_ACTIONS = (ErrorCode.OverLimit, GUESSED, "the 7-action limit; SetQueueAttributes words it '10 actions were found in a statement from the submitted policy, max allowed is 7' (ministryofjustice/cloud-platform-environments#9082), AddPermission's reply not found", "{count} Actions were found, maximum allowed is {maximum}.")
    ACTION_OWNER_ONLY = (_INVALID_PARAMETER_VALUE, GUESSED, "the AddPermission documentation: owner-only actions", _VALUE_OF + "Only the queue owner is allowed to invoke this action.")
    ACTION_UNKNOWN = (_INVALID_PARAMETER_VALUE, QUOTED, "cloudtools/awacs#34 (2016)", _VALUE_OF + "Please refer to the appropriate WSDL for a list of valid actions.")
    # -- the request itself ---------------------------------------------------------------------
    INVALID_ACTION = (ErrorCode.InvalidAction, QUOTED, "mirkokiefer/aws-lib#8 (2011), XervoIO/aws-sqs#1 (2012)", "The action {action} is not valid for this endpoint.")
    MISSING_ACTION = (ErrorCode.MissingAction, GUESSED, "the recorded MissingParameter wording, for Action", "The request must contain the parameter Action.")
    UNKNOWN_OPERATION = (ErrorCode.UnknownOperation, GUESSED, "no reply found", "Unknown operation {target}.")
    SERIALIZATION = (ErrorCode.SerializationException, GUESSED, "AWS JSON services' usual wording; no SQS reply found", "Start of structure or map found where not expected.")
    MALFORMED_QUERY_STRING = (ErrorCode.MalformedQueryString, GUESSED, "no reply found", "The query string contains a syntax error.")
    INTERNAL_ERROR = (ErrorCode.InternalError, GUESSED, "the fake's own failure, shown to help report it", "We encountered an internal error: {detail}")
    INVALID_TOKEN = (ErrorCode.InvalidClientTokenId, DOCUMENTED, "AWS API reference, Common Errors", "The security token included in the request is invalid.")
    SIGNATURE_MISMATCH = (ErrorCode.SignatureDoesNotMatch, QUOTED, "SQS ErrorResponses quoted in boto/boto#1573 (2013), aws/aws-cli#5341 (2020)", "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\nThe Canonical String for this request should have been\n'{canonical}'\n\nThe String-to-Sign should have been\n'{to_sign}'\n")
    MISSING_TOKEN = (ErrorCode.MissingAuthenticationToken, DOCUMENTED, "AWS API reference, Common Errors", "The request must contain either a valid (registered) AWS access key ID or X.509 certificate.")
    INCOMPLETE_SIGNATURE = (ErrorCode.IncompleteSignature, DOCUMENTED, "AWS API reference, Common Errors", "The request signature does not conform to AWS standards.")
    # -- injected by a test (fail_next): what SQS, or KMS behind it, says with each -------------
    INJECTED_REQUEST_THROTTLED = (ErrorCode.RequestThrottled, QUOTED, "awslabs/amazon-sqs-java-temporary-queues-client#19 (2019, HTTP 403)", "Request is throttled.")
    INJECTED_THROTTLING = (ErrorCode.ThrottlingException, GUESSED, "the usual AWS throttling wording; no SQS reply found", "Rate exceeded")
    INJECTED_KMS_THROTTLED = (ErrorCode.KmsThrottled, DOCUMENTED, "SQS API reference, KmsThrottled", "The request was denied due to request throttling.")
    # -- accounts and queue policies (enforce_policies) ------------------------------------------
    ACCESS_DENIED = (ErrorCode.AccessDenied, QUOTED, "microsoft/aspire#3333 (2024: a cross-account SendMessage); aws/serverless-application-model#3633 (2024: SendMessageBatch names sqs:sendmessage)", "User: {principal} is not authorized to perform: {action} on resource: {resource} because no resource-based policy allows the {action} action")
    ACCESS_DENIED_EXPLICIT = (ErrorCode.AccessDenied, DOCUMENTED, "IAM User Guide, 'Access denied error messages' (the explicit-deny ending); no SQS reply found", "User: {principal} is not authorized to perform: {action} on resource: {resource} with an explicit deny in a resource-based policy")
    SERVICE_ACCESS_DENIED = (ErrorCode.AccessDenied, QUOTED, "MassTransit/MassTransit#1525 (2019: an SNS delivery log)", "Access to the resource {url} is denied.")
    CONDITION_NOT_EVALUATED = (_INVALID_ATTRIBUTE_VALUE, GUESSED, "the fake's own refusal: AWS evaluates these operators, enforce_policies does not", "fakesqs (enforce_policies=True) does not evaluate the condition operator {operators}; it evaluates ArnEquals, ArnLike, StringEquals, StringLike, StringNotEquals, Bool, Null and their IfExists/Not forms, on the keys {keys}. Turn enforce_policies off for this queue's tests.")
    CONDITION_NOT_EVALUATED_IN_POLICY = (_INVALID_ATTRIBUTE_VALUE, GUESSED, "the fake's own refusal of a policy stored before enforcement was on", "fakesqs cannot evaluate the condition operator {operator} in the policy of {queue}.")
    INJECTED_KMS_ACCESS_DENIED = (ErrorCode.KmsAccessDenied, DOCUMENTED, "SQS API reference, KmsAccessDenied", "The caller doesn't have the required KMS access.")
    INJECTED_KMS_DISABLED = (ErrorCode.KmsDisabled, DOCUMENTED, "SQS API reference, KmsDisabled", "The request was denied because the specified key is disabled.")
    INJECTED_KMS_INVALID_KEY_USAGE = (ErrorCode.KmsInvalidKeyUsage, DOCUMENTED, "SQS API reference, KmsInvalidKeyUsage", "The request was rejected for one of the following reasons: the KeyUsage value of the KMS key is incompatible with the API operation, or the encryption algorithm or signing algorithm specified for the operation is incompatible with the type of key material in the KMS key.")
    INJECTED_KMS_INVALID_STATE = (ErrorCode.KmsInvalidState, DOCUMENTED, "SQS API reference, KmsInvalidState", "The request was rejected because the state of the specified resource is not valid for this request.")
    INJECTED_KMS_NOT_FOUND = (ErrorCode.KmsNotFound, DOCUMENTED, "SQS API reference, KmsNotFound", "The request was rejected because the specified entity or resource can't be found.")
    INJECTED_KMS_OPT_IN_REQUIRED = (ErrorCode.KmsOptInRequired, DOCUMENTED, "SQS API reference, KmsOptInRequired", "The request was rejected because the specified key policy isn't syntactically or semantically correct.")
    INJECTED_INTERNAL_ERROR = (ErrorCode.InternalError, GUESSED, "no reply found", "We encountered an internal error. Please try again.")
    INJECTED_SERVICE_UNAVAILABLE = (ErrorCode.ServiceUnavailable, DOCUMENTED, "AWS API reference, Common Errors", "The request has failed due to a temporary failure of the server.")
    INJECTED_INVALID_SECURITY = (ErrorCode.InvalidSecurity, DOCUMENTED, "SQS API reference, InvalidSecurity", "The request was not made over HTTPS or did not use SigV4 for signing.")
    INJECTED_PURGE_IN_PROGRESS = (ErrorCode.PurgeQueueInProgress, GUESSED, "the recorded text without the queue's name", "Only one PurgeQueue operation is allowed every 60 seconds.")
    INJECTED_UNSUPPORTED_OPERATION = (ErrorCode.UnsupportedOperation, GUESSED, "no reply found", "This operation is not supported.")
    # -- Yandex Message Queue (flavor "ymq"): YDB's own texts -----------------------------------
    YMQ_QUEUE_DOES_NOT_EXIST = (ErrorCode.QueueDoesNotExist, DOCUMENTED, _YDB + "ydb/library/http_proxy/error/error.cpp", "The specified queue doesn't exist.")
    YMQ_OVER_LIMIT = (ErrorCode.OverLimit, DOCUMENTED, _YDB + "ydb/library/http_proxy/error/error.cpp, OverLimit's default", "The specified action violates a limit. For example, ReceiveMessage returns this error if the maximum number of inflight messages is reached and AddPermission returns this error if the maximum number of permissions for the queue is reached.")
    YMQ_UNKNOWN_ACTION_QUERY = (ErrorCode.MissingAction, DOCUMENTED, _YDB + "ydb/core/ymq/http: EAction::Unknown", 'Unknown action: "{action}".')
    YMQ_UNKNOWN_METHOD_JSON = (ErrorCode.InvalidAction, DOCUMENTED, _YDB + "ydb/core/http_proxy: a method without a processor", 'Unknown method name "{action}"')
    YMQ_CANNOT_CREATE = (_VALIDATION_ERROR, DOCUMENTED, _YDB + "CreateQueue", "Cannot create queue: {reason}")
    YMQ_QUEUE_DELETED_RECENTLY = (ErrorCode.QueueDeletedRecently, DOCUMENTED, _YDB + "CreateQueue", "Queue was removed recently.")
    YMQ_QUEUE_EXISTS = (_VALIDATION_ERROR, DOCUMENTED, _YDB + "CreateQueue", "queue with specified name already exists and has different attributes.")
    YMQ_FIFO_NEEDS_ATTRIBUTE = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "CreateQueue", "The FifoQueue attribute should be set to true for FIFO queue.")
    YMQ_FIFO_NAME = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "CreateQueue", 'Name of FIFO queue should end with ".fifo".')
    YMQ_QUEUE_NAME_INVALID = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "CreateQueue", "Invalid queue name.")
    YMQ_TOO_MANY_TAGS = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "TTagValidator", "Too many tags added for queue")
    YMQ_TAG_EMPTY = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "TTagValidator", "Tag {part} must not be empty.")
    YMQ_TAG_KEY_START = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "TTagValidator", "Tag key must start with a lowercase letter (a-z).")
    YMQ_TAG_TOO_LONG = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "TTagValidator", "Tag {part} must not be longer than 63 characters.")
    YMQ_TAG_CHARACTERS = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "TTagValidator", "Tag {part} can only consist of ASCII lowercase letters, digits, dashes and underscores.")
    YMQ_REDRIVE_ILL_CONSTRUCTED = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "RedrivePolicy attribute is ill-constructed.")
    YMQ_REDRIVE_COUNT_NOT_INTEGER = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "Failed to parse maxReceiveCount as an integer.")
    YMQ_REDRIVE_COUNT = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "maxReceiveCount must be greater than 0 and less than 1001.")
    YMQ_REDRIVE_ARN = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "Invalid deadLetterTargetArn.")
    YMQ_REDRIVE_TYPE_MISMATCH = (_INVALID_PARAMETER_VALUE, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "Target dead letter queue should have the same type as source queue.")
    YMQ_REDRIVE_ITSELF = (_VALIDATION_ERROR, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "Using the queue itself as a dead letter queue is not allowed.")
    YMQ_REDRIVE_TARGET_MISSING = (_VALIDATION_ERROR, DOCUMENTED, _YDB + "ydb/core/ymq/base/dlq_helpers.cpp", "Target DLQ does not exist")
    # fmt: on


Text = ErrorText  # the earlier name, kept importable
