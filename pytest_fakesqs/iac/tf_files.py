"""Terraform files read into blocks (`.tf` through python-hcl2's parse tree, `.tf.json` as
JSON) and `.tfvars` files into values; nothing here evaluates a queue."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token, Tree

from .hcl import Evaluator, Expression, Source, Step, node_line, unresolvable
from .model import IacError, Location


@dataclass
class Block:
    kind: str
    labels: list[str]
    attributes: dict[str, Expression]
    blocks: list[Block]
    location: Location

    @property
    def address(self) -> str:
        return (
            ".".join(self.labels)
            if self.kind == "resource"
            else ".".join([self.kind, *self.labels])
        )


@dataclass
class Module:
    """Everything read from the files: the blocks the fake uses, by address."""

    variables: dict[str, Block] = field(default_factory=dict)
    locals: dict[str, Expression] = field(default_factory=dict)
    resources: dict[tuple[str, str], Block] = field(default_factory=dict)

    def add(self, block: Block) -> None:
        if block.kind == "variable" and block.labels:
            self.variables[block.labels[0]] = block
        elif block.kind == "locals":
            self.locals.update(block.attributes)
        elif block.kind == "resource" and len(block.labels) == 2:
            self.resources[(block.labels[0], block.labels[1])] = block


def read_tf(path: Path, shown: str) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    if path.name.endswith(".json"):
        return _json_blocks(text, shown)
    source = Source(shown, text)
    (body,) = [c for c in source.parse().children if isinstance(c, Tree)]
    return [_block(node, source) for node in _trees(body) if node.data == "block"]


def _trees(node: Tree[Token]) -> list[Tree[Token]]:
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def _label(node: Tree[Token]) -> str:
    if node.data != "string":  # a name: python-hcl2 tells keywords (for_each, in) apart
        return "".join(str(token) for token in node.children if isinstance(token, Token))
    return "".join(str(part.children[0]) for part in node.children if isinstance(part, Tree))


def _block(node: Tree[Token], source: Source) -> Block:
    parts = _trees(node)
    body = parts[-1]
    attributes: dict[str, Expression] = {}
    blocks: list[Block] = []
    for item in _trees(body):
        if item.data == "attribute":
            name_node, value = _trees(item)
            attributes[_label(name_node)] = Expression(value, source, node_line(item, 1))
        elif item.data == "block":
            blocks.append(_block(item, source))
    return Block(
        _label(parts[0]),
        [_label(label) for label in parts[1:-1]],
        attributes,
        blocks,
        Location(source.path, node_line(node, 1)),
    )


def _json_blocks(text: str, shown: str) -> list[Block]:
    try:
        document = json.loads(text)
    except ValueError as error:
        raise IacError(f"{shown}: not valid JSON ({error})") from None
    source = Source(shown, text)

    def line_of(key: str) -> int:
        return text.count("\n", 0, max(text.find(json.dumps(key)), 0)) + 1

    def block(kind: str, labels: list[str], body: Mapping[str, Any]) -> Block:
        line = line_of(labels[-1]) if labels else line_of(kind)
        attributes = {key: Expression(value, source, line_of(key)) for key, value in body.items()}
        return Block(kind, labels, attributes, [], Location(shown, line))

    blocks: list[Block] = []
    for name, body in _json_items(document.get("variable", {})):
        blocks.append(block("variable", [name], body))
    for body in _json_list(document.get("locals", [])):
        blocks.append(block("locals", [], body))
    for kind, by_label in _json_items(document.get("resource", {})):
        for label, body in _json_items(by_label):
            blocks.append(block("resource", [kind, label], body))
    return blocks


def _json_items(value: Any) -> Iterable[tuple[str, Any]]:
    for item in _json_list(value):
        for key, body in item.items():
            for one in _json_list(body):
                yield key, one


def _json_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


class _ValuesOnly:
    """A .tfvars file holds values: any reference in it is refused."""

    def resolve(self, root: str, steps: list[Step], where: Expression) -> Any:
        raise unresolvable(where, "a .tfvars file can hold only values")


def read_tfvars(path: Path, shown: str) -> dict[str, Any]:
    if path.name.endswith(".json"):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise IacError(f"{shown}: not valid JSON ({error})") from None
        return dict(document) if isinstance(document, dict) else {}
    source = Source(shown, path.read_text(encoding="utf-8"))
    (body,) = [c for c in source.parse().children if isinstance(c, Tree)]
    evaluator = Evaluator(_ValuesOnly())
    values: dict[str, Any] = {}
    for item in _trees(body):
        if item.data == "attribute":
            name_node, value = _trees(item)
            expression = Expression(value, source, node_line(item, 1))
            values[_label(name_node)] = evaluator.evaluate(expression)
    return values
