"""The server's settings: every limit with its flag, its environment variable and its default
(docs/service.md, "Limits"). One dataclass, read once at start."""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, fields

MIB = 1024 * 1024


@dataclass(frozen=True)
class Config:
    address: str = "127.0.0.1:50051"
    data_dir: str | None = "data"          # None: memory only
    database: str = ""                      # postgresql://...: a store several servers share
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
    evaluate_batch_lines: int = 1000        # lines of one EvaluateBatch call
    response_bytes: int = 1 * MIB           # EvaluateRecords answers per response message
    live_tables: int = 10_000               # tables kept in memory (least recently used leave)
    # the HTTP door (Connect, gRPC-Web, the web page); None: --no-http
    http_address: str | None = "127.0.0.1:8080"
    allowed_origins: str = ""               # comma-separated origins besides the page's own; * any
    allowed_hosts: str = ""                 # Host names besides loopback and the bound address; * any
    metrics_from: str = "127.0.0.0/8,::1/128"   # networks that may read /metrics; "": none
    web_dir: str = ""                       # the built page; "": the packaged one, else clients/web/dist
    # the HTTP door's connections (slow or idle clients hold a file descriptor each)
    http_header_timeout: float = 5.0        # seconds a request's head may take to arrive
    http_max_connections_per_peer: int = 128
    http_max_connections: int = 4096        # in all; at most the fd limit less fd_reserve
    fd_reserve: int = 256                   # descriptors kept from HTTP connections: gRPC, the store
    # several servers on one store (PostgreSQL)
    lease_seconds: float = 3.0              # a bot turn's lease: renewed every third of it
    sweep_seconds: float = 1.0              # how often a server looks for bot turns nobody plays
    pool_size: int = 8                      # PostgreSQL connections of the server's pool
    conflict_retries: int = 8               # reloads after another server wrote first
    synchronous_commit: str = ""            # PostgreSQL's, for the server's writes; "": the database's
    workers: int = 1                        # server processes sharing the ports (workers.py)

    @property
    def max_send_bytes(self) -> int:
        """An answer may quote its whole line twice (its id, typed and in `json`)."""
        return 2 * self.max_message_bytes + 2 * self.response_bytes + MIB


HELP = {
    "address": "host:port of the gRPC door (port 0 picks a free one)",
    "http_address": "host:port of the HTTP door: Connect, gRPC-Web and the web page at / (port 0: a free one)",
    "allowed_origins": "comma-separated browser origins allowed to call the HTTP door besides the page's own "
                       "(e.g. http://localhost:5173; * allows any)",
    "allowed_hosts": "comma-separated Host names the HTTP door answers besides loopback names and the address it "
                     "is bound to (e.g. stich.example.org; * any); any other Host is refused (DNS rebinding)",
    "metrics_from": "comma-separated client networks that may read /metrics (e.g. 10.0.0.0/8; \"\": nobody)",
    "web_dir": "directory of the built web page served at / (default: the page packaged in the wheel, else clients/web/dist of the checkout)",
    "http_header_timeout": "seconds a request's head (request line and headers) may take to arrive at the HTTP "
                           "door before the connection is closed",
    "http_max_connections_per_peer": "open HTTP connections of one client address; more are answered 503 and closed",
    "http_max_connections": "open HTTP connections in all (at most the file descriptor limit less --fd-reserve)",
    "fd_reserve": "file descriptors the HTTP door's connections leave free for gRPC, the store and the pools",
    "data_dir": "directory of the SQLite database",
    "database": "postgresql://user@host:port/dbname: store in PostgreSQL, shared by every server given the "
                "same URL (instead of SQLite in --data-dir)",
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
    "evaluate_batch_lines": "records of one EvaluateBatch call (a larger batch: BATCH_TOO_LARGE)",
    "response_bytes": "EvaluateRecords answers per response message, in bytes",
    "live_tables": "tables kept in memory",
    "lease_seconds": "seconds a server holds a table's bot turn (a shared store: PostgreSQL, or SQLite under --workers); renewed every third of it while "
                     "the bot thinks, then another server's sweep takes an expired one",
    "sweep_seconds": "seconds between a server's looks for bot turns whose lease expired (a shared store)",
    "pool_size": "connections of the server's PostgreSQL pool (the LISTEN connection besides)",
    "synchronous_commit": "PostgreSQL's synchronous_commit for the server's writes: on (a commit waits for its "
                          "disk flush: an acknowledged action survives a crash of PostgreSQL's machine), off "
                          "(no flush per commit, as SQLite's synchronous=NORMAL: a killed stich server loses "
                          "nothing, a crash of PostgreSQL may lose its last fraction of a second of actions, "
                          "the database stays consistent), local, remote_write, remote_apply (replicas); "
                          "\"\": as the database is configured",
    "workers": "server processes on this machine sharing the ports and the store, PostgreSQL or the SQLite file (SO_REUSEPORT: "
               "the kernel spreads connections over them); more than 1 cannot use --memory",
    "conflict_retries": "times a request is judged again on the fresh table after another server committed "
                        "first, before it is answered ABORTED (CONFLICT)",
}


