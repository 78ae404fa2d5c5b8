"""Every example of docs/queues-from-infrastructure.md, run: its files, tests and error texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_fakesqs.iac import load_queues

from .conftest import Addresses

DOC = Path(__file__).parents[2] / "docs" / "queues-from-infrastructure.md"
# `<!-- file: PATH -->`, `<!-- test -->` or `<!-- error: PATH -->`, then a fenced block.
BLOCK = re.compile(r"<!-- (file|test|error)(?:: (\S+))? -->\n```\w*\n(.*?)```", re.S)


def blocks(kind: str) -> list[tuple[str, str]]:
    return [(target, body) for k, target, body in BLOCK.findall(DOC.read_text()) if k == kind]


def write_files(root: Path) -> None:
    for target, body in blocks("file"):
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        (root / target).write_text(body)


def test_the_doc_has_examples_of_each_kind() -> None:
    assert (len(blocks("file")), len(blocks("test")), len(blocks("error"))) == (5, 4, 1)


def test_every_test_in_the_doc_passes(pytester: pytest.Pytester) -> None:
    write_files(pytester.path)
    for number, (_, body) in enumerate(blocks("test")):
        pytester.makepyfile(**{f"test_doc_{number}": body})

    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=len(blocks("test")))


@pytest.mark.parametrize(("target", "text"), blocks("error"))
def test_every_error_in_the_doc_is_the_one_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, text: str
) -> None:
    write_files(tmp_path)
    monkeypatch.chdir(tmp_path)

    with pytest.raises(ValueError) as caught:
        load_queues([Path(target)], {}, Addresses())
    assert str(caught.value) == text.strip()
