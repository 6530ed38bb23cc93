"""Write docs/rpc.md, the RPC reference, from proto/stich/v1 and its comments: the proto files
are the one place the protocol and its documentation are written.

    python tools/gen_rpc_docs.py          # rewrite docs/rpc.md
    python tools/gen_rpc_docs.py --check  # exit 1 if docs/rpc.md is stale (the tests do this)

protoc (grpcio-tools, a dev dependency) parses the files with their comments
(--include_source_info); the page lists the service's RPCs, then every message and enum of
each file in the order written, each field with its type and comment.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
OUT = ROOT / "docs" / "rpc.md"
PACKAGE = "stich.v1"

HEAD = """# RPC reference: `stich.v1`

The gRPC protocol of the stich server, every RPC, message, field and enum with its comment. How
to run the server, its limits, idempotency, persistence and the hidden-information rule are in
[service.md](service.md); every error reason in [errors.md](errors.md); the JSON strings inside
the messages (cards, calls, options, records) in [records.md](records.md).

This file is generated from the comments of `proto/stich/v1/*.proto` by
`python tools/gen_rpc_docs.py`; edit the protos, not this page.
"""

SCALARS = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32",
           8: "bool", 9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64",
           17: "sint32", 18: "sint64"}
MESSAGE, ENUM, SERVICE = 4, 5, 6            # FileDescriptorProto field numbers
FIELD, NESTED, ENUM_VALUE, METHOD = 2, 3, 2, 2


def descriptors():
    """The FileDescriptorSet of proto/stich/v1 with source info (comments)."""
    import grpc_tools
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    include = Path(grpc_tools.__file__).parent / "_proto"
    files = sorted(PROTO.glob("stich/v1/*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.pb"
        args = ["grpc_tools.protoc", f"-I{PROTO}", f"-I{include}", "--include_source_info",
                f"--descriptor_set_out={out}", *map(str, files)]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed on " + " ".join(map(str, files)))
        fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    return fds


def comments(file) -> dict[tuple[int, ...], str]:
    """Leading comment of each element path: its paragraphs (blank comment lines between
    them) as lines of text."""
    found = {}
    for loc in file.source_code_info.location:
        text = loc.leading_comments.strip()
        if text:
            paragraphs = [" ".join(line.strip() for line in block.splitlines())
                          for block in "\n".join(line.strip() for line in text.splitlines()).split("\n\n")]
            found[tuple(loc.path)] = "\n\n".join(p for p in paragraphs if p)
    return found


def short(type_name: str) -> str:
    """`.stich.v1.Action` -> `Action`, `.google.protobuf.Struct` -> `google.protobuf.Struct`."""
    name = type_name.lstrip(".")
    return name[len(PACKAGE) + 1:] if name.startswith(PACKAGE + ".") else name


def link(type_name: str, local: set[str]) -> str:
    name = short(type_name)
    return f"[`{name}`](#{name.lower()})" if name in local else f"`{name}`"


def field_type(field, local: set[str], maps: dict[str, tuple[str, str]]) -> str:
    if field.type_name:
        name = short(field.type_name)
        if name in maps:                                # map<K, V> is a repeated nested entry
            k, v = maps[name]
            return f"map<{k}, {v}>"
        kind = link(field.type_name, local)
    else:
        kind = f"`{SCALARS[field.type]}`"
    if field.label == 3:
        return f"repeated {kind}"
    if field.proto3_optional:
        return f"optional {kind}"
    return kind


def cell(text: str) -> str:
    """A comment in a table cell: one line."""
    return text.replace("\n\n", " ").replace("|", "\\|") or " "


def render(fds=None) -> str:
    fds = fds or descriptors()
    files = [f for f in fds.file if f.package == PACKAGE]
    local = {m.name for f in files for m in f.message_type} | {e.name for f in files for e in f.enum_type}
    parts = [HEAD]
    for f in files:
        notes = comments(f)
        for si, service in enumerate(f.service):
            parts += [f"## Service `{PACKAGE}.{service.name}`\n", notes.get((SERVICE, si), ""), "",
                      "| RPC | request | response | what it does |", "|---|---|---|---|"]
            for mi, m in enumerate(service.method):
                req = ("stream " if m.client_streaming else "") + link(m.input_type, local)
                resp = ("stream " if m.server_streaming else "") + link(m.output_type, local)
                parts.append(f"| `{m.name}` | {req} | {resp} | {cell(notes.get((SERVICE, si, METHOD, mi), ''))} |")
            parts.append("")
    for f in files:
        notes = comments(f)
        parts.append(f"## `{f.name}`\n")
        for ei, enum in enumerate(f.enum_type):
            parts += [f"### {enum.name}\n", notes.get((ENUM, ei), ""), "", "| value | number | meaning |",
                      "|---|---|---|"]
            for vi, v in enumerate(enum.value):
                parts.append(f"| `{v.name}` | {v.number} | {cell(notes.get((ENUM, ei, ENUM_VALUE, vi), ''))} |")
            parts.append("")
        for mi, msg in enumerate(f.message_type):
            maps = {f"{msg.name}.{n.name}": (SCALARS.get(n.field[0].type, short(n.field[0].type_name)),
                                             SCALARS.get(n.field[1].type) or short(n.field[1].type_name))
                    for n in msg.nested_type if n.options.map_entry}
            parts += [f"### {msg.name}\n", notes.get((MESSAGE, mi), "")]
            if msg.field:
                oneofs = {i: o.name for i, o in enumerate(msg.oneof_decl)
                          if not any(fl.proto3_optional and fl.oneof_index == i for fl in msg.field)}
                parts += ["", "| field | number | type | meaning |", "|---|---|---|---|"]
                for fi, fl in enumerate(msg.field):
                    text = notes.get((MESSAGE, mi, FIELD, fi), "")
                    if fl.HasField("oneof_index") and fl.oneof_index in oneofs:
                        text = f"(one of `{oneofs[fl.oneof_index]}`) {text}"
                    parts.append(f"| `{fl.name}` | {fl.number} | {field_type(fl, local, maps)} | {cell(text)} |")
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/gen_rpc_docs.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
