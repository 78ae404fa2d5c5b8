"""Escaping and number formatting shared by the SVG and the HTML pages (output is XML-clean)."""

from __future__ import annotations

import re
from datetime import datetime

from ..fake.text import offset, plural, short_id

__all__ = ["duration", "escape", "number", "offset", "plural", "seconds_between", "short_id"]

# Characters XML 1.0 cannot carry at all (SQS refuses them in bodies, but not in every string
# the pictures show: queue names and call parameters come from clients).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: object) -> str:
    """Text for an XML/HTML element or a double-quoted attribute."""
    cleaned = _NOT_XML.sub("\ufffd", str(text))
    return (
        cleaned.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def number(value: float) -> str:
    """A coordinate: one decimal at most, no trailing zeros, never `-0`."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def seconds_between(start: datetime, end: datetime) -> float:
    return round((end - start).total_seconds(), 6)


def duration(seconds: float) -> str:
    """A tick label a person reads at a glance: `+45s`, `+1m30s`, `+2h`, `+1d6h`."""
    if seconds < 60:
        return f"+{seconds:g}s"
    whole = round(seconds)
    units = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))
    parts = []
    for name, size in units:
        amount, whole = divmod(whole, size)
        if amount:
            parts.append(f"{amount}{name}")
    return "+" + "".join(parts[:2])
