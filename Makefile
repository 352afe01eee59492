# Hearken: `make run` serves on the embedded SQLite default; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.hearken-setup
WIDGETS := $(addprefix static/widgets/v1/,helpful.js contact.js feedback.js star.js nps.js feedback-media.js feedback-messages.js survey.js survey-renderer.js)
WIDGET_SOURCES := static/widgets/build.mjs static/widgets/bundling.mjs $(wildcard static/widgets/src/*.* static/widgets/src/shared/*.*)
PACKAGE := packages/widgets/dist/index.js
OIDC_PROVIDER := tests/oidc_provider/node_modules/.installed
PACKAGE_SOURCES := packages/widgets/build.mjs packages/widgets/package.json $(wildcard packages/widgets/src/*.* packages/widgets/types/*.*)

.DEFAULT_GOAL := help
.PHONY: help setup run test bench lint migrate clean cluster

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

setup: $(STAMP) static/vendor/.installed $(WIDGETS) $(PACKAGE) $(OIDC_PROVIDER) xmlsec1 ## Install everything into .venv and build the widgets (idempotent)

# SAML single sign-on checks XML signatures with the xmlsec1 program (pysaml2, docs/sso.md).
.PHONY: xmlsec1
xmlsec1:
	@command -v xmlsec1 >/dev/null || { apt-get update -qq && apt-get install -y -qq xmlsec1; } || \
	  echo "xmlsec1 is missing: install it (Debian: apt-get install xmlsec1); SAML sign-in refuses every answer without it"

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11+ is required"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

static/vendor/.installed: package.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --no-audit --no-fund --silent && mkdir -p static/vendor && \
	  cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js && touch $@; \
	else echo "npm not found: the console will work without htmx enhancements"; fi

# The OpenID Connect provider the single sign-on tests start (tests/identity_provider.py).
$(OIDC_PROVIDER): tests/oidc_provider/package.json tests/oidc_provider/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix tests/oidc_provider --no-audit --no-fund --silent && touch $@; \
	else echo "npm not found: the single sign-on tests will fail"; fi

# The served widgets are built (bundled, minified) from static/widgets/src by esbuild from package.json.
$(WIDGETS) &: static/vendor/.installed $(WIDGET_SOURCES)
	@test -x node_modules/.bin/esbuild || { echo "npm is required to build the widgets (static/widgets/src)"; exit 1; }
	node static/widgets/build.mjs

# The npm package of the widgets (packages/widgets/README.md), built from the same sources; not published.
$(PACKAGE): static/vendor/.installed $(WIDGET_SOURCES) $(PACKAGE_SOURCES)
	node packages/widgets/build.mjs

migrate: setup ## Apply database migrations
	$(BIN)/hearken database upgrade --no-prompt

run: setup migrate ## Migrate and serve on the embedded SQLite default
	$(BIN)/hearken run

cluster: setup ## Two nodes (8001, 8002) behind HAProxy (8080) on this machine's PostgreSQL and Redis
	@command -v haproxy >/dev/null || { apt-get update -qq && apt-get install -y -qq haproxy; }
	$(BIN)/python -m tests.cluster

# Parallel workers for `make test` (docs/testing.md): four xdist workers; `make test TEST_WORKERS=0` runs
# everything in one process.
TEST_WORKERS ?= 4
test: setup ## Run every test in four parallel workers (TEST_WORKERS=0: one process; docs/testing.md)
	@# Compiled once here: where PYTHONDONTWRITEBYTECODE is set (CI's environment sets it), every server
	@# and command the tests start would otherwise compile the application's modules again.
	@$(BIN)/python -m compileall -q app tenants admin_ui tests > /dev/null
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

bench: setup ## Measure ingest, statistics and lists; prints a table and bench/results.json
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	$(BIN)/python -m tests.bench

lint: setup ## Lint, check formatting and the import layers (pyproject.toml)
	$(BIN)/ruff check app tenants admin_ui tests
	$(BIN)/ruff format --check app tenants admin_ui tests
	$(BIN)/lint-imports --no-logo

clean: ## Remove the virtualenv, node modules and local data
	rm -rf $(VENV) node_modules static/vendor static/widgets/v1 packages/widgets/dist tests/oidc_provider/node_modules .cache var "$${XDG_CACHE_HOME:-$$HOME/.cache}/hearken-test-sites"
