"""clients/ts: its generated code is what the protos give today, its own tests (Node's test
runner, against a real server the test starts, over the gRPC door and the HTTP door) pass, its
`evaluate` works in Chromium over both browser transports (Connect and gRPC-Web: a browser's
fetch cannot stream a request body, so it is the unary EvaluateBatch), and it is a package a
front-end can depend on: `npm pack` ships the built code, its types and the repository's
licence, and no tests or benches."""
from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

import node_env
from conftest import tool
from service.testing import ServerProcess

gen_ts = tool("gen_ts")
CHROMIUM = "/usr/bin/chromium"
TS = node_env.CLIENTS / "ts"


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


@pytest.mark.skipif(not os.path.exists(CHROMIUM) and shutil.which("apt-get") is None,
                    reason="no chromium and no apt-get to install it")
def test_evaluate_in_chromium_over_connect_and_grpc_web():
    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: make chromium (apt-get install -y chromium)"
    with ServerProcess(None) as server:
        done = node_env.run("exec", "-w", "ts", "--", "node", "test/browser.mjs", timeout=180,
                            env=dict(os.environ, STICH_URL=f"http://{server.http_address}"))
    assert done.returncode == 0, done.stdout[-6000:]
    for transport in ("connect-binary", "connect-json", "grpc-web"):
        assert f"ok over {transport}:" in done.stdout, done.stdout[-3000:]


def test_the_npm_package_ships_code_types_and_licence_only():
    package = json.loads((TS / "package.json").read_text())
    assert package["name"] == "@stich/client" and package["license"] == "MIT"
    assert (TS / "LICENSE").read_text() == (node_env.ROOT / "LICENSE").read_text()
    assert package["scripts"]["prepare"], "built on prepare (a git or workspace install builds it)"
    for entry in (".", "./node", "./web"):
        target = package["exports"][entry]
        assert target["types"].endswith(".d.ts") and target["default"].endswith(".js"), entry
    done = node_env.run("pack", "--dry-run", "--json", "-w", "ts", timeout=180)
    assert done.returncode == 0, done.stdout[-3000:]
    [packed] = json.loads(done.stdout[done.stdout.index("["):])
    files = {f["path"] for f in packed["files"]}
    for entry in (".", "./node", "./web"):
        for kind in ("types", "default"):
            assert package["exports"][entry][kind].removeprefix("./") in files, (entry, kind, sorted(files))
    assert {"LICENSE", "README.md", "package.json"} <= files
    assert not [f for f in files if f.startswith(("test/", "bench/", "dist/test/", "src/"))], sorted(files)
