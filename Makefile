# The README's two commands: `make examples` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: examples test lint venv test-kombu-urllib3 test-kombu54 test-frameworks-oldest test-hypothesis-oldest test-xdist test-aio test-query contract test-pythons test-oldest test-wheel test-browser docs-screenshot test-third-party

# The installer: uv, pinned, in a small venv of its own. It resolves and installs what pip would
# (the same versions, dependency groups included) in seconds where pip takes a minute or more per
# venv: CI makes nine of them.
UV_VENV ?= .venv-uv
UV := $(UV_VENV)/bin/uv
$(UV):
	$(PYTHON) -m venv $(UV_VENV)
	$(UV_VENV)/bin/python -m pip install -q 'uv==0.13.9'

# Every venv the targets use is made by this one recipe: $(call venv,DIR,PYTHON,PACKAGES) is
# DIR/.installed, a venv of PYTHON (with pip, for the scripts that install more) and PACKAGES.
# Compiled at install, as pip does: where PYTHONDONTWRITEBYTECODE is set (CI's machine, many
# images) an uncompiled venv would compile pytest, botocore and moto again in every process.
define venv
$(1)/.installed: pyproject.toml | $(UV)
	$(2) -m venv $(1)
	$(UV) pip install -q --compile-bytecode --python $(1)/bin/python $(3)
	touch $$@
endef

# What the main venv (and each Python's) holds: the package with the extras the suite tests,
# and the project's test tools.
SUITE := -e '.[iac,moto]' --group test --group frameworks
$(eval $(call venv,$(VENV),$(PYTHON),$(SUITE)))

venv: $(VENV)/.installed

examples: $(VENV)/.installed
	$(BIN)/python -m pytest examples -p no:randomly -q

lint: $(VENV)/.installed
	$(BIN)/ruff check pytest_fakesqs tests examples benchmarks
	$(BIN)/ruff format --check pytest_fakesqs tests examples benchmarks README.md docs
	$(BIN)/mypy

# kombu 5.5 polls SQS through urllib3, every other kombu through pycurl (transport/kombu_http.py):
# the kombu and Celery tests again, in a small venv with kombu 5.5, so both clients are served.
KOMBU55_VENV ?= .venv-kombu55
KOMBU55 := -e . --group kombu-urllib3
$(eval $(call venv,$(KOMBU55_VENV),$(PYTHON),$(KOMBU55)))

test-kombu-urllib3: $(KOMBU55_VENV)/.installed
	FAKESQS_KOMBU_CLIENT=Urllib3Client $(KOMBU55_VENV)/bin/python -m pytest -q -p no:randomly \
		tests/transport/test_kombu_http.py tests/interop/test_celery.py

# kombu 5.4 (and Celery 5.4) poll with CurlClient too, through the hub and requests kombu had
# before 5.5: iterating hub.on_close itself, asking for attributes in the query form. pycurl at
# the floor the frameworks group declares.
KOMBU54_VENV ?= .venv-kombu54
KOMBU54 := -e . 'kombu==5.4.2' 'celery==5.4.0' 'pycurl==7.45.3' 'pytest>=7.4' 'pytest-timeout>=2.2'
$(eval $(call venv,$(KOMBU54_VENV),$(PYTHON),$(KOMBU54)))

test-kombu54: $(KOMBU54_VENV)/.installed
	$(KOMBU54_VENV)/bin/python -m pytest -q -p no:randomly \
		tests/transport/test_kombu_http.py tests/interop/test_celery.py

# Two workers: the suite is independent per test (xdist), and CI's machine has two cores.
test: lint $(KOMBU55_VENV)/.installed $(KOMBU54_VENV)/.installed
	$(BIN)/python -m pytest -q -n 2
	$(MAKE) --no-print-directory test-kombu-urllib3
	$(MAKE) --no-print-directory test-kombu54

test-xdist: $(VENV)/.installed
	$(BIN)/python -m pytest -q -n 2

# aiobotocore pins botocore to a narrow range, so its tests get a small venv of their own.
AIO_VENV ?= .venv-aio
AIO := -e '.[aio]' --group aio-test
$(eval $(call venv,$(AIO_VENV),$(PYTHON),$(AIO)))

# And the floor the aio extra declares (aiobotocore 2.13 builds its header map from aiohttp's
# raw_headers, which 2.21 no longer reads): the aiohttp tests; the httpx ones (trio's among
# them) need aiobotocore 2.23 and skip.
AIO_OLDEST_VENV ?= .venv-aio-oldest
AIO_OLDEST := -e '.[aio]' 'aioboto3==13.0.0' 'aiobotocore==2.13.0' 'anyio==4.4.0' \
	'trio>=0.25' 'pytest>=7.4' 'pytest-timeout>=2.2'
