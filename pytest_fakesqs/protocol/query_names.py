"""Query-protocol wire names that botocore's JSON model of SQS no longer carries.

The query model named list elements and map entries with `locationName` traits
(`AttributeName.1`, `Attribute.1.Name`, `<QueueUrl>`); the JSON model kept the shapes, their
names and `flattened`, but dropped those names. This table restores them, keyed by shape name,
which both models share; a test checks it against a query-protocol botocore when one is installed.
"""

from __future__ import annotations

from typing import NamedTuple

# List shape -> the name each element goes by: `AttributeName.1=...` and `<QueueUrl>` repeated.
LIST_ELEMENTS: dict[str, str] = {
    "AWSAccountIdList": "AWSAccountId",
    "ActionNameList": "ActionName",
    "AttributeNameList": "AttributeName",
    "BatchResultErrorEntryList": "BatchResultErrorEntry",
    "BinaryList": "BinaryListValue",
    "ChangeMessageVisibilityBatchRequestEntryList": "ChangeMessageVisibilityBatchRequestEntry",
    "ChangeMessageVisibilityBatchResultEntryList": "ChangeMessageVisibilityBatchResultEntry",
    "DeleteMessageBatchRequestEntryList": "DeleteMessageBatchRequestEntry",
    "DeleteMessageBatchResultEntryList": "DeleteMessageBatchResultEntry",
    "ListMessageMoveTasksResultEntryList": "ListMessageMoveTasksResultEntry",
    "MessageAttributeNameList": "MessageAttributeName",
    "MessageList": "Message",
    # Added after SQS moved to JSON; AWS's query reference names it MessageSystemAttributeName.N.
    "MessageSystemAttributeList": "MessageSystemAttributeName",
    "QueueUrlList": "QueueUrl",
    "SendMessageBatchRequestEntryList": "SendMessageBatchRequestEntry",
    "SendMessageBatchResultEntryList": "SendMessageBatchResultEntry",
    "StringList": "StringListValue",
    "TagKeyList": "TagKey",
}


class MapEntry(NamedTuple):
    entry: str  # the repeated element / parameter prefix
    key: str
    value: str


# Map shape -> how each entry is spelled: `Attribute.1.Name=...&Attribute.1.Value=...`.
MAP_ENTRIES: dict[str, MapEntry] = {
    "MessageBodyAttributeMap": MapEntry("MessageAttribute", "Name", "Value"),
    "MessageBodySystemAttributeMap": MapEntry("MessageSystemAttribute", "Name", "Value"),
    "MessageSystemAttributeMap": MapEntry("Attribute", "Name", "Value"),
    "QueueAttributeMap": MapEntry("Attribute", "Name", "Value"),
    "TagMap": MapEntry("Tag", "Key", "Value"),
}
