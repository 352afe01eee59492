# Hearken: `make run` serves on the embedded SQLite default; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.hearken-setup
WIDGETS := $(addprefix static/widgets/v1/,helpful.js contact.js feedback.js star.js nps.js)
WIDGET_SOURCES := static/widgets/build.mjs $(wildcard static/widgets/src/*.* static/widgets/src/shared/*.*)

.DEFAULT_GOAL := help
.PHONY: help setup run test bench lint migrate clean cluster

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

setup: $(STAMP) static/vendor/.installed $(WIDGETS) ## Install everything into .venv and build the widgets (idempotent)

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

# The served widgets are built (bundled, minified) from static/widgets/src by esbuild from package.json.
$(WIDGETS) &: static/vendor/.installed $(WIDGET_SOURCES)
	@test -x node_modules/.bin/esbuild || { echo "npm is required to build the widgets (static/widgets/src)"; exit 1; }
	node static/widgets/build.mjs

migrate: setup ## Apply database migrations
	$(BIN)/hearken database upgrade --no-prompt

run: setup migrate ## Migrate and serve on the embedded SQLite default
	$(BIN)/hearken run

cluster: setup ## Two nodes (8001, 8002) behind HAProxy (8080) on this machine's PostgreSQL and Redis
	@command -v haproxy >/dev/null || { apt-get update -qq && apt-get install -y -qq haproxy; }
	$(BIN)/python -m tests.cluster

test: setup ## Run every test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: setup ## Measure ingest, statistics and lists; prints a table and bench/results.json
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	$(BIN)/python -m tests.bench

lint: setup ## Lint, check formatting and the import layers (pyproject.toml)
	$(BIN)/ruff check app tenants admin_ui tests
	$(BIN)/ruff format --check app tenants admin_ui tests
	$(BIN)/lint-imports --no-logo

clean: ## Remove the virtualenv, node modules and local data
	rm -rf $(VENV) node_modules static/vendor static/widgets/v1 var
