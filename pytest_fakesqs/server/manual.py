"""The documentation pages, readable where the package is installed: `fakesqs docs PAGE`.

The wheel carries docs/ inside the package (pyproject's force-include); a checkout reads its own
docs/ folder. Error messages cite a page by name, and this prints it.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def docs_folder() -> Path:
    installed = _PACKAGE / "docs"
    return installed if installed.is_dir() else _PACKAGE.parent / "docs"


def pages() -> dict[str, Path]:
    """Page name (the file name without .md) -> its file, in name order."""
    return {path.stem: path for path in sorted(docs_folder().glob("*.md"))}


def title(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("#").strip()
