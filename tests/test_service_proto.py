"""The protos: buf lint (STANDARD rules) is clean and the generated code is current."""
from __future__ import annotations

import os
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
    generate = runpy.run_path(str(ROOT / "tools" / "gen_proto.py"))["generate"]
    fresh = {p.relative_to(tmp_path): p.read_bytes() for p in generate(tmp_path)}
    built = ROOT / "src" / "service" / "gen"
    for rel, data in fresh.items():
        assert (built / rel).read_bytes() == data, f"{rel} is stale: run `make gen`"
    assert os.path.exists(built / "stich" / "v1" / "stich_service_pb2_grpc.py")
