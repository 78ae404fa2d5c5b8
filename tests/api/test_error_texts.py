"""The error-text table (api/error_texts.py): every text the fake answers with, and its source.

A recorded text must be found in the scenario its row names; the guessed ones are listed here, so
a change to what the fake guesses is a visible change to this file, and docs/fifo-and-aws-rules.md lists
them for users.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_fakesqs.api.error_texts import GUESSED, RECORDED, ErrorText, Source
from pytest_fakesqs.api.errors import ErrorCode

RECORDINGS = Path(__file__).parent / "aws_recorded"
DOCS_PAGE = Path(__file__).parents[2] / "docs" / "fifo-and-aws-rules.md"

# The texts no recorded, documented or quoted AWS answer supports (see each row's evidence).
GUESSED_TEXTS = {
    "CONDITION_NOT_EVALUATED",
    "CONDITION_NOT_EVALUATED_IN_POLICY",
    "TOO_MANY_QUEUES",
    "ATTRIBUTES_NOT_A_MAP",
    "THROUGHPUT_NEEDS_GROUP_SCOPE",
    "ONE_KIND_OF_SSE",
    "LIST_MAX_RESULTS",
    "NEXT_TOKEN_INVALID",
    "TAG_KEY_LENGTH",
    "TAG_VALUE_LENGTH",
    "TOO_MANY_TAGS",
    "TOO_MANY_TAGS_AT_CREATE",
    "NOT_A_STRING",
    "NOT_AN_INTEGER",
    "NOT_A_STRING_LIST",
    "PARAMETER_INVALID",
    "VISIBILITY_TIMEOUT",
    "ATTEMPT_ID_INVALID",
    "SYSTEM_ATTRIBUTE_UNSUPPORTED",
    "TRACE_HEADER_EMPTY",
    "TRACE_HEADER_CHARACTERS",
    "ATTRIBUTES_INVALID",
    "ATTRIBUTE_NAME_INVALID",
    "ATTRIBUTE_NAME_RESERVED",
    "ATTRIBUTE_NAME_PERIODS",
    "ATTRIBUTE_NAME_TOO_LONG",
    "ATTRIBUTE_SPEC_INVALID",
    "ATTRIBUTE_TYPE_EMPTY",
    "ATTRIBUTE_TYPE_TOO_LONG",
    "ATTRIBUTE_LIST_VALUES",
    "ATTRIBUTE_BINARY_INVALID",
    "ATTRIBUTE_VALUE_CHARACTERS",
    "ATTRIBUTE_NOT_A_NUMBER",
    "ATTRIBUTE_NUMBER_RANGE",
    "BATCH_ENTRY_NOT_A_STRUCTURE",
    "REDRIVE_NOT_JSON",
    "REDRIVE_COUNT",
    "REDRIVE_ARN_NOT_QUALIFIED",
    "REDRIVE_EXTRA_KEYS",
    "REDRIVE_NOT_SQS",
    "REDRIVE_TYPE_MISMATCH",
    "REDRIVE_NOT_ALLOWED",
    "REDRIVE_ALLOW_FORMAT",
    "REDRIVE_ALLOW_ARNS_NEED_BY_QUEUE",
    "REDRIVE_ALLOW_BY_QUEUE_NEEDS_ARNS",
    "REDRIVE_ALLOW_TOO_MANY_ARNS",
    "ARN_FORMAT",
    "MOVE_RATE",
    "MOVE_LIST_MAX_RESULTS",
    "LABEL_INVALID",
    "TOO_MANY_ACTIONS",
    "ACTION_OWNER_ONLY",
    "MISSING_ACTION",
    "UNKNOWN_OPERATION",
    "SERIALIZATION",
    "MALFORMED_QUERY_STRING",
    "INTERNAL_ERROR",
    "INJECTED_THROTTLING",
    "INJECTED_INTERNAL_ERROR",
    "INJECTED_PURGE_IN_PROGRESS",
    "INJECTED_UNSUPPORTED_OPERATION",
}


def _messages(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("Message", "FailureReason") and isinstance(item, str):
                yield item
            else:
                yield from _messages(item)
    elif isinstance(value, list):
        for item in value:
            yield from _messages(item)


def _recorded() -> dict[str, list[str]]:
    scenarios: dict[str, list[str]] = {}
    for path in RECORDINGS.glob("*.snapshot.json"):
        for key, scenario in json.loads(path.read_text()).items():
            scenarios[key] = list(_messages(scenario))
    return scenarios


def _fields(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]


def _pattern(template: str) -> re.Pattern[str]:
    """The template with each field as a wildcard (recordings replace values by placeholders)."""
    parts = [
        re.escape(literal) + ("" if field is None else ".*?")
        for literal, field, _, _ in string.Formatter().parse(template)
    ]
    return re.compile("".join(parts), re.DOTALL)


def test_every_row_names_an_error_row_a_source_and_evidence() -> None:
    assert len(ErrorText.__members__) == len(list(ErrorText)), "two rows with the same tuple alias"
    for text in ErrorText:
        assert isinstance(text.error, ErrorCode), text.name
        assert isinstance(text.source, Source), text.name
        assert text.evidence.strip(), text.name
        fields = _fields(text.template)
        error = text(**dict.fromkeys(fields, "x"))
        assert error.spec is text.error.spec
        assert "{" not in error.message and "}" not in error.message, text.name


@pytest.mark.parametrize(
    "text", [t for t in ErrorText if t.source is RECORDED], ids=lambda t: t.name
)
def test_a_recorded_text_is_in_the_scenario_it_names(text: ErrorText) -> None:
    scenarios = {k: v for k, v in _recorded().items() if text.evidence in k}
    assert scenarios, f"no recorded scenario named {text.evidence!r}"
    pattern = _pattern(text.template)
    found = [m for messages in scenarios.values() for m in messages if pattern.fullmatch(m)]
    assert found, f"{text.name}: {text.template!r} not among {sorted(scenarios)}"


def test_the_guessed_texts_are_these() -> None:
    assert {t.name for t in ErrorText if t.source is GUESSED} == GUESSED_TEXTS


def test_the_table_holds_the_query_only_wordings_too() -> None:
    templates = {t.template for t in ErrorText}
    for error in ErrorCode:
        if error.spec.query_message is not None:
            assert error.spec.query_message in templates, error.name


def test_only_the_table_words_errors() -> None:
    """Each SqsError is built by a row (`ErrorText.X(...)`), so each has a source."""
    package = Path(__file__).parents[2] / "pytest_fakesqs"
    for path in package.rglob("*.py"):
        if path.name in ("errors.py", "error_texts.py"):
            continue
        source = path.read_text()
        assert not re.search(r"SqsError\(\s*ErrorCode\.", source), path


def test_the_docs_list_every_guessed_text_and_the_counts() -> None:
    page = DOCS_PAGE.read_text()
    for text in ErrorText:
        if text.source is GUESSED:
            assert f"`{text.name}`" in page, f"docs/fifo-and-aws-rules.md does not list {text.name}"
    counts = {source: sum(t.source is source for t in ErrorText) for source in Source}
    summary = ", ".join(f"{counts[source]} {source.value}" for source in Source)
    assert summary in page, f"docs/fifo-and-aws-rules.md should say: {summary}"
