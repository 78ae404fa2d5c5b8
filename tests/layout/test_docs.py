"""The README is a front door and docs/ holds one page per task: every link and anchor in them
resolves, and so does every page an error message cites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_fakesqs.fake.text import ANCHORS, see

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    text = FENCE.sub("", page.read_text())
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in text.splitlines()
        if re.match(r"#{1,6} ", line)
    }


def resolves(page: Path, target: str) -> bool:
    path, _, anchor = target.partition("#")
    destination = (page.parent / path).resolve() if path else page
    if not destination.exists():
        return False
    return not anchor or destination.suffix != ".md" or anchor in anchors(destination)


def test_the_readme_is_a_front_door() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 300


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_and_anchor_resolves(page: Path) -> None:
    text = FENCE.sub("", page.read_text())
    targets = [a or b for a, b in LINK.findall(text)]
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert [t for t in local if not resolves(page, t)] == []


def test_every_docs_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    unlinked = [p.name for p in PAGES[1:] if f"(docs/{p.name})" not in readme]
    assert unlinked == []


@pytest.mark.parametrize("topic", sorted(ANCHORS))
def test_every_page_an_error_message_cites_exists(topic: str) -> None:
    cited = re.search(r"docs/(\S+\.md(?:#[\w-]+)?)", see(topic))
    assert cited is not None, see(topic)
    assert resolves(ROOT / "docs" / "index", cited.group(1))


def test_broken_links_and_anchors_are_caught(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\n## Some section: here\n")
    page = tmp_path / "b.md"
    assert resolves(page, "a.md#some-section-here")
    assert not resolves(page, "a.md#missing")
    assert not resolves(page, "missing.md")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_python_example_is_valid_python(page: Path) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S)
    for block in blocks:
        compile(block, f"{page.name} example", "exec")
