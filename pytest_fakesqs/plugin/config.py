"""Where a test's options come from: marker > ini `fakesqs_<option>` > default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..fake.ini import parse_bool
from ..fake.options import (
    Options,
    defaults,
    make_options,
    option_help,
    parse_ini,
    signature,
    unknown_options_text,
)

INI_PREFIX = "fakesqs_"


def add_ini_options(parser: pytest.Parser) -> None:
    for name, help in option_help().items():
        parser.addini(INI_PREFIX + name, f"fakesqs: {help}", type="string", default="")


def ini_flag(config: pytest.Config, key: str) -> bool:
    """An ini boolean of the plugin (false when unset); UsageError names the key."""
    text = config.getini(key)
    if not isinstance(text, str) or not text.strip():
        return False
    try:
        return parse_bool(text)
    except ValueError as error:
        raise pytest.UsageError(f"ini option {key}: {error}") from None


def marker_line() -> str:
    return (
        f"fakesqs(*, {signature()}): turn the fake SQS on for this test and configure it; "
        "closest marker wins per option, then ini fakesqs_<option>, then the default."
    )


def read_ini(config: pytest.Config) -> dict[str, Any]:
    """The options set in ini, parsed by type and validated; UsageError names the key."""
    refuse_unknown_ini_keys(config)
    values: dict[str, Any] = {}
    for name in Options.names():
        key = INI_PREFIX + name
        text = config.getini(key)
        if not isinstance(text, str) or not text.strip():
            continue
        try:
            values[name] = parse_ini(name, text)
            if name == "queues_from":
                base = config.inipath.parent if config.inipath else config.rootpath
                values[name] = _anchored(values[name], base)
            make_options(**{name: values[name]})
        except (TypeError, ValueError) as error:
            raise pytest.UsageError(f"ini option {key}: {error}") from None
    try:
        make_options(**values)
    except (TypeError, ValueError) as error:
        raise pytest.UsageError(f"fakesqs ini options: {error}") from None
    return values


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
        from_marker["queues_from"] = _anchored(from_marker["queues_from"], item.config.rootpath)
    return make_options(**{**ini_values, **from_marker})


def _anchored(value: Any, base: Path) -> Any:
    """queues_from's relative paths, taken from `base` (the ini file's folder, the rootdir)."""
    from ..iac.load import anchored  # no parser: iac.load imports its readers lazily

    try:
        return anchored(value, base)
    except TypeError:
        return value  # not paths: the option's own check says so


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


def refuse_unknown_ini_keys(config: pytest.Config) -> None:
    """A misspelt `fakesqs_*` ini key would silently do nothing: name the nearest real one."""
    unknown_keys = getattr(config, "_get_unknown_ini_keys", None)  # pytest keeps it private
    if unknown_keys is None:
        return
    ours = sorted(key for key in unknown_keys() if key.startswith(INI_PREFIX))
    if ours:
        known = sorted(name for name in config._parser._inidict if name.startswith(INI_PREFIX))
        raise pytest.UsageError(unknown_options_text(ours, known, kind="ini key"))
