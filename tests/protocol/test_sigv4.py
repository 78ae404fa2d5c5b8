"""SigV4 verification against requests signed by botocore's own signer."""

from __future__ import annotations

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from pytest_fakesqs.api.errors import ErrorCode, SqsError
from pytest_fakesqs.protocol import WireRequest
from pytest_fakesqs.protocol.sigv4 import SignatureVerifier

CREDENTIALS = {"AKIDEXAMPLE": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
URL = "http://127.0.0.1:9324/123456789012/jobs"


def signed(
    access_key: str = "AKIDEXAMPLE",
    secret_key: str = CREDENTIALS["AKIDEXAMPLE"],
    url: str = URL,
    body: bytes = b'{"QueueUrl": "x"}',
    method: str = "POST",
    session_token: str | None = None,
) -> WireRequest:
    request = AWSRequest(
        method=method,
        url=url,
        data=body,
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "AmazonSQS.SendMessage",
        },
    )
    credentials = Credentials(access_key, secret_key, session_token)
    SigV4Auth(credentials, "sqs", "us-east-1").add_auth(request)
    headers = {k.lower(): str(v) for k, v in request.headers.items()}
    return WireRequest(method, url, headers, body)


def refusal(request: WireRequest) -> SqsError:
    with pytest.raises(SqsError) as raised:
        SignatureVerifier(CREDENTIALS)(request)
    return raised.value


@pytest.mark.parametrize(
    "url",
    [URL, "http://localhost/", "https://sqs.us-east-1.amazonaws.com/?Action=ListQueues&A=b%20c"],
)
def test_a_request_signed_with_a_known_key_passes(url: str) -> None:
    SignatureVerifier(CREDENTIALS)(signed(url=url))


def test_a_session_token_is_just_one_more_signed_header() -> None:
    SignatureVerifier(CREDENTIALS)(signed(session_token="token"))


def test_the_host_header_is_checked_when_the_client_sent_one() -> None:
    request = signed()
    request.headers["host"] = "127.0.0.1:9324"
    SignatureVerifier(CREDENTIALS)(request)
    request.headers["host"] = "127.0.0.1:9999"
    assert refusal(request).spec is ErrorCode.SignatureDoesNotMatch.spec


def test_an_unknown_access_key_is_an_invalid_client_token() -> None:
    error = refusal(signed(access_key="AKIDUNKNOWN"))

    assert error.spec is ErrorCode.InvalidClientTokenId.spec
    assert error.spec.status == 403
    assert error.message == "The security token included in the request is invalid."


def test_a_wrong_secret_is_a_signature_mismatch_with_what_aws_computed() -> None:
    request = signed(secret_key="not the secret")

    error = refusal(request)

    assert error.spec is ErrorCode.SignatureDoesNotMatch.spec
    assert error.spec.status == 403
    lines = error.message.split("\n")
    assert lines[0] == (
        "The request signature we calculated does not match the signature you provided. "
        "Check your AWS Secret Access Key and signing method. "
        "Consult the service documentation for details."
    )
    assert lines[2:5] == [
        "The Canonical String for this request should have been",
        "'POST",
        "/123456789012/jobs",
    ]
    assert "The String-to-Sign should have been" in lines
    assert lines[-1] == ""


def test_a_tampered_body_is_a_signature_mismatch() -> None:
    request = signed()
    request.body = b'{"QueueUrl": "y"}'
    assert refusal(request).spec is ErrorCode.SignatureDoesNotMatch.spec


def test_an_unsigned_request_is_refused() -> None:
    request = signed()
    del request.headers["authorization"]

    error = refusal(request)

    assert error.spec is ErrorCode.MissingAuthenticationToken.spec
    assert error.spec.status == 403


@pytest.mark.parametrize(
    "header",
    ["AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE", "AWS AKIDEXAMPLE:abc", "AWS4-HMAC-SHA256"],
)
def test_a_malformed_authorization_is_an_incomplete_signature(header: str) -> None:
    request = signed()
    request.headers["authorization"] = header

    error = refusal(request)

    assert error.spec is ErrorCode.IncompleteSignature.spec
    assert error.message == "The request signature does not conform to AWS standards."
