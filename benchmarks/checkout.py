"""Put this checkout's package first on `sys.path`: a benchmark measures the tree it sits in.

Imported by name, `pytest_fakesqs` comes from wherever the environment has it: an editable
install of another checkout, a copy on PYTHONPATH. A benchmark run from this folder would then
time that copy and print its numbers as this tree's, silently. Importing this module (before
the package) puts the checkout first; a process that already imported the package (a test
importing a benchmark as a module, `versus.py`'s two copies) is left as it is.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pytest_fakesqs"


def use_this_checkout() -> None:
    if PACKAGE not in sys.modules and sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))


def imported_from() -> Path:
    """The folder the package in use was imported from (printed where numbers are printed)."""
    import pytest_fakesqs

    return Path(pytest_fakesqs.__file__ or "").resolve().parent


use_this_checkout()
