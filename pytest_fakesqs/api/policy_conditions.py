"""Condition operators of a queue policy, and the wildcard and ARN matching they share.

Only the operators that say something about an SQS call are evaluated; the rest of IAM's
operators (IpAddress, Numeric*, Date*, set qualifiers) are known, so a policy using them is not
malformed, but `enforce_policies` refuses them clearly rather than guessing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

# The keys a request of this fake carries, lower-cased (IAM condition keys are case-insensitive).
SUPPORTED_KEYS = (
    "aws:SourceArn",
    "aws:SourceAccount",
    "aws:PrincipalAccount",
    "aws:SecureTransport",
)


@functools.lru_cache(maxsize=1024)
def _wildcard(pattern: str, ignore_case: bool) -> re.Pattern[str]:
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL if ignore_case else re.DOTALL)


def wildcard_match(pattern: str, value: str, *, ignore_case: bool = False) -> bool:
    """IAM's `*` (any run of characters) and `?` (one character)."""
    if pattern == "*":
        return True
    if "*" not in pattern and "?" not in pattern:
        return pattern.lower() == value.lower() if ignore_case else pattern == value
    return _wildcard(pattern, ignore_case).fullmatch(value) is not None


def arn_match(pattern: str, arn: str) -> bool:
    """ArnEquals / ArnLike and Resource: each of the six `:` parts matched on its own."""
    if pattern == "*":
        return True
    wanted, actual = pattern.split(":", 5), arn.split(":", 5)
    if len(wanted) != 6 or len(actual) != 6:
        return False
    return all(wildcard_match(w, a) for w, a in zip(wanted, actual, strict=True))


Test = Callable[[str, str], bool]  # (policy value, request value) -> match

_POSITIVE: dict[str, Test] = {
    "StringEquals": lambda want, got: want == got,
    "StringEqualsIgnoreCase": lambda want, got: want.lower() == got.lower(),
    "StringLike": lambda want, got: wildcard_match(want, got),
    "ArnEquals": arn_match,
    "ArnLike": arn_match,
    "Bool": lambda want, got: want.lower() == got.lower(),
}
# The negated operators: true when no value matches (and when the key is absent).
_NEGATED: dict[str, str] = {
    "StringNotEquals": "StringEquals",
    "StringNotEqualsIgnoreCase": "StringEqualsIgnoreCase",
    "StringNotLike": "StringLike",
    "ArnNotEquals": "ArnEquals",
    "ArnNotLike": "ArnLike",
}
EVALUATED = frozenset({*_POSITIVE, *_NEGATED, "Null"})
# IAM operators a valid policy may use that this fake does not evaluate.
NOT_EVALUATED = frozenset(
    {
        "IpAddress",
        "NotIpAddress",
        "NumericEquals",
        "NumericNotEquals",
        "NumericLessThan",
        "NumericLessThanEquals",
        "NumericGreaterThan",
        "NumericGreaterThanEquals",
        "DateEquals",
        "DateNotEquals",
        "DateLessThan",
        "DateLessThanEquals",
        "DateGreaterThan",
        "DateGreaterThanEquals",
        "BinaryEquals",
    }
)
_QUALIFIERS = ("ForAnyValue:", "ForAllValues:")


def split_operator(name: str) -> tuple[str, bool]:
    """`StringEqualsIfExists` -> ("StringEquals", True)."""
    if name.endswith("IfExists") and name != "IfExists":
        return name[: -len("IfExists")], True
    return name, False


def is_known(name: str) -> bool:
    base, _ = split_operator(name.split(":", 1)[1] if name.startswith(_QUALIFIERS) else name)
    return base in EVALUATED or base in NOT_EVALUATED


def is_evaluated(name: str) -> bool:
    if name.startswith(_QUALIFIERS):
        return False
    base, _ = split_operator(name)
    return base in EVALUATED


def holds(operator: str, wanted: tuple[str, ...], actual: str | None) -> bool:
    """Whether one condition key passes: any of `wanted` matches (none, if negated)."""
    base, if_exists = split_operator(operator)
    if base == "Null":  # "true": the key must be absent; "false": present
        return any((w.lower() == "true") == (actual is None) for w in wanted)
    negated = base in _NEGATED
    if actual is None:
        return if_exists or negated
    test = _POSITIVE[_NEGATED.get(base, base)]
    matched = any(test(w, actual) for w in wanted)
    return not matched if negated else matched
