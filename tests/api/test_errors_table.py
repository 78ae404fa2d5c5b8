"""The error catalogue, iterated: every row renders as AWS renders it and botocore maps it."""

from __future__ import annotations

import json

import botocore.session
import pytest

from pytest_fakesqs.api.errors import Err, SqsError
from pytest_fakesqs.protocol import json10

MODEL = botocore.session.get_session().get_service_model("sqs")
MODELLED_SHAPES = {shape.name for shape in MODEL.error_shapes}


@pytest.mark.parametrize("error", list(Err), ids=lambda e: e.name)
def test_json_error_envelope(error: Err) -> None:
    response = json10.encode_error(SqsError(error, "why"))
    body = json.loads(response.body)
    assert response.status == error.spec.status
    assert body == {"__type": f"com.amazonaws.sqs#{error.spec.shape}", "message": "why"}
    assert response.headers["x-amzn-query-error"] == f"{error.spec.query_code};{error.spec.fault}"


@pytest.mark.parametrize("error", [e for e in Err if e.spec.modelled], ids=lambda e: e.name)
def test_modelled_rows_name_a_botocore_exception(error: Err) -> None:
    assert error.spec.shape in MODELLED_SHAPES