INT32 = 2 ** 31 - 1
# the allowed range of every number (worker counts stay within what one machine can run)
RANGES = {
    "grace": (0.0, 3600.0),
    "http_header_timeout": (0.1, 3600.0),
    "http_max_connections_per_peer": (1, INT32),
    "http_max_connections": (1, INT32),
    "fd_reserve": (16, INT32),
    "max_streams_per_peer": (1, INT32),
    "max_evaluate_streams_per_peer": (1, INT32),
    "max_streams": (1, INT32),
    "max_connection_streams": (1, INT32),
    "max_message_bytes": (1024, 256 * MIB),
    "table_threads": (1, 1024),
    "batch_threads": (1, 1024),
    "evaluate_processes": (0, 256),
    "evaluate_slice_lines": (1, 1_000_000),
    "evaluate_batch_lines": (1, 1_000_000),
    "response_bytes": (1024, 256 * MIB),
    "live_tables": (1, INT32),
    "lease_seconds": (0.1, 3600.0),
    "sweep_seconds": (0.05, 3600.0),
    "pool_size": (1, 1024),
    "conflict_retries": (1, 1000),
    "workers": (1, 256),
}


def env_name(name: str) -> str:
    return "STICH_" + name.upper()


class Parser(argparse.ArgumentParser):
    """One-line errors (`python -m service: what is wrong`), exit status 2, no usage block."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def address_arg(text: str) -> str:
    """HOST:PORT with a port 0..65535 ([::1]:PORT for IPv6)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"must be HOST:PORT with a port 0..65535 (0: a free one), got {text[:60]!r}")
    return text


def origins_arg(text: str) -> str:
    """A comma-separated list of origins (scheme://host[:port], no path) or *."""
    for origin in filter(None, (o.strip() for o in text.split(","))):
        if origin != "*" and not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", origin):
            raise argparse.ArgumentTypeError(
                f"must be origins like http://localhost:5173 (scheme://host[:port], no path or slash) "
                f"separated by commas, or *; got {origin[:60]!r}")
    return ",".join(o.strip() for o in text.split(",") if o.strip())


def hosts_arg(text: str) -> str:
    """A comma-separated list of host names or addresses (no scheme, no port), or *."""
    for host in filter(None, (h.strip() for h in text.split(","))):
        if host != "*" and not re.fullmatch(r"[A-Za-z0-9.\-]+|\[?[0-9A-Fa-f:.]+\]?", host):
            raise argparse.ArgumentTypeError(f"must be host names like stich.example.org (no scheme or port) "
                                             f"separated by commas, or *; got {host[:60]!r}")
    return ",".join(h.strip().lower() for h in text.split(",") if h.strip())


def networks_arg(text: str) -> str:
    """A comma-separated list of networks (10.0.0.0/8, ::1/128, a single address), or ""."""
    import ipaddress
    for net in filter(None, (n.strip() for n in text.split(","))):
        try:
            ipaddress.ip_network(net, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be networks like 10.0.0.0/8 or ::1 separated by commas "
                                             f"(\"\": nobody); got {net[:60]!r}") from None
    return ",".join(n.strip() for n in text.split(",") if n.strip())


