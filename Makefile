# stich: the two commands that matter are `make run` and `make test` (see README).
PYTHON ?= python3.11
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip
STAMP   = $(VENV)/.installed

.PHONY: web chromium tmux run test dev build bench bench-report demo evaluate clean gen lint serve adversary

# Create the virtualenv and install both packages: the client (clients/python, with the
# generated gRPC code) and stich (building the Cython extensions), with what serving needs only
# (`make run`); the dev extra (pytest, Ray, OpenSpiel, ...: most of a dev venv) comes on top for
# `make test` and `make dev`, without building the extensions again.
SERVE_STAMP = $(VENV)/.serving
$(SERVE_STAMP): pyproject.toml setup.py clients/python/pyproject.toml $(wildcard src/engine_core/*.pyx src/engine_core/*.pxd src/engine_core/*.pxi src/engine_core/*.py src/engine_core/rl/*.pxi src/engine_core/rl/*.py src/engine_core/games/*/*.pyx src/engine_core/games/*/*.py)
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip setuptools "Cython>=3.0.10"
	$(PIP) install --quiet -e ./clients/python -e .
	@# an older stich (which had the `stich` command) takes the command with it when replaced
	$(PIP) install --quiet --no-deps --force-reinstall -e ./clients/python
	touch $(SERVE_STAMP)

# the dev extra's requirements, as pyproject.toml lists them
$(STAMP): $(SERVE_STAMP)
	$(PY) -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dev']))" > $(VENV)/dev-requirements.txt
	$(PIP) install --quiet -r $(VENV)/dev-requirements.txt
	touch $(STAMP)

dev: $(STAMP)

# Rebuild the extensions in place after editing .pyx files.
build: $(STAMP)
	$(PIP) install --quiet --no-build-isolation -e ./clients/python -e ".[dev]"

# The main job: gRPC on 127.0.0.1:50051 and the HTTP door (Connect, gRPC-Web, the web page) on
# 127.0.0.1:8080 (STICH_ADDRESS / STICH_HTTP_ADDRESS / STICH_DATA_DIR, or ARGS="--address ...";
# every limit: docs/service.md), with SQLite under ./data (STICH_DATABASE=postgresql://...:
# PostgreSQL, shared by several servers). Only what serving needs is installed (not the dev
# extra). Node.js is needed only to build the page: without it the server starts anyway and its
# banner says how to get the page.
run: $(SERVE_STAMP)
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory web; \
	  else echo "Node.js/npm not found: serving without the web page (install Node.js 18+, then make web)"; fi
	$(PY) -m service $(ARGS)

# The web page (clients/web, bundled by esbuild into clients/web/dist, served at /).
web: clients/web/dist/index.html

clients/web/dist/index.html: clients/package-lock.json $(wildcard clients/web/src/* clients/web/public/* clients/ts/src/*.ts clients/ts/src/gen/*/*/*.ts)
	cd clients && { test node_modules/.package-lock.json -nt package-lock.json || npm ci --no-audit --no-fund --loglevel=error; } && npm run build -w web

# Debian's chromium for the browser test (tests/test_web_page.py), when it is missing, and
# a font for the Urdu page's screenshots.
chromium:
	@test -x /usr/bin/chromium || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	@# the Urdu page's screenshots need a font with its script (the tests pass without it)
	@dpkg -s fonts-noto-core >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-noto-core >/dev/null 2>&1 || \
	  echo "fonts-noto-core not installed: Urdu screenshots will show boxes"

# Seeded Schafkopf deals as sober players bid them (engine_core/demo.py: the normal bot at every
# seat, from its own view), with the itemised scoring.
demo: $(STAMP)
	$(PY) -m engine_core demo --game schafkopf --deals 4 --seed 1

# tests/test_play_tmux.py drives `stich play` in tmux: installed here when missing (as root, or
# with sudo where there is one).
test: $(STAMP) chromium tmux
	$(PY) -m pytest -q -p no:cacheprovider --benchmark-disable

tmux:
	@command -v tmux >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get install -y tmux >/dev/null 2>&1 || \
	  { $$SUDO apt-get update >/dev/null && $$SUDO apt-get install -y tmux >/dev/null; } || \
	  { echo "make test needs tmux (apt-get install -y tmux)"; exit 1; }; }

bench: $(STAMP)
	$(PY) -m pytest -q bench --benchmark-only --benchmark-columns=min,median,ops

# Throughput table, gRPC rows included (a server and a bare grpcio echo started on free loopback
# ports for the run); reference rows: OpenSpiel with `pip install '.[bench]'`, the C yardstick with
# C_REFERENCE=path/to/playout_limit.c (compiled with gcc -O2 into a temporary directory).
bench-report: $(STAMP)
	$(PY) bench/report.py $(if $(C_REFERENCE),--c-reference $(C_REFERENCE)) $(BENCH_ARGS)

evaluate: $(STAMP)
	$(PY) -m engine_core evaluate --legal

# Regenerate the gRPC code from proto/stich/v1 into clients/python/stich_client/gen (committed).
gen: $(STAMP)
	$(PY) tools/gen_proto.py

# buf lint (STANDARD rules) over proto/.
lint: $(STAMP)
	$(VENV)/bin/buf lint

serve: run

# The service's long adversarial runs (tools/adversary.py; docs/service.md gives the figures).
adversary: $(STAMP)
	$(PY) tools/adversary.py $(ADVERSARY_ARGS)

clean:
	rm -rf build dist clients/python/build $(VENV) src/*.egg-info clients/python/*.egg-info
	find src/engine_core \( -name '*.c' -o -name '*.so' -o -name '*.html' \) -delete
