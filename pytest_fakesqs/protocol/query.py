"""The SQS query/XML protocol, as botocore < 1.31.81 and YMQ's documented API speak it.

Requests are form-encoded (`Action=SendMessage&Version=2012-11-05&QueueUrl=...`), answers are
XML. Both directions are driven by botocore's service model of SQS (members, types, `flattened`),
with the element names from `query_names`; so every modelled action works, not a hand-picked few,
and the api sees exactly the shapes the JSON codec hands it.
"""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from botocore.loaders import create_loader
from botocore.model import (
    ListShape,
    MapShape,
    OperationModel,
    OperationNotFoundError,
    ServiceModel,
    Shape,
    StructureShape,
)

from ..api.error_texts import ErrorText
from ..api.errors import SqsError
from .base import DecodedRequest, WireRequest, WireResponse
from .query_names import LIST_ELEMENTS, MAP_ENTRIES, MapEntry

CONTENT_TYPE = "text/xml"
NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/"
_XML_DECLARATION = '<?xml version="1.0"?>'
_INTEGER = re.compile(r"-?[0-9]+")
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Parameters of the protocol itself (and of query-string signing), not of any action.
_ENVELOPE = frozenset(
    {"Action", "Version", "AWSAccessKeyId", "Signature", "SignatureMethod", "SignatureVersion"}
)
# Lists of strings SQS's query API takes that a query-era botocore model (< 1.31.81) lacks, by
# action: member -> repeated name. The server is AWS's, not the client's model, and clients that
# build their own requests (kombu 5.6+) send them whatever botocore is installed.
_LATER_LISTS: dict[str, dict[str, str]] = {
    "ReceiveMessage": {"MessageSystemAttributeNames": "MessageSystemAttributeName"},
}


@functools.cache
def service_model() -> ServiceModel:
    """The installed botocore's model of SQS (JSON or query era; both name shapes alike)."""
    return ServiceModel(create_loader().load_service_model("sqs", "service-2"), "sqs")


def _operation(action: str) -> OperationModel | None:
    try:
        return service_model().operation_model(action)
    except OperationNotFoundError:
        return None


# -- decoding -------------------------------------------------------------------------------------


def decode(request: WireRequest) -> DecodedRequest:
    fields = _form_fields(request)
    action = fields.get("Action", "")
    if not action:
        raise ErrorText.MISSING_ACTION()
    operation = _operation(action)
    if operation is None or operation.input_shape is None:
        # Unknown here: the api answers InvalidAction (or serves an action this model lacks).
        return DecodedRequest(
            action, {k: v for k, v in fields.items() if k not in _ENVELOPE and "." not in k}
        )
    input_shape = operation.input_shape
    params = _read_members(input_shape, "", fields)
    for member, element in _LATER_LISTS.get(action, {}).items():
        later = None if member in input_shape.members else _read_strings(element, fields)
        if later:
            params[member] = later
    if "QueueUrl" in input_shape.members and "QueueUrl" not in params:
        queue_url = _queue_url_from_path(request.url)
        if queue_url is not None:
            params["QueueUrl"] = queue_url
    return DecodedRequest(action, params)


class _Form(dict[str, str]):
    """The request's parameters, with the N of every `prefix.N` / `prefix.N.*` name indexed
    once, so un-flattening a 10-entry batch does not rescan every parameter per collection."""

    def __init__(self) -> None:
        super().__init__()
        self._indices: dict[str, set[int]] | None = None

    def indices(self, base: str) -> list[int]:
        if self._indices is None:
            self._indices = {}
            for key in self:
                parts = key.split(".")
                for position, part in enumerate(parts):
                    if part.isdigit():
                        prefix = ".".join(parts[:position])
                        self._indices.setdefault(prefix, set()).add(int(part))
        return sorted(self._indices.get(base, ()))


def _form_fields(request: WireRequest) -> _Form:
    """URL query string, then the form body (which wins): AWS accepts parameters in either."""
    fields = _Form()
    try:
        for text in (urlsplit(request.url).query, request.body.decode("utf-8")):
            fields.update(
                parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
            )
    except (UnicodeDecodeError, ValueError):
        raise ErrorText.MALFORMED_QUERY_STRING() from None
    return fields


