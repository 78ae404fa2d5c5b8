"""What a flavor accepts as queue tags: each flavor's dialect holds one TagRules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .error_texts import ErrorText

MAX_TAG_KEY_LENGTH = 128
MAX_TAG_VALUE_LENGTH = 256


class TagRules(Protocol):
    def at_create(self, tags: Mapping[str, Any], max_tags: int) -> dict[str, str]:
        """CreateQueue's `tags`, checked; returns what the queue stores."""
        ...

    def merged(
        self, requested: Mapping[str, Any], current: Mapping[str, str], max_tags: int, queue: str
    ) -> dict[str, str]:
        """TagQueue: the queue's tags once `requested` is added to `current`, checked."""
        ...


def check_tags(tags: Mapping[str, Any]) -> dict[str, str]:
    """Validate an AWS tag map as sent; returns it with string values."""
    clean: dict[str, str] = {}
    for key, value in tags.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_TAG_KEY_LENGTH:
            raise ErrorText.TAG_KEY_LENGTH(maximum=MAX_TAG_KEY_LENGTH)
        text = "" if value is None else str(value)
        if len(text) > MAX_TAG_VALUE_LENGTH:
            raise ErrorText.TAG_VALUE_LENGTH(maximum=MAX_TAG_VALUE_LENGTH)
        clean[key] = text
    return clean


class AwsTags:
    """Any Unicode key of 1-128 characters, values up to 256; at most `max_tags` per queue."""

    def at_create(self, tags: Mapping[str, Any], max_tags: int) -> dict[str, str]:
        check_tags(tags)  # key and value lengths, as TagQueue checks them
        if len(tags) > max_tags:
            raise ErrorText.TOO_MANY_TAGS_AT_CREATE(maximum=max_tags)
        return {str(key): str(value) for key, value in tags.items()}

    def merged(
        self, requested: Mapping[str, Any], current: Mapping[str, str], max_tags: int, queue: str
    ) -> dict[str, str]:
        merged = {**current, **check_tags(requested)}
        # The limit counts the tags the queue would end up with, not just this request's.
        if len(merged) > max_tags:
            raise ErrorText.TOO_MANY_TAGS(name=queue)
        return merged
