"""The JSON codec's shortcuts are safe: the bracket count before the nesting walk, and the
hand-built answers of the stress cycle's three actions, quoted or vouched for by the api
(byte for byte the encoder's)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_fakesqs.api.as_is import AsIsRows
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


# Any text, lone surrogates included (JSON allows "\ud800", and json quotes them back).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)


# What json writes as it is: the values the api vouches for (AsIsRows).
AS_IS_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters='"\\')
)


@st.composite
def plain_answers(draw: st.DrawFn, text: st.SearchStrategy[str] = ANY_TEXT) -> dict[str, Any]:
    """A send's, a receive's or a delete's answer as the api writes it, any strings in it."""
    key, shape = draw(st.sampled_from(sorted(json10._ANSWERS)))
    values = draw(st.lists(st.tuples(*[text] * len(shape)), min_size=1, max_size=10))
    return {key: [dict(zip(shape, row, strict=True)) for row in values]}


@st.composite
def near_answers(draw: st.DrawFn) -> dict[str, Any]:
    """Answers one step off a plain one: another value type, another key, another order, a
    second list (a failure), an empty list."""
    answer = draw(plain_answers())
    ((key, rows),) = answer.items()
    row = draw(st.sampled_from(rows))
    change = draw(st.sampled_from(["value", "extra", "order", "failed", "empty", "key"]))
    if change == "value":
        row[draw(st.sampled_from(list(row)))] = draw(JSON_VALUES)
    elif change == "extra":
        row[draw(ANY_TEXT)] = draw(JSON_VALUES)
    elif change == "order":
        reordered = dict(reversed(list(row.items())))
        row.clear()
        row.update(reordered)
    elif change == "failed":
        answer["Failed"] = [{"Id": "1", "SenderFault": True, "Code": "x", "Message": "y"}]
    elif change == "empty":
        answer[key] = []
    else:
        answer = {draw(ANY_TEXT): rows}
    return answer


@given(plain_answers())
def test_rows_nobody_vouched_for_are_left_to_the_encoder(answer: dict[str, Any]) -> None:
    assert json10.hand_built(answer) is None
    assert json10.encode_result(answer).body == json.dumps(answer, separators=(",", ":")).encode()


@given(plain_answers(AS_IS_TEXT))
def test_vouched_rows_are_the_encoders_byte_for_byte(answer: dict[str, Any]) -> None:
    ((key, rows),) = answer.items()
    vouched = {key: AsIsRows(rows)}
    assert json10.hand_built(vouched) == json.dumps(answer, separators=(",", ":"))
    assert json10.encode_result(vouched).body == json.dumps(answer, separators=(",", ":")).encode()


@given(st.lists(st.dictionaries(AS_IS_TEXT, AS_IS_TEXT, min_size=1, max_size=3), max_size=3))
def test_vouched_rows_of_another_shape_are_the_encoders(rows: list[dict[str, Any]]) -> None:
    answer = {"Messages": AsIsRows(rows)}
    text = json10.hand_built(answer)
    assert text is None or text == json.dumps(answer, separators=(",", ":"))
    assert json10.encode_result(answer).body == json.dumps(answer, separators=(",", ":")).encode()


@given(near_answers() | st.dictionaries(ANY_TEXT, JSON_VALUES, max_size=3))
def test_any_other_answer_is_the_encoders(answer: dict[str, Any]) -> None:
    text = json10.hand_built(answer)
    assert text is None or text == json.dumps(answer, separators=(",", ":"))
    assert json10.encode_result(answer).body == json.dumps(answer, separators=(",", ":")).encode()


def _outcome(parse: Any, text: str) -> tuple[str, Any]:
    try:
        return "parsed", parse(text)
    except (ValueError, RecursionError) as error:
        return type(error).__name__, str(error)


# Bodies botocore would send, with whitespace around them, and mangled ones: a character cut,
# doubled or dropped, so malformed objects reach the C scanner too.
_DOCUMENTS = st.builds(
    lambda document, before, after: before + json.dumps(document) + after,
    st.dictionaries(st.text(), JSON_VALUES, max_size=4) | JSON_VALUES,
    st.sampled_from(["", " ", "\n"]),
    st.sampled_from(["", " ", "\t", "x", "{}"]),
)


@given(
    st.one_of(
        _DOCUMENTS,
        st.tuples(_DOCUMENTS, st.integers(0, 60)).map(lambda t: t[0][: t[1]] + t[0][t[1] + 1 :]),
        st.tuples(_DOCUMENTS, st.integers(0, 60)).map(lambda t: t[0][: t[1]] + "}"),
        st.text(alphabet='{}[]":,0 \\nulaetr', max_size=20),
    )
)
def test_loads_is_json_loads(text: str) -> None:
    """The C scanner's shortcut parses and refuses exactly what json.loads does, with the
    same error."""
    assert _outcome(json10.loads, text) == _outcome(json.loads, text)