def _queue_url_from_path(url: str) -> str | None:
    """A request posted to a queue URL (`POST /123456789012/work`) names its queue by the path."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if not path or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}{path}"


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _read_members(shape: StructureShape, prefix: str, fields: _Form) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, member in shape.members.items():
        value = _read_member(name, member, prefix, fields)
        if value is not None:
            params[name] = value
    return params


def _read_member(name: str, shape: Shape, prefix: str, fields: _Form) -> Any:
    if isinstance(shape, ListShape):
        if fields.get(_join(prefix, name)) == "":
            return []  # botocore sends `Name=` for an empty list
        base = _join(prefix, _list_element(name, shape))
        if not shape.serialization.get("flattened"):
            base = _join(_join(prefix, name), LIST_ELEMENTS.get(shape.name, "member"))
        items = [_read_value(shape.member, f"{base}.{i}", fields) for i in fields.indices(base)]
        return [item for item in items if item is not None] if items else None
    if isinstance(shape, MapShape):
        entry = _map_entry(name, shape)
        base = _join(prefix, entry.entry)
        if not shape.serialization.get("flattened"):
            base = _join(_join(prefix, name), "entry")
        return _read_map(shape, base, entry, fields)
    return _read_value(shape, _join(prefix, name), fields)


def _read_strings(element: str, fields: _Form) -> list[str]:
    """`Element.1=a&Element.2=b`, a flattened list of strings, read without a model."""
    read = (fields.get(f"{element}.{i}") for i in fields.indices(element))
    return [text for text in read if text is not None]


def _read_map(shape: MapShape, base: str, entry: MapEntry, fields: _Form) -> dict[str, Any] | None:
    result: dict[str, Any] = {}
    for index in fields.indices(base):
        key_name = f"{base}.{index}.{entry.key}"
        value_name = f"{base}.{index}.{entry.value}"
        key = fields.get(key_name)
        if key is None:
            raise ErrorText.MISSING_PARAMETER(name=key_name)
        value = _read_value(shape.value, value_name, fields)
        if value is None:
            if not isinstance(shape.value, StructureShape):
                raise ErrorText.MISSING_PARAMETER(name=value_name)
            value = {}  # e.g. a message attribute without a DataType: the api says which
        result[key] = value
    return result or None


def _read_value(shape: Shape, name: str, fields: _Form) -> Any:
    if isinstance(shape, StructureShape):
        return _read_members(shape, name, fields) or None
    if isinstance(shape, ListShape | MapShape):
        prefix, _, last = name.rpartition(".")
        return _read_member(last, shape, prefix, fields)
    text = fields.get(name)
    return None if text is None else _scalar(shape.type_name, text)


def _scalar(type_name: str, text: str) -> Any:
    """JSON's types for numbers and booleans; text the api will reject stays text, so its
    error names the value as sent."""
    if type_name in ("integer", "long"):
        # Plain decimal digits only: Python's int() would also take "1_0", " 7" or other scripts.
        return int(text) if _INTEGER.fullmatch(text) else text
    try:
        if type_name in ("float", "double"):
            return float(text)
    except ValueError:
        return text
    if type_name == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text  # strings, and blobs which stay base64 as in JSON


def _list_element(member_name: str, shape: ListShape) -> str:
    return LIST_ELEMENTS.get(shape.name, member_name)


def _map_entry(member_name: str, shape: MapShape) -> MapEntry:
    return MAP_ENTRIES.get(shape.name, MapEntry(member_name, "key", "value"))


# -- encoding -------------------------------------------------------------------------------------


def encode_result(action: str, result: dict[str, Any]) -> WireResponse:
    request_id = str(uuid.uuid4())
    operation = _operation(action)
    output_shape = operation.output_shape if operation is not None else None
    out = [_XML_DECLARATION, f'<{action}Response xmlns="{NAMESPACE}">']
    if output_shape is not None or result:
        # botocore looks for <{Action}Result> whenever the action has an output, even if empty.
        inner: list[str] = []
        _write_members(output_shape, result, inner)
        out.append(
            f"<{action}Result>{''.join(inner)}</{action}Result>" if inner else f"<{action}Result/>"
        )
    out.append(f"<ResponseMetadata><RequestId>{request_id}</RequestId></ResponseMetadata>")
    out.append(f"</{action}Response>")
    return WireResponse(200, _headers(request_id), "".join(out).encode("utf-8"))


def encode_error(error: SqsError, *, aws_wording: bool = True) -> WireResponse:
    """AWS's `ErrorResponse`; `aws_wording` applies the table's query-only texts, which YMQ
    (whose texts the api already chose) does not use."""
    request_id = str(uuid.uuid4())
    spec = error.spec
    message = error.message
    if aws_wording and spec.query_message is not None:
        message = spec.query_message
    body = (
        f'{_XML_DECLARATION}<ErrorResponse xmlns="{NAMESPACE}"><Error>'
        f"<Type>{spec.fault}</Type><Code>{_escape(spec.query_code)}</Code>"
        f"<Message>{_escape(message)}</Message><Detail/></Error>"
        f"<RequestId>{request_id}</RequestId></ErrorResponse>"
    )
    return WireResponse(spec.status, _headers(request_id), body.encode("utf-8"))


def _headers(request_id: str) -> dict[str, str]:
    return {"content-type": CONTENT_TYPE, "x-amzn-requestid": request_id}


def _write_members(shape: StructureShape | None, value: dict[str, Any], out: list[str]) -> None:
    members = shape.members if shape is not None else {}
    for name, member in members.items():
        if value.get(name) is not None:
            _write_member(name, member, value[name], out)
    for name, item in value.items():
        if name not in members and item is not None:
            _write_untyped(name, item, out)  # newer than the installed model: still answer it


def _write_member(name: str, shape: Shape, value: Any, out: list[str]) -> None:
    if isinstance(shape, ListShape):
        if shape.serialization.get("flattened"):
            element = _list_element(name, shape)
            for item in value:
                _write_value(element, shape.member, item, out)
        else:
            out.append(f"<{name}>")
            for item in value:
                _write_value(LIST_ELEMENTS.get(shape.name, "member"), shape.member, item, out)
            out.append(f"</{name}>")
    elif isinstance(shape, MapShape):
        entry = _map_entry(name, shape)
        flattened = bool(shape.serialization.get("flattened"))
        tag = entry.entry if flattened else "entry"
        if not flattened:
            out.append(f"<{name}>")
        for key, item in value.items():
            out.append(f"<{tag}><{entry.key}>{_escape(str(key))}</{entry.key}>")
            _write_value(entry.value, shape.value, item, out)
            out.append(f"</{tag}>")
        if not flattened:
            out.append(f"</{name}>")
    else:
        _write_value(name, shape, value, out)


def _write_value(tag: str, shape: Shape, value: Any, out: list[str]) -> None:
    if isinstance(shape, StructureShape):
        out.append(f"<{tag}>")
        _write_members(shape, value, out)
        out.append(f"</{tag}>")
    elif isinstance(shape, ListShape | MapShape):
        _write_member(tag, shape, value, out)
    else:
        out.append(f"<{tag}>{_text(value)}</{tag}>")


def _write_untyped(tag: str, value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        out.append(f"<{tag}>")
        for key, item in value.items():
            _write_untyped(str(key), item, out)
        out.append(f"</{tag}>")
    elif isinstance(value, list):
        for item in value:
            _write_untyped(tag, item, out)
    else:
        out.append(f"<{tag}>{_text(value)}</{tag}>")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return _escape(str(value))


def _escape(text: str) -> str:
    # `\r` as a character reference: XML parsers would otherwise turn it into `\n`.
    escaped = (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#xD;")
    )
    # Characters XML 1.0 cannot carry at all (an error may echo a rejected value): U+FFFD.
    return _NOT_XML.sub("\ufffd", escaped)
