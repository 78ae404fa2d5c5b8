"""How the in-process transport reads botocore's prepared requests (headers as the codecs
expect them: lower-cased names, text values)."""

from __future__ import annotations

from botocore.awsrequest import AWSPreparedRequest, HeadersDict

from pytest_fakesqs.transport.inprocess import to_wire_request


def prepared(headers: object) -> AWSPreparedRequest:
    return AWSPreparedRequest("POST", "https://sqs.us-east-1.amazonaws.com/", headers, b"{}", None)


def test_botocore_headers_arrive_lower_cased_as_text() -> None:
    headers = HeadersDict()
    headers["X-Amz-Target"] = b"AmazonSQS.ListQueues"
    headers["Content-Length"] = "2"
    headers["X-Retries"] = 3  # not str nor bytes: written as text
    wire = to_wire_request(prepared(headers))
    assert wire.headers == {
        "x-amz-target": "AmazonSQS.ListQueues",
        "content-length": "2",
        "x-retries": "3",
    }
    assert (wire.method, wire.body) == ("POST", b"{}")


def test_a_header_that_is_not_utf8_is_read_with_replacement() -> None:
    headers = HeadersDict()
    headers["X-Odd"] = b"caf\xe9"
    assert to_wire_request(prepared(headers)).headers == {"x-odd": "caf\ufffd"}


def test_plain_dict_headers_are_read_too() -> None:
    wire = to_wire_request(prepared({"X-Amz-Target": "AmazonSQS.ListQueues"}))
    assert wire.headers == {"x-amz-target": "AmazonSQS.ListQueues"}
