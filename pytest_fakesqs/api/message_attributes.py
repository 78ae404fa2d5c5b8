"""Message attributes: validation with AWS's texts, size, wire form, MD5."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any

from .error_texts import ErrorText
from .md5 import AttributeValues, md5_of_attributes

# Letters and digits of any script (AWS-validated: `attr.1øßä` is valid), `_`, `-` and `.`.
# Matched in full: a pattern ending in `$` would let a final "\n" through.
_NAME = re.compile(r"[\w.\-]{1,256}")
_TYPE = re.compile(r"(String|Number|Binary)(\..+)?")
# Characters SQS accepts in bodies and string values (XML 1.0's Char production).
_INVALID_CHARS = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def has_invalid_characters(text: str) -> bool:
    return _INVALID_CHARS.search(text) is not None


def first_invalid_character(text: str) -> str | None:
    """The first character SQS refuses, as its error names it ("#x7"); None if there is none."""
    found = _INVALID_CHARS.search(text)
    return None if found is None else f"#x{ord(found.group()):X}"


def parse_attributes(
    raw: Mapping[str, Any], *, max_count: int
) -> dict[str, tuple[str, str | bytes]]:
    """Validated attributes as name -> (DataType, str or bytes value)."""
    if not isinstance(raw, Mapping):
        raise ErrorText.ATTRIBUTES_INVALID()
    if len(raw) > max_count:
        raise ErrorText.TOO_MANY_ATTRIBUTES(count=len(raw), maximum=max_count)
    parsed: dict[str, tuple[str, str | bytes]] = {}
    for name, spec in raw.items():
        parsed[name] = _parse_one(name, spec)
    return parsed


def _parse_one(name: str, spec: Any) -> tuple[str, str | bytes]:
    if not isinstance(name, str) or not name:
        raise ErrorText.ATTRIBUTE_NAME_EMPTY()
    if len(name) > 256:
        raise ErrorText.ATTRIBUTE_NAME_TOO_LONG()
    if not _NAME.fullmatch(name):
        raise ErrorText.ATTRIBUTE_NAME_INVALID()
    if name.lower().startswith(("aws.", "amazon.")) or name.startswith(".") or name.endswith("."):
        raise ErrorText.ATTRIBUTE_NAME_RESERVED()
    if ".." in name:
        raise ErrorText.ATTRIBUTE_NAME_PERIODS(name=name)
    if not isinstance(spec, Mapping):
        raise ErrorText.ATTRIBUTE_SPEC_INVALID(name=name)
    data_type = spec.get("DataType")
    if not isinstance(data_type, str) or not data_type:
        raise ErrorText.ATTRIBUTE_TYPE_EMPTY(name=name)
    if not _TYPE.fullmatch(data_type):
        raise ErrorText.ATTRIBUTE_TYPE_INVALID(name=name)
    if len(data_type) > 256:
        raise ErrorText.ATTRIBUTE_TYPE_TOO_LONG()
    if spec.get("StringListValues") or spec.get("BinaryListValues"):
        raise ErrorText.ATTRIBUTE_LIST_VALUES()
    if data_type.startswith("Binary"):
        value = spec.get("BinaryValue")
        if isinstance(value, str):
            try:
                value = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                raise ErrorText.ATTRIBUTE_BINARY_INVALID(name=name) from None
        if not isinstance(value, bytes) or not value:
            raise ErrorText.ATTRIBUTE_VALUE_EMPTY(name=name, kind="Binary")
        return data_type, value
    value = spec.get("StringValue")
    base_type = "Number" if data_type.startswith("Number") else "String"
    if not isinstance(value, str) or not value:
        raise ErrorText.ATTRIBUTE_VALUE_EMPTY(name=name, kind=base_type)
    if has_invalid_characters(value):
        raise ErrorText.ATTRIBUTE_VALUE_CHARACTERS(name=name)
    if base_type == "Number":
        _check_number(name, value)
    return data_type, value


def _check_number(name: str, value: str) -> None:
    try:
        number = float(value)
    except ValueError:
        raise ErrorText.ATTRIBUTE_NOT_A_NUMBER(name=name) from None
    digits = re.sub(r"[^0-9]", "", value.split("e")[0].split("E")[0])
    if len(digits.lstrip("0")) > 38 or (number != 0 and not 1e-128 <= abs(number) <= 1e126):
        raise ErrorText.ATTRIBUTE_NUMBER_RANGE(name=name, value=value)


def attributes_size(attributes: AttributeValues) -> int:
    total = 0
    for name, (data_type, value) in attributes.items():
        total += len(name.encode()) + len(data_type.encode())
        total += len(value) if isinstance(value, bytes) else len(value.encode())
    return total


def to_wire(attributes: AttributeValues) -> dict[str, dict[str, str]]:
    wire: dict[str, dict[str, str]] = {}
    for name, (data_type, value) in attributes.items():
        if isinstance(value, bytes):
            wire[name] = {"DataType": data_type, "BinaryValue": base64.b64encode(value).decode()}
        else:
            wire[name] = {"DataType": data_type, "StringValue": value}
    return wire


def select(attributes: AttributeValues, requested: list[str]) -> dict[str, tuple[str, str | bytes]]:
    """ReceiveMessage's MessageAttributeNames: names, `All`, `*`, `.*` or prefixes `foo.*`."""
    if not requested or not attributes:
        return {}
    if "All" in requested or ".*" in requested or "*" in requested:
        return dict(attributes)
    chosen: dict[str, tuple[str, str | bytes]] = {}
    for name, value in attributes.items():
        for pattern in requested:
            # "Hel.*" selects every name starting with "Hel" (recorded: Hello and Help.Me).
            if name == pattern or (pattern.endswith(".*") and name.startswith(pattern[:-2])):
                chosen[name] = value
                break
    return chosen


__all__ = [
    "attributes_size",
    "first_invalid_character",
    "has_invalid_characters",
    "md5_of_attributes",
    "parse_attributes",
    "select",
    "to_wire",
]
