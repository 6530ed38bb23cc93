"""What the tests share beyond the harness package (service.testing): the conformance lines,
the registered games as parameters, the PostgreSQL fixtures, and the scripts of tools/ loaded
as modules. pytest puts tests/ on the path for this file, so test modules import it by name."""
import functools
import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from engine_core import games
from service.testing import ServerProcess, postgres

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = Path(__file__).parent / "conformance"

GAMES = games.available()
"""Every registered game: a generic test parametrised over it covers a new game unasked."""


@pytest.fixture(scope="module")
def server(tmp_path_factory, request):
    """One real server process per test module, on a free loopback port, with its own data
    directory (`server.data_dir`). A module that needs other flags defines its own."""
    path = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    with ServerProcess(path) as srv:
        srv.data_dir = path
        yield srv


@pytest.fixture(scope="module")
def client(server):
    """A blocking stich client of the module's server."""
    from stich_client import StichClient
    with StichClient(server.address, timeout=30) as c:
        yield c


def conformance_lines(game: str, kind: str):
    """The lines of tests/conformance/<game>/<kind>.jsonl; for a game the reference does not
    cover (Sheepshead's seat variants: only own lines), its own lines of that kind."""
    path = CONFORMANCE / game / f"{kind}.jsonl"
    if not path.exists() and not kind.startswith("own-"):
        path = CONFORMANCE / game / f"own-{kind}.jsonl"
        if not path.exists():
            return []
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def conformance_params(games, kind):
    return [pytest.param(game, line, id=f"{game}:{line['id']}")
            for game in games for line in conformance_lines(game, kind)]


def wire(v):
    """A records.md value as it survives the typed protocol: null, empty strings and empty
    lists inside objects are absent (stich.v1 does not tell them apart)."""
    if isinstance(v, dict):
        return {k: wire(x) for k, x in v.items() if x is not None and x != [] and x != ""}
    if isinstance(v, list):
        return [wire(x) for x in v]
    return v


@functools.cache
def tool(name: str):
    """The script tools/<name>.py as a module, for the tests that call its functions at CI
    size: loaded from its file (it stays a script), under its own name, without a path edit."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# ---- PostgreSQL: each test a fresh database (service.testing.postgres) ------------------------------
def pg_unavailable(reason: str):
    """No PostgreSQL for the tests: fail under CI (the suite must run them), else skip."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL needed under CI: {reason}")
    pytest.skip(f"no PostgreSQL: {reason}")


@pytest.fixture(scope="session")
def pg_admin():
    try:
        admin, own = postgres.find_admin()
    except RuntimeError as err:
        pg_unavailable(str(err))
    try:
        yield admin
    finally:
        if own is not None:
            own.stop()


@pytest.fixture
def pg_url(pg_admin):
    with postgres.fresh_database(pg_admin) as url:
        yield url


def without_rule_tables(obj):
    """A view or result without the rules' tables of the whole deck (the card order in force,
    each card's points, a face-down pile's possible cards: RULE_TABLES), which name every card
    but say nowhere where one is: what a test of hidden cards searches."""
    from service.testing.hidden import RULE_TABLES
    if isinstance(obj, dict):
        return {k: without_rule_tables(v) for k, v in obj.items() if k not in RULE_TABLES}
    if isinstance(obj, list):
        return [without_rule_tables(v) for v in obj]
    return obj
