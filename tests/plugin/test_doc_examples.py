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
    """(page:line, block) for every marked block, each page read once."""
    found = []
    for page in PAGES:
        if page.name in OWN_RUNNER:
            continue
        text = page.read_text()
        for match in MARKED.finditer(text):
            found.append(
                (f"{page.name}:{text.count(chr(10), 0, match.start()) + 1}", match.group(1))
            )
    return found


EXAMPLES = examples()


def test_the_pages_mark_their_tests() -> None:
    assert [where.split(":")[0] for where, _ in EXAMPLES] == [
        "README.md",
        "interop.md",
        "interop.md",
        "interop.md",
        "ymq.md",
    ]


@pytest.mark.parametrize(("where", "body"), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_the_example_passes_as_written(pytester: pytest.Pytester, where: str, body: str) -> None:
    pytester.makepyfile(test_example=body)

    result = pytester.runpytest_subprocess("-p", "no:randomly", "-q")

    result.assert_outcomes(passed=body.count("\ndef test_") + body.startswith("def test_"))
