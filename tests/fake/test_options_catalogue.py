"""The options' catalogue (what every pytest run reads) and `Options` say the same."""

from __future__ import annotations

from dataclasses import fields

from pytest_fakesqs.fake.option_catalogue import FAULT_OPTIONS, HELP, names
from pytest_fakesqs.fake.options import Options, option_help


def test_the_catalogue_names_every_option_in_order_with_its_help() -> None:
    assert names() == Options.names()
    assert option_help() == HELP
    assert all(spec.metadata["help"] == HELP[spec.name] for spec in fields(Options))


def test_the_fault_options_are_options() -> None:
    assert set(FAULT_OPTIONS) <= set(HELP)
