"""The query/XML codec against botocore's own query serializer and parser, for every action."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import urlencode

import pytest
from botocore.model import ListShape, MapShape, OperationModel, Shape, StructureShape
from botocore.parsers import QueryParser
from botocore.serialize import QuerySerializer

from pytest_fakesqs.api.errors import ErrorCode, SqsError
from pytest_fakesqs.protocol import WireRequest, query
from pytest_fakesqs.protocol.query_names import LIST_ELEMENTS, MAP_ENTRIES

from ..query_era import installed_botocore_speaks_query, query_model

MODEL = query_model()
ENDPOINT = "https://sqs.us-east-1.amazonaws.com/"


def sample(shape: Shape, name: str) -> Any:
    """A value for every member, two of each collection, with text XML must escape."""
    if isinstance(shape, StructureShape):
        return {
            member: sample(member_shape, member) for member, member_shape in shape.members.items()
        }
    if isinstance(shape, ListShape):
        return [sample(shape.member, f"{name}1"), sample(shape.member, f"{name}2")]
    if isinstance(shape, MapShape):
        return {f"{name}-{i}": sample(shape.value, f"{name}{i}") for i in (1, 2)}
    samples = {"integer": 7, "long": 1_700_000_000_000, "boolean": True, "blob": b"\x00bin\xff"}
    return samples.get(shape.type_name, f"{name} <&> \r\n")


def as_json(value: Any) -> Any:
    """What the JSON codec would hand the api: blobs base64, the rest as is."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return value


def form_request(fields: dict[str, Any], url: str = ENDPOINT) -> WireRequest:
    body = urlencode(fields).encode()
    return WireRequest("POST", url, {"content-type": "application/x-www-form-urlencoded"}, body)


def serialize(
    operation: OperationModel, params: dict[str, Any], url: str = ENDPOINT
) -> WireRequest:
    return form_request(QuerySerializer().serialize_to_request(params, operation)["body"], url)


def parse(operation: OperationModel, response: Any) -> dict[str, Any]:
    raw = {"body": response.body, "headers": response.headers, "status_code": response.status}
    parsed: dict[str, Any] = QueryParser().parse(raw, operation.output_shape)
    parsed.pop("ResponseMetadata", None)
    return parsed


@pytest.mark.parametrize("action", MODEL.operation_names)
def test_every_action_decodes_what_botocore_serializes(action: str) -> None:
    operation = MODEL.operation_model(action)
    params = sample(operation.input_shape, action)
    decoded = query.decode(serialize(operation, params))
    assert decoded.action == action
    assert decoded.params == as_json(params)


@pytest.mark.parametrize("action", MODEL.operation_names)
def test_every_action_encodes_what_botocore_parses(action: str) -> None:
    operation = MODEL.operation_model(action)
    result = sample(operation.output_shape, action) if operation.output_shape else {}
    response = query.encode_result(action, as_json(result))
    assert (response.status, response.headers["content-type"]) == (200, "text/xml")
    assert parse(operation, response) == result


def test_result_envelope_is_sqs_xml() -> None:
    response = query.encode_result("GetQueueUrl", {"QueueUrl": "https://q/1/a&b"})
    request_id = response.headers["x-amzn-requestid"]
    assert response.body.decode() == (
        '<?xml version="1.0"?><GetQueueUrlResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/">'
        "<GetQueueUrlResult><QueueUrl>https://q/1/a&amp;b</QueueUrl></GetQueueUrlResult>"
        f"<ResponseMetadata><RequestId>{request_id}</RequestId></ResponseMetadata>"
        "</GetQueueUrlResponse>"
    )


def test_flattened_collections_repeat_their_element() -> None:
    body = query.encode_result(
        "ReceiveMessage",
        {"Messages": [{"MessageId": "m", "Attributes": {"SenderId": "s"}}]},
    ).body.decode()
    assert "<ReceiveMessageResult><Message><MessageId>m</MessageId>" in body
    assert "<Attribute><Name>SenderId</Name><Value>s</Value></Attribute></Message>" in body


