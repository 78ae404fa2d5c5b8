"""iac/ sits under fake/: it turns files into declarations and never imports what uses it."""

from __future__ import annotations

from tests.layout.imports import import_graph


def test_iac_imports_only_itself_of_the_package() -> None:
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if module.startswith("pytest_fakesqs.iac")
        for target in targets
        if not target.startswith("pytest_fakesqs.iac")
    )
    assert wrong == []


def test_only_the_declaring_module_and_the_plugins_path_helper_import_iac() -> None:
    users = sorted(
        module
        for module, targets in import_graph().items()
        if not module.startswith("pytest_fakesqs.iac")
        and any(target.startswith("pytest_fakesqs.iac") for target in targets)
    )
    assert users == ["pytest_fakesqs.fake.queues_from", "pytest_fakesqs.plugin.options"]
