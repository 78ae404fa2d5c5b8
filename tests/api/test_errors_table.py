"""The error catalogue, iterated: every row renders as AWS renders it and botocore maps it."""

from __future__ import annotations

import json

import botocore.session
import pytest

from pytest_fakesqs.api.errors import ErrorCode, SqsError
from pytest_fakesqs.protocol import json10

MODEL = botocore.session.get_session().get_service_model("sqs")
MODELLED_SHAPES = {shape.name for shape in MODEL.error_shapes}
# botocore < 1.31.81 carries the query model, where each error shape names its query code.
QUERY_ERA_CODES = {
    shape.name: shape.metadata["error"]
    for shape in MODEL.error_shapes
    if MODEL.protocol == "query" and "error" in shape.metadata
}


@pytest.mark.parametrize("error", list(ErrorCode), ids=lambda e: e.name)
def test_json_error_envelope(error: ErrorCode) -> None:
    response = json10.encode_error(SqsError(error, "why"))
    body = json.loads(response.body)
    assert response.status == error.spec.status
    assert body == {"__type": f"com.amazonaws.sqs#{error.spec.shape}", "message": "why"}
    assert response.headers["x-amzn-query-error"] == f"{error.spec.query_code};{error.spec.fault}"


@pytest.mark.parametrize("error", [e for e in ErrorCode if e.spec.modelled], ids=lambda e: e.name)
def test_modelled_rows_name_a_botocore_exception(error: ErrorCode) -> None:
    if MODEL.protocol == "query" and error.spec.shape not in MODELLED_SHAPES:
        pytest.skip("shape added to botocore after the query era; checked on current botocore")
    assert error.spec.shape in MODELLED_SHAPES


@pytest.mark.skipif(not QUERY_ERA_CODES, reason="needs botocore < 1.31.81 (CI's second run)")
def test_rows_agree_with_the_query_era_model() -> None:
    model = {
        name: (error["code"], error["httpStatusCode"]) for name, error in QUERY_ERA_CODES.items()
    }
    table = {
        e.spec.shape: (e.spec.query_code, e.spec.status) for e in ErrorCode if e.spec.shape in model
    }
    assert table == model
