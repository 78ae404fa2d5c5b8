# The README's two commands: `make examples` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

# botocore < 1.31.81 speaks the query/XML protocol to SQS, as many YMQ users still pin it.
QUERY_VENV ?= .venv-query
QUERY_BOTO := 'boto3==1.28.80' 'botocore==1.31.80'

.PHONY: examples test lint venv test-xdist test-aio test-query contract

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

test-xdist: $(VENV)/.installed
	$(BIN)/python -m pytest -q -n 2

# aiobotocore pins botocore to a narrow range, so its tests get a small venv of their own.
AIO_VENV ?= .venv-aio
$(AIO_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(AIO_VENV)
	$(AIO_VENV)/bin/python -m pip install -q -e '.[aio-test]'
	touch $@

test-aio: $(AIO_VENV)/.installed
	$(AIO_VENV)/bin/python -c "import aioboto3, aiobotocore"  # fail loudly rather than skip
	$(AIO_VENV)/bin/python -m pytest -q -p no:randomly tests/interop/test_aio.py

$(QUERY_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(QUERY_VENV)
	$(QUERY_VENV)/bin/python -m pip install -q $(QUERY_BOTO) -e '.[test]'
	$(QUERY_VENV)/bin/python -c 'import botocore.session as s; p = s.get_session().get_service_model("sqs").protocol; assert p == "query", p'
	touch $@

# The boto3-level tests again, through the query/XML protocol.
test-query: $(QUERY_VENV)/.installed
	$(QUERY_VENV)/bin/python -m pytest tests/api tests/protocol tests/server tests/interop examples -p no:randomly -q

# Contract mode: the examples against `fakesqs serve` in another process, as against AWS.
contract: $(VENV)/.installed
	BIN=$(BIN) bash .ci/contract
