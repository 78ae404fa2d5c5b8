"""Flavor differences live in the dialects (api/dialect.py, api/ymq.py), not in comparisons of
flavor names spread over the code: the literal "ymq" is compared at most four times (the
options' validation, the trigger's `shape`, the Terraform reader)."""

from __future__ import annotations

import ast

from .imports import PACKAGE, modules

MAX_COMPARISONS = 4


def comparisons_with(literal: str, source: str) -> list[int]:
    """The lines comparing with `literal`: `== "x"`, `!= "x"`, `in (..., "x")`, `not in`."""

    def is_literal(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and node.value == literal

    def holds_literal(node: ast.expr) -> bool:
        return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
            is_literal(element) for element in node.elts
        )

    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for index, operator in enumerate(node.ops):
            left, right = operands[index], operands[index + 1]
            equality = isinstance(operator, ast.Eq | ast.NotEq)
            membership = isinstance(operator, ast.In | ast.NotIn)
            if (equality and (is_literal(left) or is_literal(right))) or (
                membership and holds_literal(right)
            ):
                lines.append(node.lineno)
    return lines


def test_the_counter_sees_every_form_of_comparison() -> None:
    source = (
        'a = flavor == "ymq"\n'
        'b = "ymq" != flavor\n'
        'c = shape in ("lambda", "ymq")\n'
        'd = shape not in ["ymq"]\n'
        'e = parts[:3] != ["yrn", "yc", "ymq"]\n'  # a list compared whole: not a flavor test
        'f = flavor == "aws"\n'
    )
    assert comparisons_with("ymq", source) == [1, 2, 3, 4]


def test_flavor_names_are_compared_at_most_four_times() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in modules().values()
        for line in comparisons_with("ymq", path.read_text())
    ]
    assert len(found) <= MAX_COMPARISONS, (
        f'{len(found)} comparisons with "ymq" (at most {MAX_COMPARISONS}): '
        + ", ".join(found)
        + "; ask the flavor's dialect (api/dialect.py) instead"
    )
