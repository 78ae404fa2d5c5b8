"""The plugin's ini keys and flags: registered at start, the ini values read once.

This loads on every pytest run, so registering the ini keys and the marker reads only the
options' catalogue; `Options` itself (fake/options.py: types, defaults, checks) loads once an
option is read: an ini value is set, the header is shown, or a test asks for the fake (a test's
options, markers over ini: plugin/options.py).
"""

from __future__ import annotations

from typing import Any, Literal

import pytest

from ..fake.ini import parse_bool
from ..fake.option_catalogue import HELP

INI_PREFIX = "fakesqs_"
BLOCK_INI = "fakesqs_block_real_sqs"  # the real-SQS guard's (guard.py, refusals.py)
ALLOW_MARKER = "fakesqs_allow_real_sqs"
BlockMode = Literal["cloud", "true", "false"]
DEFAULT_BLOCK_MODE: BlockMode = "cloud"
HTML_INI = "fakesqs_html"  # pages.py writes the pages; registered here, with the other keys


def add_ini_options(parser: pytest.Parser) -> None:
    for name, help in HELP.items():
        parser.addini(INI_PREFIX + name, f"fakesqs: {help}", type="string", default="")


def add_html_options(parser: pytest.Parser, group: pytest.OptionGroup) -> None:
    group.addoption(
        "--fakesqs-html",
        dest="fakesqs_html",
        metavar="DIR",
        default=None,
        help="write an HTML page (queues, dead letters, a timeline of the messages, the calls) "
        "into DIR for each failing test that used the fake",
    )
    parser.addini(
        HTML_INI,
        "fakesqs: directory for the HTML page of each failing test that used the fake "
        "(as --fakesqs-html; relative to the ini file)",
        type="string",
        default="",
    )


def ini_flag(config: pytest.Config, key: str) -> bool:
    """An ini boolean of the plugin (false when unset); UsageError names the key."""
    text = config.getini(key)
    if not isinstance(text, str) or not text.strip():
        return False
    try:
        return parse_bool(text)
    except ValueError as error:
        raise pytest.UsageError(f"ini option {key}: {error}") from None


def marker_line(config: pytest.Config) -> str:
    """The marker's registration: its full signature when `pytest --markers` shows it, the
    option names otherwise (all --strict-markers needs, without loading Options)."""
    if config.getoption("markers", default=False):
        from ..fake.options import signature

        options = signature()
    else:
        options = ", ".join(HELP)
    return (
        f"fakesqs(*, {options}): turn the fake SQS on for this test and configure it; "
        "closest marker wins per option, then ini fakesqs_<option>, then the default."
    )


def read_ini(config: pytest.Config) -> dict[str, Any]:
    """The options set in ini, parsed by type and validated; UsageError names the key."""
    refuse_unknown_ini_keys(config)
    texts = {name: config.getini(INI_PREFIX + name) for name in HELP}
    texts = {name: text for name, text in texts.items() if isinstance(text, str) and text.strip()}
    if not texts:
        return {}  # nothing to read: Options need not load
    from ..fake.options import make_options, parse_ini
    from .options import anchored

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


def refuse_unknown_ini_keys(config: pytest.Config) -> None:
    """A misspelt `fakesqs_*` ini key would silently do nothing: name the nearest real one."""
    unknown_keys = getattr(config, "_get_unknown_ini_keys", None)  # pytest keeps it private
    if unknown_keys is None:
        return
    ours = sorted(key for key in unknown_keys() if key.startswith(INI_PREFIX))
    if ours:
        from ..fake.options import unknown_options_text

        known = sorted(name for name in config._parser._inidict if name.startswith(INI_PREFIX))
        raise pytest.UsageError(unknown_options_text(ours, known, kind="ini key"))
