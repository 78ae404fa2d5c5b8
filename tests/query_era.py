"""botocore's query-protocol model of SQS, as botocore < 1.31.81 shipped it, for tests.

On a query-era botocore this is simply its own model. On a current botocore it is rebuilt from the
JSON model (which kept every shape and `flattened`) plus the query names, result wrappers and
error codes that the JSON model dropped; botocore's own query serializer and parser then talk to
the fake, so a current install can test the query protocol too. The names come from the codec's
table, so CI's second run, with a real query-era botocore, is what checks the names themselves.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import boto3
import botocore.session
from botocore.loaders import create_loader
from botocore.model import ServiceModel

from pytest_fakesqs.api.errors import ErrorCode
from pytest_fakesqs.protocol.query import NAMESPACE
from pytest_fakesqs.protocol.query_names import LIST_ELEMENTS, MAP_ENTRIES

API_VERSION = "2012-11-05"


@functools.cache
def installed_botocore_speaks_query() -> bool:
    protocol: str = create_loader().load_service_model("sqs", "service-2")["metadata"]["protocol"]
    return protocol == "query"


@functools.cache
def query_model_dict() -> dict[str, Any]:
    raw: dict[str, Any] = copy.deepcopy(create_loader().load_service_model("sqs", "service-2"))
    if installed_botocore_speaks_query():
        return raw
    metadata = raw["metadata"]
    for json_only in ("jsonVersion", "targetPrefix", "awsQueryCompatible", "protocols"):
        metadata.pop(json_only, None)
    metadata.update(protocol="query", xmlNamespace=NAMESPACE)
    for name, operation in raw["operations"].items():
        if "output" in operation:
            operation["output"]["resultWrapper"] = f"{name}Result"
    shapes: dict[str, Any] = raw["shapes"]
    for name, element in LIST_ELEMENTS.items():
        if name in shapes:
            shapes[name]["member"]["locationName"] = element
    for name, entry in MAP_ENTRIES.items():
        if name in shapes:
            shapes[name]["locationName"] = entry.entry
            shapes[name]["key"]["locationName"] = entry.key
            shapes[name]["value"]["locationName"] = entry.value
    for error in ErrorCode:
        shape = shapes.get(error.spec.shape)
        if error.spec.modelled and shape is not None:
            shape["error"] = {
                "code": error.spec.query_code,
                "httpStatusCode": error.spec.status,
                "senderFault": error.spec.fault == "Sender",
            }
    return raw


# The wire protocol the installed botocore speaks to SQS: "json", or "query" before 1.31.81
# (CI runs the suite a second time with such a botocore).
QUERY_CLIENT: bool = installed_botocore_speaks_query()

# AWS words this one error differently per protocol (recorded: test_non_existent_queue).
NONEXISTENT_QUEUE_MESSAGE = (
    "The specified queue does not exist for this wsdl version."
    if QUERY_CLIENT
    else "The specified queue does not exist."
)


def system_attribute_names(*names: str) -> dict[str, list[str]]:
    """ReceiveMessage kwargs asking for system attributes: MessageSystemAttributeNames, or on a
    query-era botocore (which predates it) the deprecated AttributeNames it still has."""
    key = "AttributeNames" if QUERY_CLIENT else "MessageSystemAttributeNames"
    return {key: list(names)}


def query_model() -> ServiceModel:
    return ServiceModel(query_model_dict(), "sqs")


def query_client(data_dir: Path, region: str = "us-east-1", **kwargs: Any) -> Any:
    """A boto3 SQS client speaking query, whatever botocore is installed."""
    session = botocore.session.get_session()
    if not installed_botocore_speaks_query():
        model_dir = data_dir / "sqs" / API_VERSION
        model_dir.mkdir(parents=True, exist_ok=True)
        (model_dir / "service-2.json").write_text(json.dumps(query_model_dict()))
        session.get_component("data_loader").search_paths.insert(0, str(data_dir))
    return boto3.Session(botocore_session=session).client(
        "sqs",
        region_name=region,
        aws_access_key_id="AKIAFAKE",
        aws_secret_access_key="fake-secret",
        **kwargs,
    )
