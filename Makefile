# stich: the two commands that matter are `make run` and `make test` (see README).
PYTHON ?= python3.11
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip
STAMP   = $(VENV)/.installed

.PHONY: run test dev build bench bench-report demo evaluate clean gen lint serve

# Create the virtualenv and install stich (building the Cython extensions) with dev extras.
$(STAMP): pyproject.toml setup.py tools/gen_proto.py $(wildcard src/engine_core/*.pyx src/engine_core/*.pxd src/engine_core/*.py proto/stich/v1/*.proto)
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip setuptools "Cython>=3.0.10"
	$(PIP) install --quiet -e ".[dev]"
	touch $(STAMP)

dev: $(STAMP)

# Rebuild the extensions in place after editing .pyx files.
build: $(STAMP)
	$(PIP) install --quiet --no-build-isolation -e ".[dev]"

# The main job: the gRPC server on 127.0.0.1:50051 (STICH_ADDRESS / STICH_DATA_DIR, or
# ARGS="--address ... --data-dir ..."), with an embedded SQLite store under ./data.
run: $(STAMP)
	$(PY) -m service $(ARGS)

# Seeded random Schafkopf deals printed with contract, tricks and itemised scoring.
demo: $(STAMP)
	$(PY) -m engine_core demo --game schafkopf --deals 4 --seed 1

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider --benchmark-disable

bench: $(STAMP)
	$(PY) -m pytest -q bench --benchmark-only --benchmark-columns=min,median,ops

# Throughput table, gRPC rows included (a server and a bare grpcio echo started on free loopback
# ports for the run); reference rows: OpenSpiel with `pip install '.[bench]'`, the C yardstick with
# C_REFERENCE=path/to/playout_limit.c (compiled with gcc -O2 into a temporary directory).
bench-report: $(STAMP)
	$(PY) bench/report.py $(if $(C_REFERENCE),--c-reference $(C_REFERENCE)) $(BENCH_ARGS)

evaluate: $(STAMP)
	$(PY) -m engine_core evaluate --legal

# Regenerate src/service/gen from proto/stich/v1 (the build does this too).
gen: $(STAMP)
	$(PY) tools/gen_proto.py

# buf lint (STANDARD rules) over proto/.
lint: $(STAMP)
	$(VENV)/bin/buf lint

serve: run

clean:
	rm -rf build $(VENV) src/*.egg-info src/engine_core/*.c src/engine_core/*.so src/service/gen
