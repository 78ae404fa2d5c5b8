"""CloudFormation templates in YAML or JSON, read with the line of every mapping and the
short-form tags (`!Ref`, `!GetAtt`, `!Sub`, ...) turned into their long forms."""

from __future__ import annotations

import json
from typing import Any

import yaml

from .model import IacError


class Located(dict[str, Any]):
    """A mapping that remembers its own line and the line of each key."""

    line: int
    key_lines: dict[str, int]


class TemplateLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with CloudFormation's tags and line numbers."""


def _mapping(loader: TemplateLoader, node: yaml.MappingNode) -> Located:
    loader.flatten_mapping(node)
    located = Located()
    located.line = node.start_mark.line + 1
    located.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        located[str(key)] = loader.construct_object(value_node, deep=True)
        located.key_lines[str(key)] = key_node.start_mark.line + 1
    return located


def _value(loader: TemplateLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    assert isinstance(node, yaml.MappingNode)
    return _mapping(loader, node)


def _short_form(loader: TemplateLoader, suffix: str, node: yaml.Node) -> Located:
    value = _value(loader, node)
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)  # `!GetAtt Queue.Arn` is `Fn::GetAtt: [Queue, Arn]`
    key = suffix if suffix in ("Ref", "Condition") else f"Fn::{suffix}"
    located = Located({key: value})
    located.line = node.start_mark.line + 1
    located.key_lines = {key: located.line}
    return located


TemplateLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
TemplateLoader.add_multi_constructor("!", _short_form)


def load_template(text: str, shown: str) -> Any:
    try:
        return yaml.load(text, Loader=TemplateLoader)  # a SafeLoader with CloudFormation's tags
    except yaml.YAMLError as yaml_error:
        try:
            return json.loads(text)  # JSON that YAML reads differently (tabs): without lines
        except ValueError:
            mark = getattr(yaml_error, "problem_mark", None)
            where = f"{shown}:{mark.line + 1}" if mark is not None else shown
            problem = getattr(yaml_error, "problem", None) or "cannot be read"
            raise IacError(f"{where}: not a valid template ({problem})") from None
