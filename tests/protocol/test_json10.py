"""The JSON codec's shortcuts give exactly what json itself gives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_fakesqs.api.errors import SqsError
from pytest_fakesqs.protocol import WireRequest, json10

DOCUMENTS = [
    "{}",
    ' {"a": 1}',
    '{"a": 1} ',
    '\n{"QueueUrl": "u"}\n',
    '{"a": [1, 2.5, null, true, "\\u00e9"]}',
    "[1]",
    "1",
    '{"a": NaN}',
    '{"a":',
    "nul",
    '{"a": 1}x',
    '{"a": 1} {"b": 2}',
    "",
    " ",
]


def outcome(parse: Any, text: str) -> Any:
    try:
        return ("value", repr(parse(text)))
    except ValueError as error:
        return ("error", str(error))


@pytest.mark.parametrize("text", DOCUMENTS)
def test_parsing_answers_as_json_loads(text: str) -> None:
    assert outcome(json10._parsed, text) == outcome(json.loads, text)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(JSON_VALUES)
def test_any_document_botocore_could_write_parses_the_same(document: Any) -> None:
    text = json.dumps(document, separators=(",", ":"))
    assert json10._parsed(text) == json.loads(text)


# Drawing ten rows of nested values is slow on a busy machine: that is not a failure.
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(st.text(), JSON_VALUES, max_size=4), max_size=10))
def test_answer_rows_render_as_the_json_encoder_would(rows: list[dict[str, Any]]) -> None:
    for key in ("Messages", "Successful"):
        result = {key: rows}
        assert json.loads(json10._render(result)) == json.loads(json10._ENCODER.encode(result))


@pytest.mark.parametrize(
    "result",
    [
        {
            "Messages": [
                {"MessageId": "m", "ReceiptHandle": "h", "MD5OfBody": "d", "Body": 'a"\\\n\u00e9'}
            ]
        },
        {"Successful": [{"Id": "1", "MD5OfMessageBody": "d", "MessageId": "m"}, {"Id": "2"}]},
        {"Successful": [{"Id": "1"}], "Failed": [{"Id": "2", "SenderFault": True}]},
        {"Messages": [{"MessageId": "m", "ReceiptHandle": "h", "MD5OfBody": "d", "Body": 1}]},
    ],
)
def test_answer_rows_are_byte_for_byte_the_encoders(result: dict[str, Any]) -> None:
    assert json10._render(result) == json10._ENCODER.encode(result)


def _nested(depth: int) -> WireRequest:
    body = b'{"QueueUrl":' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    headers = {"x-amz-target": "AmazonSQS.ListQueues", "content-type": json10.CONTENT_TYPE}
    return WireRequest("POST", "https://sqs.us-east-1.amazonaws.com/", headers, body)


def test_nesting_deeper_than_the_limit_is_malformed_on_every_python() -> None:
    # 600 levels parse on Python 3.11 and 3.13 alike; the limit, not the parser, refuses them.
    with pytest.raises(SqsError) as refused:
        json10.decode(_nested(json10.MAX_NESTING + 1))
    assert refused.value.spec.shape == "SerializationException"
    assert json10.decode(_nested(json10.MAX_NESTING)).action == "ListQueues"


def test_brackets_inside_strings_do_not_make_a_document_deep() -> None:
    body = json.dumps({"QueueUrl": "q", "MessageBody": "[" * 2000}).encode()
    headers = {"x-amz-target": "AmazonSQS.SendMessage", "content-type": json10.CONTENT_TYPE}
    request = WireRequest("POST", "https://sqs.us-east-1.amazonaws.com/", headers, body)
    assert json10._may_nest_deeper_than(body, json10.MAX_NESTING)  # the count says "maybe"...
    assert json10.decode(request).params["MessageBody"] == "[" * 2000  # ...the walk says no


@given(JSON_VALUES, st.integers(min_value=1, max_value=4))
def test_the_bracket_count_never_lets_a_deep_document_through(document: Any, limit: int) -> None:
    """The cheap count is a necessary condition of depth, so skipping the walk is safe."""
    body = json.dumps(document, separators=(",", ":")).encode()
    if json10._nested_deeper_than(document, limit):
        assert json10._may_nest_deeper_than(body, limit)


# Rows of exactly the shapes json10 writes out by hand, with any text in them.
MESSAGE_ROWS = st.fixed_dictionaries(
    {"MessageId": st.text(), "ReceiptHandle": st.text(), "MD5OfBody": st.text(), "Body": st.text()}
)
ENTRY_ROWS = st.fixed_dictionaries({"Id": st.text()}) | st.fixed_dictionaries(
    {"Id": st.text(), "MD5OfMessageBody": st.text(), "MessageId": st.text()}
)


@given(st.lists(MESSAGE_ROWS, max_size=10), st.lists(ENTRY_ROWS, max_size=10))
def test_hand_built_rows_are_byte_for_byte_json_dumps(
    messages: list[dict[str, str]], entries: list[dict[str, str]]
) -> None:
    for result in ({"Messages": messages}, {"Successful": entries}):
        assert json10._render(result) == json.dumps(result, separators=(",", ":"))