def test_actions_without_output_have_no_result_element() -> None:
    body = query.encode_result("DeleteQueue", {}).body.decode()
    assert "<DeleteQueueResponse" in body and "DeleteQueueResult" not in body
    assert "<ReceiveMessageResult/>" in query.encode_result("ReceiveMessage", {}).body.decode()


@pytest.mark.parametrize("error", list(ErrorCode), ids=lambda e: e.name)
def test_error_envelope(error: ErrorCode) -> None:
    response = query.encode_error(SqsError(error, "why <this>"))
    request_id = response.headers["x-amzn-requestid"]
    message = error.spec.query_message or "why &lt;this&gt;"
    assert response.status == error.spec.status
    assert response.body.decode() == (
        '<?xml version="1.0"?><ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/">'
        f"<Error><Type>{error.spec.fault}</Type><Code>{error.spec.query_code}</Code>"
        f"<Message>{message}</Message><Detail/></Error>"
        f"<RequestId>{request_id}</RequestId></ErrorResponse>"
    )


def test_nonexistent_queue_is_worded_as_aws_words_it_over_query() -> None:
    # Recorded: test_non_existent_queue, "queue-does-not-exist-query".
    response = query.encode_error(
        SqsError(ErrorCode.QueueDoesNotExist, "The specified queue does not exist.")
    )
    parsed = QueryParser().parse(
        {"body": response.body, "headers": response.headers, "status_code": 400}, None
    )
    assert parsed["Error"] == {
        "Code": "AWS.SimpleQueueService.NonExistentQueue",
        "Detail": None,
        "Message": "The specified queue does not exist for this wsdl version.",
        "Type": "Sender",
    }


def test_empty_list_and_numbers_take_the_json_shapes() -> None:
    decoded = query.decode(
        form_request(
            {
                "Action": "ReceiveMessage",
                "QueueUrl": "u",
                "AttributeNames": "",
                "MaxNumberOfMessages": "10",
                "WaitTimeSeconds": "soon",
                "VisibilityTimeout": "1_0",
            }
        )
    )
    assert decoded.params == {
        "QueueUrl": "u",
        "AttributeNames": [],
        "MaxNumberOfMessages": 10,
        "WaitTimeSeconds": "soon",  # left as sent, so the api's error quotes it
        "VisibilityTimeout": "1_0",
    }


def test_indexes_are_read_in_numeric_order() -> None:
    fields = {f"AttributeName.{i}": f"n{i}" for i in (10, 2, 1)}
    decoded = query.decode(
        form_request({"Action": "GetQueueAttributes", "QueueUrl": "u", **fields})
    )
    assert decoded.params["AttributeNames"] == ["n1", "n2", "n10"]


def test_a_receive_names_system_attributes_whatever_botocore_model_is_installed() -> None:
    # kombu 5.6+ builds its own query requests: a query-era model (CI's oldest run) lacks the
    # member, and SQS still reads it.
    names = {"MessageSystemAttributeName.2": "SentTimestamp", "MessageSystemAttributeName.1": "All"}
    decoded = query.decode(form_request({"Action": "ReceiveMessage", "QueueUrl": "u", **names}))
    assert decoded.params["MessageSystemAttributeNames"] == ["All", "SentTimestamp"]
    plain = query.decode(form_request({"Action": "ReceiveMessage", "QueueUrl": "u"}))
    assert "MessageSystemAttributeNames" not in plain.params


@pytest.mark.skipif(installed_botocore_speaks_query(), reason="the JSON-era model has them")
def test_members_read_without_a_model_are_the_json_era_models() -> None:
    for action, members in query._LATER_LISTS.items():
        shape = query.service_model().operation_model(action).input_shape
        for member, element in members.items():
            list_shape = shape.members[member]
            assert isinstance(list_shape, ListShape)
            assert list_shape.serialization.get("flattened")
            assert LIST_ELEMENTS[list_shape.name] == element
            assert list_shape.member.type_name == "string"


