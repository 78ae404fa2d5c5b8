"""`queues_from`: which files to read, which reader reads each, and the declarations they make."""

from __future__ import annotations

import copy
import json
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


def anchored(value: PathValue | Iterable[PathValue], base: Path) -> list[str]:
    """The paths of an option value, the relative ones taken from `base` (ini: the ini file's
    folder; marker: the rootdir), so a test finds its files from any working directory."""
    return [str(path if path.is_absolute() else base / path) for path in queue_paths(value)]


def _is_terraform(path: Path) -> bool:
    return path.name.endswith((".tf", ".tf.json"))


def _is_tfvars(path: Path) -> bool:
    return path.name.endswith((".tfvars", ".tfvars.json"))


def _auto_tfvars(folder: Path) -> list[Path]:
    """The variable files Terraform loads by itself from a module's folder, in its order."""
    auto = sorted(
        p for p in folder.iterdir() if p.name.endswith((".auto.tfvars", ".auto.tfvars.json"))
    )
    first = [folder / name for name in ("terraform.tfvars", "terraform.tfvars.json")]
    return [p for p in first if p.is_file()] + auto


def _shown(path: Path) -> str:
    # Errors name files as the user wrote them when they are under the working directory.
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# Declarations by (files and their mtimes, variables, region, account, flavor): every test of a
# suite reads the same files, so they are parsed once while unchanged.
_CACHE: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}
_CACHE_SIZE = 32


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        stat = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path.resolve()), stat.st_mtime_ns, stat.st_size)


def load_queues(
    paths: Iterable[Path], variables: Mapping[str, Any], addresses: QueueAddresses
) -> dict[str, dict[str, Any]]:
    """Read every file (a folder: its `.tf` / `.tf.json` files, one module) into the
    declaration dict the `queues` option takes."""
    paths = list(paths)
    files = [
        p for path in paths for p in ([path, *sorted(path.iterdir())] if path.is_dir() else [path])
    ]
    key = (
        tuple(_stamp(p) for p in files),
        json.dumps(variables, sort_keys=True, default=repr),
        addresses.region,
        addresses.account_id,
        addresses.flavor,
    )
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = _read(paths, variables, addresses)
    return copy.deepcopy(_CACHE[key])


def _read(
    paths: list[Path], variables: Mapping[str, Any], addresses: QueueAddresses
) -> dict[str, dict[str, Any]]:
    queues: list[DeclaredQueue] = []
    for path in paths:
        if not path.exists():
            raise IacError(f"queues_from: {_shown(path)} does not exist")
    # A .tfvars file named in queues_from sets variables for every Terraform file read, as
    # `terraform apply -var-file` does; queues_from_vars still wins.
    var_files = [p for p in paths if not p.is_dir() and _is_tfvars(p)]
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and _is_terraform(p))
            if not files:
                raise IacError(f"{_shown(path)}: no .tf or .tf.json files in this folder")
            queues += _terraform(files, [*_auto_tfvars(path), *var_files], variables, addresses)
        elif _is_tfvars(path):
            continue
        elif _is_terraform(path):
            queues += _terraform([path], var_files, variables, addresses)
        else:
            queues += _cloudformation(path, _shown(path), variables, addresses)
    return declarations(queues, addresses)


def _terraform(
    files: list[Path],
    var_files: list[Path],
    variables: Mapping[str, Any],
    addresses: QueueAddresses,
) -> list[DeclaredQueue]:
    try:
        from .terraform import read_terraform
        from .tf_files import read_tfvars
    except ImportError as error:
        raise IacError(f"{EXTRA_HINT} ({error.name} is missing)") from None
    values: dict[str, Any] = {}
    for path in var_files:
        values.update(read_tfvars(path, _shown(path)))
    values.update(variables)
    return read_terraform([(p, _shown(p)) for p in files], values, addresses)


def _cloudformation(
    path: Path, shown: str, variables: Mapping[str, Any], addresses: QueueAddresses
) -> list[DeclaredQueue]:
    try:
        from .cloudformation import read_template
    except ImportError as error:
        raise IacError(f"{EXTRA_HINT} ({error.name} is missing)") from None
    return read_template(path, shown, variables, addresses)
