from __future__ import annotations


def literal(text: str) -> str:
    """`text` as an fnmatch pattern that matches only itself (brackets are classes there)."""
    return text.replace("[", "[[]")
