"""HCL expressions evaluated over python-hcl2's parse tree: literals, templates, heredocs,
operators, references (through a `Resolver`) and the few functions queue definitions use.

python-hcl2's dict output keeps expressions as `${...}` text; its lark tree keeps their
structure and line numbers, so errors can name the line of the very expression.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol

import hcl2
from lark import Token, Tree
from lark.exceptions import LarkError, UnexpectedInput

from .hcl_functions import COMPARISONS, FUNCTIONS, OPERATORS, number
from .model import IacError, Location

Step = str | int  # `.name` or `[0]` after a reference's root


@dataclass(frozen=True)
class Source:
    """A piece of HCL text and where it sits: a file, or a template inside one."""

    path: str
    text: str
    first_line: int = 1  # the file line of the text's line 1

    def parse(self) -> Tree[Token]:
        try:
            return hcl2.parses_to_tree(self.text)
        except UnexpectedInput as error:
            line = self.first_line + error.line - 1
            raise IacError(f"{self.path}:{line}: not valid HCL (column {error.column})") from None
        except LarkError as error:  # pragma: no cover - lark reports input errors as above
            raise IacError(f"{self.path}: not valid HCL ({error})") from None


@dataclass(frozen=True)
class Expression:
    """An expression to evaluate later: a parse-tree node, or (`.tf.json`) a JSON value."""

    node: Tree[Token] | Any
    source: Source
    line: int

    @property
    def location(self) -> Location:
        return Location(self.source.path, self.line)

    def text(self) -> str:
        node = self.node
        if isinstance(node, Tree) and not node.meta.empty:
            return self.source.text[node.meta.start_pos : node.meta.end_pos].strip()
        return json.dumps(node)


class Resolver(Protocol):
    def resolve(self, root: str, steps: list[Step], where: Expression) -> Any: ...


def unresolvable(where: Expression, why: str) -> IacError:
    return IacError(f"{where.location}: cannot resolve {where.text()}: {why}")


_UNSUPPORTED = {
    "for_tuple_expr": "for expressions",
    "for_object_expr": "for expressions",
}
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def _unescape(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        code = match.group(1)
        if len(code) > 1:
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, match.group(0))

    return _ESCAPE.sub(replace, text)


def _parts(node: Tree[Token]) -> list[Tree[Token]]:
    return [c for c in node.children if isinstance(c, Tree) and c.data != "new_line_or_comment"]


def node_line(node: Any, default: int) -> int:
    if isinstance(node, Tree) and not node.meta.empty:
        return int(node.meta.line)
    if isinstance(node, Token) and node.line is not None:
        return int(node.line)
    return default


class Evaluator:
    """Evaluates expressions; references go to the resolver, which owns variables and queues."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver

    def evaluate(self, expression: Expression) -> Any:
        if isinstance(expression.node, Tree):
            return self._tree(expression.node, expression)
        return self._json(expression.node, expression)

    def at(self, node: Tree[Token], parent: Expression) -> Expression:
        """The expression of a sub-node, with its own line, for precise errors."""
        return Expression(node, parent.source, parent.source.first_line - 1 + node_line(node, 1))

    # -- .tf.json: every string is a template ---------------------------------------------------

    def _json(self, value: Any, where: Expression) -> Any:
        if isinstance(value, str):
            return self.template(value, where)
        if isinstance(value, list):
            return [self._json(item, where) for item in value]
        if isinstance(value, dict):
            return {key: self._json(item, where) for key, item in value.items()}
        return value

    # -- the parse tree -------------------------------------------------------------------------

    def _tree(self, node: Tree[Token], where: Expression) -> Any:
        kind = str(node.data)
        here = self.at(node, where)
        if kind == "expr_term":
            (inner,) = _parts(node)
            return self._tree(inner, where)
        if kind == "int_lit":
            return int(str(node.children[0]))
        if kind == "float_lit":
            return float(str(node.children[0]))
        if kind == "literal_value":
            return {"true": True, "false": False, "null": None}[str(node.children[0])]
        if kind == "string":
            return self._string(node, here)
        if kind in ("heredoc_template", "heredoc_template_trim"):
            return self._heredoc(str(node.children[0]), here, trim=kind.endswith("trim"))
        if kind == "tuple":
            return [self._tree(item, where) for item in _parts(node)]
        if kind == "object":
            return dict(self._object_element(elem, where) for elem in _parts(node))
        if kind in ("get_attr_expr_term", "index_expr_term", "identifier"):
            return self._reference(node, here)
        if kind in ("full_splat_expr_term", "attr_splat_expr_term"):
            return self._splat(node, where, here)
        if kind == "function_call":
            return self._call(node, here)
        if kind == "conditional":
            condition, if_true, if_false = _parts(node)
            chosen = if_true if self._bool(condition, where) else if_false
            return self._tree(chosen, where)
        if kind == "binary_op":
            return self._binary(node, where, here)
        if kind == "unary_op":
            (operand_node,) = _parts(node)
            operand = self._tree(operand_node, where)
            if str(node.children[0]) == "!":
                return not operand
            try:
                return -number(operand)
            except (TypeError, ValueError) as error:
                raise IacError(f"{here.location}: cannot evaluate {here.text()}: {error}") from None
        raise IacError(
            f"{here.location}: cannot evaluate {here.text()}: "
            f"{_UNSUPPORTED.get(kind, kind)} are not supported in queue definitions"
        )

    def _object_element(self, elem: Tree[Token], where: Expression) -> tuple[str, Any]:
        key_node, value_node = _parts(elem)
        (key_expr,) = key_node.children
        if isinstance(key_expr, Tree) and key_expr.data == "expr_term":
            (inner,) = _parts(key_expr)
            if inner.data == "identifier":  # `{ name = ... }`: a bare key, not a reference
                return str(inner.children[0]), self._tree(value_node, where)
            key = self._tree(inner, where)
        else:
            key = str(key_expr.children[0]) if isinstance(key_expr, Tree) else str(key_expr)
        return self.text_of(key, self.at(elem, where)), self._tree(value_node, where)

    def _bool(self, node: Tree[Token], where: Expression) -> bool:
        value = self._tree(node, where)
        if isinstance(value, str) and value in ("true", "false"):
            return value == "true"
        if not isinstance(value, bool):
            here = self.at(node, where)
            raise IacError(f"{here.location}: {here.text()} is not a bool: {value!r}")
        return value

    def _binary(self, node: Tree[Token], where: Expression, here: Expression) -> Any:
        left_node, term = _parts(node)[:2]
        operator_node, right_node = _parts(term)
        operator = str(operator_node.children[0])
        left, right = self._tree(left_node, where), self._tree(right_node, where)
        if operator in ("&&", "||"):
            return (left and right) if operator == "&&" else (left or right)
        try:
            return (
                OPERATORS[operator](number(left), number(right))
                if operator in OPERATORS
                else (COMPARISONS[operator](left, right))
            )
        except (TypeError, ValueError, ZeroDivisionError) as error:
            raise IacError(f"{here.location}: cannot evaluate {here.text()}: {error}") from None

    def _string(self, node: Tree[Token], here: Expression) -> Any:
        pieces: list[Any] = []
        for part in node.children:
            if isinstance(part, Token):
                continue  # the quotes
            (content,) = part.children
            if isinstance(content, Token):
                text = str(content)
                if content.type in ("ESCAPED_INTERPOLATION", "ESCAPED_DIRECTIVE"):
                    pieces.append(text[1:])  # `$${` is a literal `${`
                else:
                    pieces.append(_unescape(text))
            elif content.data == "interpolation":
                (inner,) = _parts(content)
                pieces.append(_Value(self._tree(inner, here)))
            else:
                raise IacError(
                    f"{here.location}: cannot evaluate {here.text()}: template directives "
                    "(%{if}, %{for}) are not supported in queue definitions"
                )
        return self._join(pieces, here)

    def _join(self, pieces: list[Any], where: Expression) -> Any:
        if len(pieces) == 1 and isinstance(pieces[0], _Value):
            return pieces[0].value  # "${x}" alone is x itself, not its text
        return "".join(self.text_of(p.value, where) if isinstance(p, _Value) else p for p in pieces)

    def text_of(self, value: Any, where: Expression) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float | str):
            return str(int(value) if isinstance(value, float) and value.is_integer() else value)
        raise IacError(
            f"{where.location}: cannot evaluate {where.text()}: "
            f"a {_kind(value)} cannot be part of a string"
        )

    def _heredoc(self, token: str, here: Expression, *, trim: bool) -> Any:
        lines = token.rstrip("\r\n").split("\n")
        body = lines[1:-1]
        if trim:
            indents = [len(line) - len(line.lstrip()) for line in body if line.strip()]
            cut = min(indents, default=0)
            body = [line[cut:] for line in body]
        text = "".join(line.rstrip("\r") + "\n" for line in body)
        return self.template(text, Expression(here.node, here.source, here.line + 1))

    def template(self, text: str, where: Expression) -> Any:
        """A template outside the parse tree (heredoc bodies, `.tf.json` strings)."""
        pieces: list[Any] = []
        index = 0
        while index < len(text):
            if text.startswith(("$${", "%%{"), index):
                pieces.append(text[index + 1 : index + 3])
                index += 3
                continue
            if text.startswith("%{", index):
                raise IacError(
                    f"{where.location}: template directives (%{{if}}, %{{for}}) are not "
                    "supported in queue definitions"
                )
            if not text.startswith("${", index):
                pieces.append(text[index])
                index += 1
                continue
            end = _closing_brace(text, index + 2)
            line = where.line + text.count("\n", 0, index)
            if end < 0:
                raise IacError(f"{where.source.path}:{line}: unterminated ${{ in a template")
            pieces.append(_Value(self._snippet(text[index + 2 : end], where.source.path, line)))
            index = end + 1
        return self._join(pieces, where)

    def _snippet(self, code: str, path: str, line: int) -> Any:
        source = Source(path, f"x = ({code})\n", first_line=line)
        attribute = _parts(_parts(source.parse())[0])[0]
        (_name, value) = _parts(attribute)
        return self._tree(value, Expression(value, source, line))

    def _reference(self, node: Tree[Token], here: Expression) -> Any:
        steps: list[Step] = []
        current = node
        while current.data in ("get_attr_expr_term", "index_expr_term", "expr_term"):
            if current.data == "expr_term":
                (current,) = _parts(current)
                continue
            base, step = _parts(current)
            steps.insert(0, self._step(step, here))
            current = base
        if current.data != "identifier":
            return _apply_steps(self._tree(current, here), steps, here)
        return self.resolver.resolve(str(current.children[0]), steps, here)

    def _splat(self, node: Tree[Token], where: Expression, here: Expression) -> Any:
        """`x[*].a.b[0]`: `.a.b[0]` from each element of x. The older `x.*.a.b[0]` takes only
        the attributes from each, and the index from the list they make (HCL's spec). As in
        Terraform, a value that is not a list is a list of itself, and null is []."""
        base_node, splat = _parts(node)
        base = self._tree(base_node, where)
        parts = _parts(splat)
        each = len(parts)
        if node.data == "attr_splat_expr_term":
            each = next((i for i, part in enumerate(parts) if part.data != "get_attr"), each)
        steps = [self._step(part, here) for part in parts]
        if isinstance(base, dict) and each and steps[0] not in base:
            raise unresolvable(
                here,
                "a splat reads a list, and this is a map (a for_each resource is one): "
                f"splat its values instead, values({self.at(base_node, where).text()})[*]",
            )
        items = [] if base is None else base if isinstance(base, list) else [base]
        picked = [_apply_steps(item, steps[:each], here) for item in items]
        return _apply_steps(picked, steps[each:], here)

    def _step(self, step: Tree[Token], here: Expression) -> Step:
        """`.name` or `[index]` after a value, as the step it takes."""
        if step.data == "get_attr":
            (name,) = _parts(step)
            return str(name.children[0])
        return self._index(step, here)

    def _index(self, step: Tree[Token], here: Expression) -> Step:
        if step.data == "short_index":
            return int(str(step.children[-1]))
        (inner,) = _parts(step)
        value = self._tree(inner, here)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise IacError(f"{here.location}: cannot index {here.text()} with {value!r}")
        return value

    def _call(self, node: Tree[Token], here: Expression) -> Any:
        name = str(_parts(node)[0].children[0])
        arguments_node = next((c for c in _parts(node) if c.data == "arguments"), None)
        arguments = (
            []
            if arguments_node is None
            else [self._tree(argument, here) for argument in _parts(arguments_node)]
        )
        function = FUNCTIONS.get(name)
        if function is None:
            raise IacError(
                f"{here.location}: cannot evaluate {here.text()}: function {name} is not "
                f"supported; the fake knows {', '.join(sorted(FUNCTIONS))}"
            )
        try:
            return function(*arguments)
        except (TypeError, ValueError, KeyError, IndexError) as error:
            raise IacError(f"{here.location}: cannot evaluate {here.text()}: {error}") from None


@dataclass(frozen=True)
class _Value:
    value: Any


def _closing_brace(text: str, start: int) -> int:
    depth, index, quoted = 0, start, False
    while index < len(text):
        char = text[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "{":
            depth += 1
        elif char == "}":
            if depth == 0:
                return index
            depth -= 1
        index += 1
    return -1


def apply_steps(value: Any, steps: list[Step], where: Expression) -> Any:
    return _apply_steps(value, steps, where)


def _apply_steps(value: Any, steps: list[Step], where: Expression) -> Any:
    for step in steps:
        if isinstance(value, str):  # HCL indexes collections only, never a string
            raise unresolvable(
                where, f"a string has no {step!r}: only lists, maps and objects take [...] or .name"
            )
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            raise unresolvable(where, f"{_kind(value)} has no {step!r}") from None
    return value


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "map"
    if isinstance(value, list):
        return "list"
    if value is None:
        return "null"
    return type(value).__name__
