"""Replaying scenarios recorded against real SQS (/work/shared/aws-recorded/: sqs.snapshot.json
and, for message move tasks, sqs-move-task.snapshot.json).

The recordings are LocalStack's snapshots of real AWS answers (Apache-2.0, see
aws_recorded/README.md). A test performs the scenario's calls with a real boto3 client, hands each response (or error
response) to `Recording.match` under the recorded key, then `Recording.verify` normalises ids,
handles and timestamps the way the recording did and compares the whole thing exactly.

The recorded variant is chosen by the wire protocol the client speaks: `[sqs]` for AWS JSON 1.0,
`[sqs_query]` for the query/XML protocol (old botocore, e.g. the CI's second virtualenv).
"""

from __future__ import annotations

import base64
import difflib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

_SNAPSHOT_FILES = ("sqs.snapshot.json", "sqs-move-task.snapshot.json")
_CANDIDATE_DIRS = (Path(__file__).parent / "aws_recorded",)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_ARN = re.compile(r"^arn:aws:sqs:([^:]+):(\d{12}):(.+)$")
_PLACEHOLDER = re.compile(r"<([a-z-]+):(\d+)>")
_TIMESTAMP_KEYS = {
    "SentTimestamp",
    "ApproximateFirstReceiveTimestamp",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "StartedTimestamp",
    "timestamp",
}
_TOKEN_KEYS = {
    "ReceiptHandle": "receipt-handle",
    "SequenceNumber": "sequence-number",
    "SenderId": "sender-id",
    "TaskHandle": "task-handle",
}
ACCOUNT_ID = "123456789012"  # the fake's default account
REGION = "us-east-1"


def _load() -> dict[str, Any]:
    recorded: dict[str, Any] = {}
    for directory in _CANDIDATE_DIRS:
        for name in _SNAPSHOT_FILES:
            path = directory / name
            if path.exists():
                raw = json.loads(path.read_text())
                recorded.update(
                    {key.split("::")[-1]: value["recorded-content"] for key, value in raw.items()}
                )
    return recorded


RECORDED = _load()


def system_names_parameter(client: Any) -> str:
    """ReceiveMessage's system-attribute list: botocore before MessageSystemAttributeNames
    existed only knows the deprecated AttributeNames."""
    members = client.meta.service_model.operation_model("ReceiveMessage").input_shape.members
    return (
        "MessageSystemAttributeNames"
        if "MessageSystemAttributeNames" in members
        else "AttributeNames"
    )


def variant(client: Any) -> str:
    """`sqs` or `sqs_query`: the recording made over the protocol this client speaks."""
    return "sqs_query" if client.meta.service_model.protocol == "query" else "sqs"


class Recording:
    """What one scenario produced, keyed like the recording."""

    def __init__(self, scenario: str, client: Any) -> None:
        self.client = client
        self.scenario = scenario.format(p=variant(client))
        if not RECORDED:
            pytest.skip("the AWS recordings are not available on this machine")
        if self.scenario not in RECORDED:
            raise KeyError(f"no recorded scenario {self.scenario!r}")
        self.captured: dict[str, Any] = {}
        self.replacements: dict[str, str] = {}

    @property
    def expected(self) -> dict[str, Any]:
        expected: dict[str, Any] = RECORDED[self.scenario]
        return expected

    def match(self, key: str, value: Any) -> Any:
        self.captured[key] = value
        return value

    def error(self, key: str, call: Callable[..., Any], **kwargs: Any) -> dict[str, Any]:
        """Make a call that must fail; record its error response."""
        try:
            call(**kwargs)
        except ClientError as error:
            response: dict[str, Any] = error.response
            self.captured[key] = response
            return response
        raise AssertionError(f"{key}: the call succeeded, the recording has an error")

    def replace(self, text: str, placeholder: str) -> None:
        """Scenario-specific text the recording replaced (e.g. a queue name)."""
        self.replacements[text] = placeholder

    def verify(self, *, only: list[str] | None = None) -> None:
        """Compare everything recorded, or only the keys in `only` (the rest of the recording
        needs a second protocol within one scenario)."""
        __tracebackhide__ = True
        normaliser = _Normaliser(self.replacements)
        normaliser.handles = list(_values_of("ReceiptHandle", self.captured))
        captured = self.captured
        recorded = self.expected
        if only is not None:
            recorded = {key: value for key, value in recorded.items() if key in only}
        if variant(self.client) == "sqs_query":
            # Fields botocore adds by version, not by what the server said: an old botocore
            # (the CI's query run) parses no QueryErrorCode and no modelled `message`.
            captured, recorded = _without_parser_extras(captured), _without_parser_extras(recorded)
        ours = _renumber(normaliser.walk(captured))
        expected = _renumber(_strip_details(recorded))
        if ours != expected:
            diff = difflib.unified_diff(
                json.dumps(expected, indent=1).splitlines(),
                json.dumps(ours, indent=1).splitlines(),
                "recorded AWS",
                "fake",
                lineterm="",
            )
            raise AssertionError(f"{self.scenario} differs from AWS:\n" + "\n".join(diff))


