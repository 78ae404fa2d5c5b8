"""The JSON codec's one shortcut, the bracket count before the nesting walk, is safe."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fakesqs.api.errors import SqsError
from pytest_fakesqs.protocol import WireRequest, json10

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


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
