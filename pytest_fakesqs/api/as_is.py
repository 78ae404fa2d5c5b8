"""Answer rows the api vouches JSON writes as they are, so the encoder need not quote them.

json's quoting reads every character of every string one at a time (about 50 machine
instructions each on CPython 3.11): for the stress cycle's answers, a tenth of the fake's own
cost. Most of what those answers hold is made here and is plain by construction (batch entry
ids of letters, digits, "-" and "_"; hex digests; message ids; base64 receipt handles), so
the api says so once per answer instead of the encoder finding it out per character.
"""

from __future__ import annotations

from typing import Any

from .messages import printable_ascii


class AsIsRows(list[dict[str, Any]]):
    """An answer's rows, each with the keys of the first in the same order, every value a
    string for which `writes_as_is` holds. A plain list in every other respect: the JSON
    encoder may write each value between quotes without looking at its characters."""

    __slots__ = ()


def writes_as_is(text: str) -> bool:
    """Whether json writes `text` between quotes exactly as it is (no character escaped):
    printable ASCII (the check a plain body passes) without a quote or backslash."""
    return printable_ascii(text) and '"' not in text and "\\" not in text
