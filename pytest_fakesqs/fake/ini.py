"""The one reading of an ini boolean, for every boolean the plugin takes from ini.

Kept apart from the options so that reading an ini flag imports nothing else; the callers name
the key when the text is neither.
"""

from __future__ import annotations

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def parse_bool(text: str) -> bool:
    """`true`/`false` (or yes/no, on/off, 1/0, any case); ValueError says what was expected."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"expected true or false, got {text.strip()!r}")
