"""The protos: buf lint (STANDARD rules) is clean and the generated code committed in the
client package is what the protos generate (the generator's version lines aside)."""
from __future__ import annotations

import pathlib
import runpy
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _buf() -> str | None:
    local = pathlib.Path(sys.prefix) / "bin" / "buf"
    return str(local) if local.exists() else shutil.which("buf")


def test_buf_lint_standard():
    buf = _buf()
    if buf is None:
        pytest.skip("buf (buf-bin from the dev extras) is not installed")
    run = subprocess.run([buf, "lint"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_generated_code_is_current(tmp_path):
    pytest.importorskip("grpc_tools")
    gen = runpy.run_path(str(ROOT / "tools" / "gen_proto.py"))
    fresh = {p.relative_to(tmp_path): p.read_text() for p in gen["generate"](tmp_path)}
    committed = ROOT / "clients" / "python" / "stich_client" / "gen"
    assert {p.relative_to(committed) for p in committed.rglob("*") if p.is_file() and "__pycache__" not in p.parts} \
        == set(fresh)
    for rel, text in fresh.items():
        assert gen["comparable"]((committed / rel).read_text()) == gen["comparable"](text), \
            f"{rel} is stale: run `make gen`"
