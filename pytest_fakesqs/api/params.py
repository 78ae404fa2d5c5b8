"""Reading request parameters: both codecs hand in plain Python, but types vary by protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Err, SqsError, invalid_parameter, missing_parameter


def get_str(params: Mapping[str, Any], name: str, *, required: bool = False) -> str | None:
    value = params.get(name)
    if value is None:
        if required:
            raise missing_parameter(name)
        return None
    if not isinstance(value, str):
        raise invalid_parameter(name, value, "Must be a string.")
    return value


def require_str(params: Mapping[str, Any], name: str) -> str:
    value = get_str(params, name, required=True)
    assert value is not None
    return value


def get_int(params: Mapping[str, Any], name: str) -> int | None:
    """An integer from JSON (int) or from the query protocol (numeric string)."""
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, bool):
        raise invalid_parameter(name, value, "Must be an integer.")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise invalid_parameter(name, value, "Must be an integer.")


def get_list(params: Mapping[str, Any], name: str) -> list[Any]:
    value = params.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise SqsError(Err.InvalidParameterValue, f"Value for parameter {name} is invalid.")
    return value


def get_str_list(params: Mapping[str, Any], name: str) -> list[str]:
    values = get_list(params, name)
    for value in values:
        if not isinstance(value, str):
            raise invalid_parameter(name, value, "Must be a list of strings.")
    return values


def get_map(params: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = params.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SqsError(Err.InvalidParameterValue, f"Value for parameter {name} is invalid.")
    return value
