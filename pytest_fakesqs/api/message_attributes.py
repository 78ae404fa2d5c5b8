"""Message attributes: validation with AWS's texts, size, wire form, MD5."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any

from .errors import Err, SqsError
from .md5 import AttributeValues, md5_of_attributes

# Letters and digits of any script (AWS-validated: `attr.1øßä` is valid), `_`, `-` and `.`.
_NAME = re.compile(r"^[\w.\-]{1,256}$")
_TYPE = re.compile(r"^(String|Number|Binary)(\..+)?$")
# Characters SQS accepts in bodies and string values (XML 1.0's Char production).
_INVALID_CHARS = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def has_invalid_characters(text: str) -> bool:
    return _INVALID_CHARS.search(text) is not None


def _invalid(text: str) -> SqsError:
    return SqsError(Err.InvalidParameterValue, text)


def parse_attributes(
    raw: Mapping[str, Any], *, max_count: int
) -> dict[str, tuple[str, str | bytes]]:
    """Validated attributes as name -> (DataType, str or bytes value)."""
    if not isinstance(raw, Mapping):
        raise _invalid("The message attributes are invalid.")
    if len(raw) > max_count:
        raise _invalid(
            f"Number of message attributes [{len(raw)}] exceeds the allowed maximum [{max_count}]."
        )
    parsed: dict[str, tuple[str, str | bytes]] = {}
    for name, spec in raw.items():
        parsed[name] = _parse_one(name, spec)
    return parsed


def _parse_one(name: str, spec: Any) -> tuple[str, str | bytes]:
    if not isinstance(name, str) or not name:
        raise _invalid("Message (user) attribute name must not be empty.")
    lowered = name.lower()
    if not _NAME.match(name) or name.startswith(".") or name.endswith(".") or ".." in name:
        raise _invalid(f"Message (user) attribute name '{name}' is invalid.")
    if lowered.startswith(("aws.", "amazon.")):
        raise _invalid(f"Message (user) attribute name '{name}' is reserved for use by the system.")
    if not isinstance(spec, Mapping):
        raise _invalid(f"Message (user) attribute '{name}' is invalid.")
    data_type = spec.get("DataType")
    if not isinstance(data_type, str) or not data_type:
        raise _invalid(
            f"Message (user) attribute '{name}' must contain a non-empty attribute type."
        )
    if not _TYPE.match(data_type):
        raise _invalid(
            f"The type of message (user) attribute '{name}' is invalid. You must use only the "
            "following supported type prefixes: Binary, Number, String."
        )
    if len(data_type) > 256:
        raise _invalid("Message (user) attribute types must be shorter than 256 Bytes")
    if spec.get("StringListValues") or spec.get("BinaryListValues"):
        raise SqsError(
            Err.UnsupportedOperation,
            "Message attribute list values in SendMessage operation are not supported.",
        )
    if data_type.startswith("Binary"):
        value = spec.get("BinaryValue")
        if isinstance(value, str):
            try:
                value = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                raise _invalid(
                    f"Message (user) attribute '{name}' has an invalid binary value."
                ) from None
        if not isinstance(value, bytes) or not value:
            raise _invalid(
                f"Message (user) attribute '{name}' must contain a non-empty value of type 'Binary'."
            )
        return data_type, value
    value = spec.get("StringValue")
    base_type = "Number" if data_type.startswith("Number") else "String"
    if not isinstance(value, str) or not value:
        raise _invalid(
            f"Message (user) attribute '{name}' must contain a non-empty value of type '{base_type}'."
        )
    if has_invalid_characters(value):
        raise _invalid(
            f"Message (user) attribute '{name}' must contain a value with valid characters."
        )
    if base_type == "Number":
        _check_number(name, value)
    return data_type, value


def _check_number(name: str, value: str) -> None:
    try:
        number = float(value)
    except ValueError:
        raise _invalid(
            f"Can't cast the value of message (user) attribute '{name}' to a number."
        ) from None
    digits = re.sub(r"[^0-9]", "", value.split("e")[0].split("E")[0])
    if len(digits.lstrip("0")) > 38 or (number != 0 and not 1e-128 <= abs(number) <= 1e126):
        raise _invalid(
            f"Value {value} for message (user) attribute '{name}' is invalid. "
            "Reason: Number values must be within 38 digits of precision and between 10^-128 and 10^+126."
        )


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
    "has_invalid_characters",
    "md5_of_attributes",
    "parse_attributes",
    "select",
    "to_wire",
]
