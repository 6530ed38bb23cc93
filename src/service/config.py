"""The server's settings: every limit with its flag, its environment variable and its default
(docs/service.md, "Limits"). One dataclass, read once at start."""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, fields

MIB = 1024 * 1024


@dataclass(frozen=True)
class Config:
    address: str = "127.0.0.1:50051"
    data_dir: str | None = "data"          # None: memory only
    grace: float = 10.0
    # per-peer and total limits on open streams (WatchTable, EvaluateRecords)
    max_streams_per_peer: int = 1000
    max_evaluate_streams_per_peer: int = 64
    max_streams: int = 10_000
    max_connection_streams: int = 1000      # HTTP/2 concurrent streams on one connection
    max_message_bytes: int = 4 * MIB        # largest request message
    # work off the event loop
    table_threads: int = 4                  # table jobs: bot turns, restoring a table
    batch_threads: int = 2                  # Simulate slices (GIL-free playouts)
    evaluate_processes: int = 2             # EvaluateRecords slices; 0: threads instead
    evaluate_slice_lines: int = 256         # lines per slice of work
    response_bytes: int = 1 * MIB           # EvaluateRecords answers per response message
    live_tables: int = 10_000               # tables kept in memory (least recently used leave)

    @property
    def max_send_bytes(self) -> int:
        """An answer may quote its whole line twice (its id, typed and in `json`)."""
        return 2 * self.max_message_bytes + 2 * self.response_bytes + MIB


HELP = {
    "address": "host:port to listen on (port 0 picks a free one)",
    "data_dir": "directory of the SQLite database",
    "grace": "seconds in-flight calls get at shutdown",
    "max_streams_per_peer": "open WatchTable/EvaluateRecords streams per peer address",
    "max_evaluate_streams_per_peer": "open EvaluateRecords streams per peer address",
    "max_streams": "open streams in all",
    "max_connection_streams": "concurrent HTTP/2 streams on one connection",
    "max_message_bytes": "largest request message in bytes",
    "table_threads": "threads for table work (bot turns, restoring tables)",
    "batch_threads": "threads for Simulate",
    "evaluate_processes": "worker processes for EvaluateRecords (0: use threads)",
    "evaluate_slice_lines": "records per unit of EvaluateRecords work",
    "response_bytes": "EvaluateRecords answers per response message, in bytes",
    "live_tables": "tables kept in memory",
}


def env_name(name: str) -> str:
    return "STICH_" + name.upper()


def parse(argv: list[str] | None = None) -> Config:
    """The Config from flags, else environment variables (STICH_<NAME>), else defaults."""
    defaults = Config()
    parser = argparse.ArgumentParser(prog="python -m service", description="the stich gRPC server")
    for f in fields(Config):
        default = getattr(defaults, f.name)
        env = os.environ.get(env_name(f.name))
        kind = float if f.name == "grace" else (str if f.name in ("address", "data_dir") else int)
        if env is not None:
            default = kind(env)
        parser.add_argument("--" + f.name.replace("_", "-"), type=kind, default=default,
                            help=f"{HELP[f.name]} (env {env_name(f.name)}; default {getattr(defaults, f.name)})")
    parser.add_argument("--memory", action="store_true", help="keep nothing on disk")
    args = parser.parse_args(argv)
    values = {f.name: getattr(args, f.name) for f in fields(Config)}
    if args.memory:
        values["data_dir"] = None
    for name in ("max_streams_per_peer", "max_evaluate_streams_per_peer", "max_streams",
                 "max_connection_streams", "table_threads", "batch_threads", "evaluate_slice_lines",
                 "live_tables"):
        if values[name] < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if values["evaluate_processes"] < 0:
        parser.error("--evaluate-processes must be at least 0")
    if not 1024 <= values["max_message_bytes"] <= 256 * MIB:
        parser.error("--max-message-bytes must be 1024..268435456")
    if values["response_bytes"] < 1024:
        parser.error("--response-bytes must be at least 1024")
    return Config(**values)
