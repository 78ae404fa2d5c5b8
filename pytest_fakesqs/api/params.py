"""Reading request parameters: both codecs hand in plain Python, but types vary by protocol."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .error_texts import ErrorText

# Every FIFO token (MessageGroupId, MessageDeduplicationId, ReceiveRequestAttemptId):
# alphanumeric and punctuation, 1 to 128 characters.
FIFO_TOKEN = re.compile(r"[!-~]{1,128}")  # fullmatch: `$` would let a final "\n" through


def get_str(params: Mapping[str, Any], name: str, *, required: bool = False) -> str | None:
    value = params.get(name)
    if value is None:
        if required:
            raise ErrorText.MISSING_PARAMETER(name=name)
        return None
    if not isinstance(value, str):
        raise ErrorText.NOT_A_STRING(name=name, value=value)
    return value


def require_str(params: Mapping[str, Any], name: str) -> str:
    value = get_str(params, name, required=True)
    assert value is not None
    return value


def integer_text(text: str) -> int:
    """A decimal integer written as text; ValueError for anything else. Python's int() also
    reads digits grouped by underscores ("3_0" is 30), which no parser on AWS's side takes (a
    guess: AWS documents integers only); surrounding whitespace is still allowed."""
    if "_" in text:
        raise ValueError(f"not an integer: {text!r}")
    return int(text.strip())


def get_int(params: Mapping[str, Any], name: str) -> int | None:
    """An integer from JSON (int) or from the query protocol (numeric string)."""
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, bool):
        raise ErrorText.NOT_AN_INTEGER(name=name, value=value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return integer_text(value)
        except ValueError:
            pass
    raise ErrorText.NOT_AN_INTEGER(name=name, value=value)


def get_list(params: Mapping[str, Any], name: str) -> list[Any]:
    value = params.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ErrorText.PARAMETER_INVALID(name=name)
    return value


def get_str_list(params: Mapping[str, Any], name: str) -> list[str]:
    values = get_list(params, name)
    for value in values:
        if not isinstance(value, str):
            raise ErrorText.NOT_A_STRING_LIST(name=name, value=value)
    return values


def get_map(params: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = params.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ErrorText.PARAMETER_INVALID(name=name)
    return value
