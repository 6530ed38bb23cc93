"""Generate the TypeScript code of proto/stich/v1 (and google/rpc/error_details.proto, for the
ErrorInfo detail of every error) into clients/ts/src/gen, where it is committed.

protoc is grpc_tools' (`python -m grpc_tools.protoc`), the plugin is `@bufbuild/protoc-gen-es`
v2 from clients/node_modules (`npm ci` in clients/ first); the messages and the service
descriptor come out as one `*_pb.ts` per proto, no hand-written message types.
`tests/test_ts_client.py` regenerates into a temporary directory and compares.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
CLIENTS = ROOT / "clients"
OUT = CLIENTS / "ts" / "src" / "gen"
PLUGIN = CLIENTS / "node_modules" / ".bin" / "protoc-gen-es"


def googleapis_dir() -> pathlib.Path:
    """The directory holding google/rpc/error_details.proto (googleapis-common-protos)."""
    import google.rpc
    for base in map(pathlib.Path, google.rpc.__path__):
        if (base / "error_details.proto").exists():
            return base.parent.parent
    raise SystemExit("google/rpc/error_details.proto not found (pip install googleapis-common-protos)")


def generate(out_dir: pathlib.Path = OUT) -> list[pathlib.Path]:
    import grpc_tools

    if not PLUGIN.exists():
        raise SystemExit(f"{PLUGIN} is missing: run `npm ci` in {CLIENTS}")
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.rglob("*_pb.ts"):
        old.unlink()
    include = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    files = [str(p.relative_to(PROTO)) for p in sorted(PROTO.glob("stich/v1/*.proto"))]
    cmd = [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO}", f"-I{googleapis_dir()}", f"-I{include}",
           f"--plugin=protoc-gen-es={PLUGIN}", f"--es_out={out}",
           "--es_opt=target=ts,import_extension=js", *files, "google/rpc/error_details.proto"]
    subprocess.run(cmd, check=True)
    return sorted(out.rglob("*_pb.ts"))


if __name__ == "__main__":
    for p in generate():
        print(p.relative_to(ROOT), file=sys.stderr)
