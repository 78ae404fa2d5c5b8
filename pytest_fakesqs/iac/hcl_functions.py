"""The functions and operators of HCL that queue definitions use, over plain Python values."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any


def number(value: Any) -> int | float:
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is not a number")
    if isinstance(value, int | float):
        return value
    return tonumber(value)


def tonumber(value: Any) -> int | float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    try:
        return int(text)
    except ValueError:
        return float(text)


def jsonencode(value: Any) -> str:
    # Terraform writes objects with sorted keys and no spaces.
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _merge(*maps: dict[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for item in maps:
        merged.update(item)
    return merged


def _format(spec: str, *values: Any) -> str:
    return re.sub(r"%[sdv]", "{}", spec.replace("%%", "\x00")).format(*values).replace("\x00", "%")


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "jsonencode": jsonencode,
    "jsondecode": json.loads,
    "merge": _merge,
    "concat": lambda *lists: [item for items in lists for item in items],
    "join": lambda separator, items: separator.join(str(item) for item in items),
    "lower": str.lower,
    "upper": str.upper,
    "format": _format,
    "tostring": str,
    "tonumber": tonumber,
    "tobool": lambda value: (
        value if isinstance(value, bool) else {"true": True, "false": False}[value]
    ),
    "lookup": lambda mapping, key, *default: (
        mapping[key] if key in mapping or not default else default[0]
    ),
    "coalesce": lambda *values: next(value for value in values if value not in (None, "")),
    "replace": lambda text, old, new: text.replace(old, new),
    "trimsuffix": lambda text, suffix: text.removesuffix(suffix),
    "trimprefix": lambda text, prefix: text.removeprefix(prefix),
    "min": min,
    "max": max,
    # Collections, as count and for_each use them. A set of strings iterates in lexical order.
    "toset": lambda items: sorted(set(items)),
    "tolist": list,
    "tomap": dict,
    "length": len,
    "keys": lambda mapping: sorted(mapping),
    "values": lambda mapping: [mapping[key] for key in sorted(mapping)],
}

OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "%": lambda a, b: a % b,
}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: bool(a == b),
    "!=": lambda a, b: bool(a != b),
    "<": lambda a, b: bool(number(a) < number(b)),
    ">": lambda a, b: bool(number(a) > number(b)),
    "<=": lambda a, b: bool(number(a) <= number(b)),
    ">=": lambda a, b: bool(number(a) >= number(b)),
}