def _values_of(name: str, value: Any) -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == name and isinstance(item, str):
                found.append(item)
            else:
                found.extend(_values_of(name, item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_values_of(name, item))
    return found


def _without_parser_extras(value: Any) -> Any:
    if isinstance(value, dict):
        cleaned = {
            key: _without_parser_extras(item)
            for key, item in value.items()
            if not (key == "message" and "Error" in value)
        }
        if isinstance(cleaned.get("Error"), dict):
            cleaned["Error"] = {k: v for k, v in cleaned["Error"].items() if k != "QueryErrorCode"}
        return cleaned
    if isinstance(value, list):
        return [_without_parser_extras(item) for item in value]
    return value


def _strip_details(value: Any) -> Any:
    # The recordings skip Error.Detail (query protocol only), so comparisons do too.
    if isinstance(value, dict):
        return {
            k: _strip_details(v)
            for k, v in value.items()
            if not (k == "Detail" and "Code" in value and "Message" in value)
        }
    if isinstance(value, list):
        return [_strip_details(v) for v in value]
    return value


class _Normaliser:
    """Our raw values -> the recording's placeholders (numbered later, by first appearance)."""

    def __init__(self, replacements: dict[str, str]) -> None:
        self.replacements = replacements
        self.tokens: dict[tuple[str, str], str] = {}
        self.handles: list[str] = []

    def token(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self.tokens:
            self.tokens[key] = f"<{kind}:{len([k for k in self.tokens if k[0] == kind]) + 1}>"
        return self.tokens[key]

    def walk(self, value: Any, key: str = "") -> Any:
        if key == "timestamp":  # the recording blanked a whole attribute of that name
            return "timestamp"
        if key in _TIMESTAMP_KEYS and isinstance(value, int | float):  # e.g. StartedTimestamp
            return "timestamp"
        if isinstance(value, dict):
            if "ResponseMetadata" in value:
                status = value["ResponseMetadata"]["HTTPStatusCode"]
                value = {**value, "ResponseMetadata": {"HTTPHeaders": {}, "HTTPStatusCode": status}}
            return {
                k: value[k] if k == "ResponseMetadata" else self.walk(value[k], k)
                for k in sorted(value)
                if not (k == "Detail" and key == "Error")
            }
        if isinstance(value, list):
            return [self.walk(item, key) for item in value]
        if isinstance(value, bytes):
            return str(value)
        if not isinstance(value, str):
            return value
        return self.text(value, key)

    def text(self, value: str, key: str) -> Any:
        if key in _TIMESTAMP_KEYS:
            return "timestamp"
        if key in _TOKEN_KEYS:
            if key == "ReceiptHandle":
                self.handles.append(value)
            return self.token(_TOKEN_KEYS[key], value)
        if key == "NextToken":
            decoded = base64.b64decode(value).decode()
            return base64.b64encode(self.plain(decoded).encode()).decode()
        if _UUID.match(value):
            return self.token("uuid", value)
        arn = _ARN.match(value)
        if arn:
            return f"arn:<partition>:sqs:<region>:111111111111:{self.token('resource', arn[3])}"
        if value[:1] in "{[":
            try:
                return self.walk(json.loads(value), key)
            except ValueError:
                pass
        return self.plain(value)

    def plain(self, value: str) -> str:
        for handle in self.handles:
            value = value.replace(handle, self.token("receipt-handle", handle))
        for text, placeholder in self.replacements.items():
            value = value.replace(text, placeholder)
        return value.replace(ACCOUNT_ID, "111111111111").replace(REGION, "<region>")


def _renumber(value: Any) -> Any:
    """Placeholders renumbered by first appearance, so both sides number alike."""
    seen: dict[tuple[str, str], int] = {}
    counters: dict[str, int] = {}

    def fix(match: re.Match[str]) -> str:
        kind, number = match[1], match[2]
        if (kind, number) not in seen:
            counters[kind] = counters.get(kind, 0) + 1
            seen[(kind, number)] = counters[kind]
        return f"<{kind}:{seen[(kind, number)]}>"

    def walk(item: Any) -> Any:
        if isinstance(item, dict):
            return {k: walk(item[k]) for k in sorted(item)}
        if isinstance(item, list):
            return [walk(v) for v in item]
        if isinstance(item, str):
            return _PLACEHOLDER.sub(fix, item)
        return item

    return walk(value)
