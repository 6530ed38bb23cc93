"""buf.gen.yaml, the Swift and Kotlin recipe of docs/web.md: its plugins are the Connect clients
and messages of both platforms, written under gen/ (ignored by git), from proto/ and the
ErrorInfo of googleapis. Its remote plugins need buf.build, so the test runs the template's own
inputs and layout through `buf generate` with the one plugin here offline (protoc-gen-es, from
clients/node_modules) in their place: buf accepts the template and the protos generate."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import node_env
from conftest import tool

ROOT = Path(__file__).resolve().parent.parent
gen_ts = tool("gen_ts")


def template() -> dict:
    return yaml.safe_load((ROOT / "buf.gen.yaml").read_text())


def test_the_template_names_swift_and_kotlin_clients():
    t = template()
    assert t["version"] == "v2"
    remotes = {p["remote"]: p for p in t["plugins"]}
    assert {"buf.build/apple/swift", "buf.build/connectrpc/swift", "buf.build/protocolbuffers/java",
            "buf.build/protocolbuffers/kotlin", "buf.build/connectrpc/kotlin"} <= set(remotes)
    assert all(p["out"].startswith(("gen/swift", "gen/kotlin")) for p in t["plugins"])
    assert "/gen/" in (ROOT / ".gitignore").read_text().split()
    assert {"directory": "proto"} in t["inputs"]
    [apis] = [i for i in t["inputs"] if "module" in i]
    assert apis["paths"] == ["google/rpc/error_details.proto"]
    assert "buf.gen.yaml" in (ROOT / "docs" / "web.md").read_text()


def test_buf_generates_from_the_template_inputs(tmp_path):
    node_env.npm_ci()
    t = template()
    out = tmp_path / "gen"
    # the template's inputs in a copy of the workspace, googleapis' ErrorInfo from the local copy
    # instead of buf.build; the local plugin in place of the remote ones
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    apis = tmp_path / "apis" / "google" / "rpc"
    apis.mkdir(parents=True)
    shutil.copy(gen_ts.googleapis_dir() / "google" / "rpc" / "error_details.proto", apis)
    inputs = [i for i in t["inputs"] if "directory" in i] + [
        {"directory": "apis", "paths": ["apis/" + i["paths"][0] for i in t["inputs"] if "module" in i]}]
    local = {"version": "v2", "clean": True, "inputs": inputs,
             "plugins": [{"local": str(gen_ts.PLUGIN), "out": "gen", "opt": ["target=ts", "import_extension=js"]}]}
    buf = Path(sys.executable).parent / "buf"
    done = subprocess.run([str(buf), "generate", "--template", json.dumps(local)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    made = {p.relative_to(out).as_posix() for p in out.rglob("*_pb.ts")}
    assert {"stich/v1/stich_service_pb.ts", "google/rpc/error_details_pb.ts"} <= made, sorted(made)
    committed = gen_ts.OUT / "stich" / "v1" / "stich_service_pb.ts"
    assert (out / "stich/v1/stich_service_pb.ts").read_text() == committed.read_text()
