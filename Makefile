# The README's two commands: `make examples` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: examples test lint venv

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

examples: $(VENV)/.installed
	$(BIN)/python -m pytest examples -p no:randomly -q

lint: $(VENV)/.installed
	$(BIN)/ruff check pytest_fakesqs tests examples benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q
