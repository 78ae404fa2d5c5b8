"""The tests the README and docs/ give to copy, run as a user would paste them.

A fenced Python block right after `<!-- test -->` is a whole test module, imports included;
docs/queues-from-infrastructure.md's own (which need its files) run in tests/iac/test_docs.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKED = re.compile(r"^<!-- test -->\n```python\n(.*?)^```", re.M | re.S)
OWN_RUNNER = {"queues-from-infrastructure.md"}


def examples() -> list[tuple[str, str]]:
    return [
        (f"{page.name}:{page.read_text()[: match.start()].count(chr(10)) + 1}", match.group(1))
        for page in PAGES
        if page.name not in OWN_RUNNER
        for match in MARKED.finditer(page.read_text())
    ]


def test_the_pages_mark_their_tests() -> None:
    assert [where.split(":")[0] for where, _ in examples()] == [
        "README.md",
        "interop.md",
        "interop.md",
        "interop.md",
        "ymq.md",
    ]


@pytest.mark.parametrize(("where", "body"), examples(), ids=[where for where, _ in examples()])
def test_the_example_passes_as_written(pytester: pytest.Pytester, where: str, body: str) -> None:
    pytester.makepyfile(test_example=body)

    result = pytester.runpytest_subprocess("-p", "no:randomly", "-q")

    result.assert_outcomes(passed=body.count("\ndef test_") + body.startswith("def test_"))
