"""`queues_from`: which files to read, which reader reads each, and the declarations they make."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .model import DeclaredQueue, IacError, QueueAddresses, declarations

EXTRA_HINT = "queues_from needs the iac extra: pip install 'pytest-fakesqs[iac]'"
PathValue = str | os.PathLike[str]


def queue_paths(value: PathValue | Iterable[PathValue] | None) -> list[Path]:
    """The paths an option value names: one path, a list, or (ini) one path per line."""
    if value is None:
        return []
    if isinstance(value, str):
        return [Path(line.strip()) for line in value.splitlines() if line.strip()]
    if isinstance(value, os.PathLike):
        return [Path(value)]
    return [path for item in value for path in queue_paths(item)]


def _is_terraform(path: Path) -> bool:
    return path.name.endswith((".tf", ".tf.json"))


def _shown(path: Path) -> str:
    # Errors name files as the user wrote them when they are under the working directory.
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_queues(
    paths: Iterable[Path], variables: Mapping[str, Any], addresses: QueueAddresses
) -> dict[str, dict[str, Any]]:
    """Read every file (a folder: its `.tf` / `.tf.json` files, one module) into the
    declaration dict the `queues` option takes."""
    queues: list[DeclaredQueue] = []
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and _is_terraform(p))
            if not files:
                raise IacError(f"{_shown(path)}: no .tf or .tf.json files in this folder")
            queues += _terraform([(p, _shown(p)) for p in files], variables, addresses)
        elif not path.exists():
            raise IacError(f"queues_from: {_shown(path)} does not exist")
        elif _is_terraform(path):
            queues += _terraform([(path, _shown(path))], variables, addresses)
        else:
            queues += _cloudformation(path, _shown(path), variables, addresses)
    return declarations(queues, addresses)


def _terraform(
    files: list[tuple[Path, str]], variables: Mapping[str, Any], addresses: QueueAddresses
) -> list[DeclaredQueue]:
    try:
        from .terraform import read_terraform
    except ImportError as error:
        raise IacError(f"{EXTRA_HINT} ({error.name} is missing)") from None
    return read_terraform(files, variables, addresses)


def _cloudformation(
    path: Path, shown: str, variables: Mapping[str, Any], addresses: QueueAddresses
) -> list[DeclaredQueue]:
    try:
        from .cloudformation import read_template
    except ImportError as error:
        raise IacError(f"{EXTRA_HINT} ({error.name} is missing)") from None
    return read_template(path, shown, variables, addresses)