def database_arg(text: str) -> str:
    """A PostgreSQL URL (postgresql:// or postgres://) that libpq can parse; "" for SQLite."""
    if not text:
        return text
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError("must be a postgresql://user@host:port/dbname URL (SQLite, the "
                                         f"default, needs no URL: --data-dir), got {text[:20]!r}...")
    try:
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:
        raise argparse.ArgumentTypeError("needs psycopg 3: pip install 'stich[postgres]'") from None
    try:
        conninfo_to_dict(text)
    except Exception as err:  # noqa: BLE001 - psycopg.ProgrammingError: a malformed URL
        raise argparse.ArgumentTypeError(f"is not a valid PostgreSQL URL: {str(err).splitlines()[0][:120]}") from None
    return text


SYNCHRONOUS_COMMIT = ("on", "off", "local", "remote_write", "remote_apply")


def synchronous_commit_arg(text: str) -> str:
    """One of PostgreSQL's synchronous_commit levels, or "" (the database's own)."""
    if text not in ("", *SYNCHRONOUS_COMMIT):
        raise argparse.ArgumentTypeError(f"must be one of {', '.join(SYNCHRONOUS_COMMIT)} (or \"\": the "
                                         f"database's setting), got {text[:40]!r}")
    return text


def number_arg(name: str):
    kind = type(RANGES[name][0])
    low, high = RANGES[name]

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value != value or not low <= value <= high:       # value != value: NaN
            what = "a number" if kind is float else "an integer"
            raise argparse.ArgumentTypeError(f"must be {what} {low:g}..{high:g}, got {text[:40]!r}")
        return value
    parse.__name__ = kind.__name__
    return parse


def program_name() -> str:
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "stich-server" if name == "stich-server" else "python -m service"


def parse(argv: list[str] | None = None) -> Config:
    """The Config from flags, else environment variables (STICH_<NAME>), else defaults. A bad
    flag or variable ends the program with one line on stderr and exit status 2."""
    from engine_core import __version__
    defaults = Config()
    parser = Parser(prog=program_name(), description="The stich gRPC server (package stich.v1): tables, bots, "
                    "batch evaluation and simulation, persisted to SQLite (docs/service.md).",
                    epilog="Every flag can also be set by its STICH_* variable; a flag wins. SIGTERM or "
                    "Ctrl-C stops the server gracefully (exit 0).")
    parser.add_argument("--version", action="version", version=f"stich-server {__version__}")
    for f in fields(Config):
        default = getattr(defaults, f.name)
        kind = (address_arg if f.name in ("address", "http_address")
                else origins_arg if f.name == "allowed_origins"
                else hosts_arg if f.name == "allowed_hosts"
                else networks_arg if f.name == "metrics_from"
                else database_arg if f.name == "database"
                else synchronous_commit_arg if f.name == "synchronous_commit"
                else str if f.name in ("data_dir", "web_dir") else number_arg(f.name))
        env = os.environ.get(env_name(f.name))
        if env is not None:
            try:
                default = kind(env)
            except argparse.ArgumentTypeError as err:
                parser.error(f"{env_name(f.name)}: {err}")
        parser.add_argument("--" + f.name.replace("_", "-"), type=kind, default=default,
                            help=f"{HELP[f.name]} (env {env_name(f.name)}; default {getattr(defaults, f.name)})")
    parser.add_argument("--memory", action="store_true", help="keep nothing on disk")
    parser.add_argument("--no-http", action="store_true", help="serve the gRPC door only (no Connect, no page)")
    args = parser.parse_args(argv)
    values = {f.name: getattr(args, f.name) for f in fields(Config)}
    if args.no_http:
        values["http_address"] = None
    elif values["http_address"] == values["address"] and not values["address"].endswith(":0"):
        parser.error(f"--http-address {values['address']} is the gRPC address; the two doors need two ports")
    if args.memory and values["database"]:
        parser.error("--memory and --database exclude each other (the database keeps everything)")
    if values["workers"] > 1 and args.memory:
        parser.error(f"--workers {values['workers']} needs a store the processes share: the memory store (--memory) "
                     "belongs to one process (the workers would hold different tables); use --data-dir (SQLite) "
                     "or --database postgresql://...")
    if args.memory:
        values["data_dir"] = None
    elif not values["data_dir"]:
        parser.error("--data-dir must name a directory (or use --memory)")
    return Config(**values)
