"""clients/ts: its generated code is what the protos give today, and its own tests (Node's test
runner, against a real server the test starts, over the gRPC door and the HTTP door) pass."""
from __future__ import annotations

import os
import sys

import node_env
from conftest import tool

gen_ts = tool("gen_ts")


def test_generated_typescript_is_current(tmp_path):
    node_env.npm_ci()
    fresh = {p.relative_to(tmp_path): p.read_text() for p in gen_ts.generate(tmp_path)}
    committed = {p.relative_to(gen_ts.OUT): p.read_text() for p in sorted(gen_ts.OUT.rglob("*_pb.ts"))}
    assert fresh.keys() == committed.keys(), "run python tools/gen_ts.py"
    for name, text in fresh.items():
        assert text == committed[name], f"{name} is stale: run python tools/gen_ts.py"


def test_typescript_client_suite():
    done = node_env.run("test", "-w", "ts", env=dict(os.environ, STICH_PYTHON=sys.executable))
    assert done.returncode == 0, done.stdout[-6000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout, done.stdout[-3000:]