def test_parameters_in_the_url_query_string_count() -> None:
    decoded = query.decode(
        WireRequest("GET", ENDPOINT + "?Action=GetQueueUrl&QueueName=work", {}, b"")
    )
    assert (decoded.action, decoded.params) == ("GetQueueUrl", {"QueueName": "work"})


def test_a_request_posted_to_a_queue_url_names_that_queue() -> None:
    url = "https://sqs.us-east-1.amazonaws.com/123456789012/work"
    decoded = query.decode(form_request({"Action": "SendMessage", "MessageBody": "b"}, url))
    assert decoded.params == {"QueueUrl": url, "MessageBody": "b"}
    explicit = query.decode(
        form_request({"Action": "SendMessage", "QueueUrl": "other", "MessageBody": "b"}, url)
    )
    assert explicit.params["QueueUrl"] == "other"
    at_root = query.decode(form_request({"Action": "SendMessage", "MessageBody": "b"}))
    assert "QueueUrl" not in at_root.params
    no_queue = query.decode(form_request({"Action": "ListQueues"}, url))
    assert no_queue.params == {}


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        (b"Version=2012-11-05", "MissingAction", "The request must contain the parameter Action."),
        (
            b"Action=SendMessage&MessageBody=%FF%FE",
            "MalformedQueryString",
            "The query string contains a syntax error.",
        ),
        (
            b"Action=SendMessage&MessageBody=\xff",
            "MalformedQueryString",
            "The query string contains a syntax error.",
        ),
        (
            b"Action=CreateQueue&QueueName=q&Attribute.1.Value=5",
            "MissingParameter",
            "The request must contain the parameter Attribute.1.Name.",
        ),
        (
            b"Action=TagQueue&QueueUrl=u&Tag.1.Key=k",
            "MissingParameter",
            "The request must contain the parameter Tag.1.Value.",
        ),
    ],
)
def test_malformed_requests_are_errors_not_crashes(body: bytes, code: str, message: str) -> None:
    with pytest.raises(SqsError) as caught:
        query.decode(WireRequest("POST", ENDPOINT, {}, body))
    assert (caught.value.spec.query_code, caught.value.message) == (code, message)
    assert 400 <= caught.value.spec.status < 500


def test_unknown_actions_reach_the_api_which_refuses_them() -> None:
    decoded = query.decode(form_request({"Action": "FlyToTheMoon", "Speed": "fast"}))
    assert (decoded.action, decoded.params) == ("FlyToTheMoon", {"Speed": "fast"})


def test_every_collection_in_the_model_has_its_query_names() -> None:
    shapes = {name: MODEL.shape_for(name) for name in MODEL.shape_names}
    lists = {name for name, shape in shapes.items() if isinstance(shape, ListShape)}
    maps = {name for name, shape in shapes.items() if isinstance(shape, MapShape)}
    assert lists <= set(LIST_ELEMENTS)
    assert maps <= set(MAP_ENTRIES)


@pytest.mark.skipif(
    not installed_botocore_speaks_query(), reason="needs botocore < 1.31.81 (CI's second run)"
)
def test_query_names_agree_with_the_query_era_model() -> None:
    for name in MODEL.shape_names:
        shape = MODEL.shape_for(name)
        if isinstance(shape, ListShape):
            assert shape.member.serialization.get("name") == LIST_ELEMENTS[name], name
        if isinstance(shape, MapShape):
            entry = MAP_ENTRIES[name]
            assert (shape.key.serialization["name"], shape.value.serialization["name"]) == (
                entry.key,
                entry.value,
            ), name
        for member_name, member in getattr(shape, "members", {}).items():
            if isinstance(member, MapShape):
                assert member.serialization["name"] == MAP_ENTRIES[member.name].entry, member_name
