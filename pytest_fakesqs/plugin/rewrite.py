"""Our modules keep their plain `assert`s: pytest would rewrite every module of a plugin's
distribution, which on a run that writes no bytecode (PYTHONDONTWRITEBYTECODE) means parsing and
compiling each of them anew, tens of milliseconds on every pytest run. The fake's failure texts
are built as strings (they read the same under --assert=plain), so nothing is lost."""

from __future__ import annotations

import sys

PACKAGE = __name__.partition(".")[0]


def keep_our_modules_unrewritten() -> None:
    # pytest's AssertionRewritingHook keeps the marked names in a private set; a finder without
    # one (another pytest, --assert=plain) is left alone.
    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(marked, set):
            marked.difference_update(
                {name for name in marked if name == PACKAGE or name.startswith(PACKAGE + ".")}
            )
