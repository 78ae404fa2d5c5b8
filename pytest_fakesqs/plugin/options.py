"""A test's options: its markers (closest first) over ini `fakesqs_<option>` over the
defaults; and the header line that shows what ini changed. Loaded once an option is read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..fake.option_catalogue import INI_PREFIX
from ..fake.options import Options, defaults, make_options, parse_ini


def marker_values(item: pytest.Item) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    # iter_markers yields the closest first: apply the farthest first so the closest wins.
    for marker in reversed(list(item.iter_markers("fakesqs"))):
        if marker.args:
            raise TypeError(f"@pytest.mark.fakesqs takes keyword options only; got {marker.args!r}")
        merged.update(marker.kwargs)
    return merged


def options_for(item: pytest.Item, ini_values: dict[str, Any]) -> Options:
    from_marker = marker_values(item)
    if from_marker.get("queues_from") is not None:
        from_marker["queues_from"] = anchored(from_marker["queues_from"], item.config.rootpath)
    return make_options(**{**ini_values, **from_marker})


def anchored(value: Any, base: Path) -> Any:
    """queues_from's relative paths, taken from `base` (the ini file's folder, the rootdir)."""
    from ..iac.load import anchored  # no parser: iac.load imports its readers lazily

    try:
        return anchored(value, base)
    except TypeError:
        return value  # not paths: the option's own check says so


def parse_ini_texts(config: pytest.Config, texts: dict[str, str]) -> dict[str, Any]:
    """The ini texts of the options set (name -> text), parsed by type and checked one by one,
    then together; UsageError names the key."""
    values: dict[str, Any] = {}
    for name, text in texts.items():
        key = INI_PREFIX + name
        try:
            values[name] = parse_ini(name, text)
            if name == "queues_from":
                base = config.inipath.parent if config.inipath else config.rootpath
                values[name] = anchored(values[name], base)
            make_options(**{name: values[name]})
        except (TypeError, ValueError) as error:
            raise pytest.UsageError(f"ini option {key}: {error}") from None
    try:
        make_options(**values)
    except (TypeError, ValueError) as error:
        raise pytest.UsageError(f"fakesqs ini options: {error}") from None
    return values


# Always named in the header; any other option only when it differs from its default.
HEADER_OPTIONS = ("clock", "region", "account_id", "flavor")


def header(ini_values: dict[str, Any]) -> str:
    """`fakesqs: clock=frozen, region=..., account_id=..., flavor=aws`: one short line, then
    whatever ini changed from the defaults, with the names it set at the end."""
    effective = make_options(**ini_values)
    default = defaults()
    shown = ", ".join(
        f"{name}={_display(getattr(effective, name))}"
        for name in Options.names()
        if name in HEADER_OPTIONS or getattr(effective, name) != default[name]
    )
    from_ini = f" (ini: {', '.join(ini_values)})" if ini_values else ""
    return f"fakesqs: {shown}{from_ini}"


def _display(value: Any) -> str:
    if isinstance(value, dict):
        return "[" + ", ".join(value) + "]"
    if value is None:
        return "default"
    return str(value)