$(eval $(call venv,$(AIO_OLDEST_VENV),$(PYTHON),$(AIO_OLDEST)))

test-aio: $(AIO_VENV)/.installed $(AIO_OLDEST_VENV)/.installed
	$(AIO_VENV)/bin/python -c "import aioboto3, aiobotocore"  # fail loudly rather than skip
	$(AIO_VENV)/bin/python -m pytest -q -p no:randomly tests/interop/test_aio.py
	$(AIO_OLDEST_VENV)/bin/python -c 'import aiobotocore; assert aiobotocore.__version__ == "2.13.0"'
	$(AIO_OLDEST_VENV)/bin/python -m pytest -q -p no:randomly tests/interop/test_aio.py

# Contract mode: the examples against `fakesqs serve` in another process, as against AWS.
contract: $(VENV)/.installed
	BIN=$(BIN) bash .ci/contract

# Every supported Python. pyenv's shims answer only for the version named; elsewhere any
# python3.12 / python3.13 on PATH will do (PYENV_VERSION is then ignored).
PY312 ?= env PYENV_VERSION=3.12.1 python3.12
PY313 ?= env PYENV_VERSION=3.13.0 python3.13

$(eval $(call venv,.venv-3.12,$(PY312),$(SUITE)))
$(eval $(call venv,.venv-3.13,$(PY313),$(SUITE)))

# On the newer Pythons, the code whose behaviour a Python version can change: the engine, api,
# wire protocols, transports, façade, server (asyncio) and the frameworks on the newest; on 3.12,
# between it and 3.11, the parts nearest the interpreter (threads, imports, the frameworks). The
# pytester-driven plugin tests, the layout checks and the pictures run on 3.11 in `make test`
# and `make test-oldest` (CI's 20 minutes: the whole suite twice more would take 5).
PYTHONS_TESTS := tests/engine tests/api tests/protocol tests/transport tests/fake tests/interop tests/server
PYTHON312_TESTS := tests/engine tests/transport tests/interop
test-pythons: .venv-3.12/.installed .venv-3.13/.installed
	.venv-3.12/bin/python -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version'
	.venv-3.12/bin/python -m pytest -q -n 2 $(PYTHON312_TESTS)
	.venv-3.13/bin/python -c 'import sys; assert sys.version_info[:2] == (3, 13), sys.version'
	.venv-3.13/bin/python -m pytest -q -n 2 $(PYTHONS_TESTS)

# The lowest versions pyproject.toml declares, so that the floor it promises is the one tested.
OLDEST_VENV ?= .venv-oldest
# botocore < 1.31.81 speaks the query/XML protocol to SQS, as many YMQ users still pin it.
# python-hcl2 8.1.0 and 8.1.1 read `true` as a name (a reference the fake cannot resolve);
# moto before 5.1.16 names a raw SNS delivery's attributes in snake case.
OLDEST := 'boto3==1.28.80' 'botocore==1.31.80' 'pytest==7.4.0' 'pluggy==1.2.0' \
	'python-hcl2==8.1.2' 'lark==1.1.5' 'PyYAML==6.0' 'moto[sns,s3,events]==5.0.0' \
	'httptools==0.6.4' 'greenlet==3.1.1' 'prometheus-client==0.17.0'
$(eval $(call venv,$(OLDEST_VENV),$(PYTHON),$(OLDEST) $(SUITE)))
OLDEST_SPEAKS_QUERY := 'import botocore.session as s; p = s.get_session().get_service_model("sqs").protocol; assert p == "query", p'

# The floors of the frameworks group, in a venv of their own (Celery 5.5.0 brings kombu 5.5 and
# its Urllib3Client; pycurl's floor is tested beside kombu 5.4 above).
FRAMEWORKS_OLDEST_VENV ?= .venv-frameworks-oldest
FRAMEWORKS_OLDEST := -e . 'celery==5.5.0' 'dramatiq-sqs==0.4.0' 'pyqs==1.0.0' \
	'aws-lambda-powertools==3.0.0' 'aiosqs==1.0.4' 'trustme==1.1.0' 'pytest>=7.4' 'pytest-timeout>=2.2'
$(eval $(call venv,$(FRAMEWORKS_OLDEST_VENV),$(PYTHON),$(FRAMEWORKS_OLDEST)))

test-frameworks-oldest: $(FRAMEWORKS_OLDEST_VENV)/.installed
	$(FRAMEWORKS_OLDEST_VENV)/bin/python -c 'import importlib.metadata as m; assert [m.version(d) for d in ("celery", "dramatiq-sqs", "aiosqs")] == ["5.5.0", "0.4.0", "1.0.4"]'
	FAKESQS_KOMBU_CLIENT=Urllib3Client $(FRAMEWORKS_OLDEST_VENV)/bin/python -m pytest -q -p no:randomly \
		tests/interop/test_consumer_frameworks.py tests/interop/test_over_http.py \
		tests/interop/test_celery.py examples/celery

# The `hypothesis` extra's floor (the test group needs a later Hypothesis): what the extra serves,
# pytest_fakesqs.strategies, and the examples that explore fault schedules with it.
HYPOTHESIS_OLDEST_VENV ?= .venv-hypothesis-oldest
HYPOTHESIS_OLDEST := -e '.[hypothesis]' 'hypothesis==6.80.0' 'pytest>=7.4' 'pytest-timeout>=2.2'
$(eval $(call venv,$(HYPOTHESIS_OLDEST_VENV),$(PYTHON),$(HYPOTHESIS_OLDEST)))

test-hypothesis-oldest: $(HYPOTHESIS_OLDEST_VENV)/.installed
	$(HYPOTHESIS_OLDEST_VENV)/bin/python -c 'import hypothesis; assert hypothesis.__version__ == "6.80.0"'
	$(HYPOTHESIS_OLDEST_VENV)/bin/python -m pytest -q -p no:randomly \
		tests/fake/test_strategies.py tests/fake/test_fault_schedule.py examples/explore

# The pictures and the benchmarks' own tests read no botocore or pytest API that varies: 3.11's run.
test-oldest: $(OLDEST_VENV)/.installed $(FRAMEWORKS_OLDEST_VENV)/.installed $(HYPOTHESIS_OLDEST_VENV)/.installed
	$(OLDEST_VENV)/bin/python -c 'import botocore, pluggy, pytest; assert (botocore.__version__, pytest.__version__, pluggy.__version__) == ("1.31.80", "7.4.0", "1.2.0")'
	$(OLDEST_VENV)/bin/python -c 'import importlib.metadata as m; assert [m.version(d) for d in ("python-hcl2", "moto", "greenlet", "prometheus-client")] == ["8.1.2", "5.0.0", "3.1.1", "0.17.0"]'
	$(OLDEST_VENV)/bin/python -c $(OLDEST_SPEAKS_QUERY)
	$(OLDEST_VENV)/bin/python -m pytest -q -n 2 --ignore=tests/pictures --ignore=tests/benchmarks
	$(MAKE) --no-print-directory test-frameworks-oldest
	$(MAKE) --no-print-directory test-hypothesis-oldest

# The boto3-level tests through the query/XML protocol: the oldest venv's botocore speaks it.
test-query: $(OLDEST_VENV)/.installed
	$(OLDEST_VENV)/bin/python -c $(OLDEST_SPEAKS_QUERY)
	$(OLDEST_VENV)/bin/python -m pytest tests/api tests/protocol tests/server tests/interop examples -p no:randomly -q

# As a user installs it: the wheel built, installed into a fresh venv in an empty folder, and an
# example suite run against it (.ci/wheel-check).
test-wheel: $(VENV)/.installed
	BIN=$(BIN) PYTHON=$(PYTHON) bash .ci/wheel-check

# The pictures in a real browser: Debian's Chromium, headless, driven by playwright's Python
# package (never `playwright install`). Installs Chromium when missing; fails rather than skips.
CHROMIUM ?= /usr/bin/chromium
$(CHROMIUM):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

test-browser: $(VENV)/.installed $(CHROMIUM)
	FAKESQS_REQUIRE_BROWSER=1 FAKESQS_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -q -p no:randomly tests/browser

# Refreshes the screenshot in docs/pictures.md from the dashboard test.
docs-screenshot: $(VENV)/.installed $(CHROMIUM)
	FAKESQS_REQUIRE_BROWSER=1 FAKESQS_CHROMIUM=$(CHROMIUM) FAKESQS_DOCS_SCREENSHOT=docs/pictures-dashboard.png \
		$(BIN)/python -m pytest -q -p no:randomly tests/browser -k dashboard_renders

# Third-party projects' own SQS suites (sdists from PyPI, unchanged; pinned in .ci/third_party.py)
# under moto, then through the moto drop-in: both pass counts printed, fewer under the fake than
# documented fails. The suites' own test dependencies go in a venv of their own.
THIRD_PARTY_VENV ?= .venv-third-party
THIRD_PARTY_DEPS := pytest 'structlog>=24.1' 'newrelic>=9' 'sentry-sdk>=2' 'opentelemetry-api>=1.20'

THIRD_PARTY := -e '.[moto]' $(THIRD_PARTY_DEPS)
$(eval $(call venv,$(THIRD_PARTY_VENV),$(PYTHON),$(THIRD_PARTY)))

test-third-party: $(THIRD_PARTY_VENV)/.installed
	$(THIRD_PARTY_VENV)/bin/python .ci/third_party.py
