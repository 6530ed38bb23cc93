"""What operators see of a running server: one log line per RPC and the Prometheus metrics,
the same for both doors (docs/operations.md).

Log lines go to the logger `stich.service.rpc` (INFO), one per finished call (a stream: when it
ends), as key=value pairs (logfmt) after the usual time and level:

    rpc door=grpc method=Play table=t_AbC code=OK ms=0.84 peer=ipv4:127.0.0.1

plus `reason=<ErrorInfo reason id>` when the call was refused. Only these fields are written,
and `table` only when it has the shape of a table id (`t_...`, which is not secret): never a
seat token, a spectator id, an invite code, a player token, a request field or an error
message (which may name a seat's own cards), so a log can be shared without leaking a hand.

The metrics live in this module's registry (one server per process), served by the HTTP door
at `/metrics`; `stich_open_tables` reads the table managers' in-memory table counts when scraped.
"""
from __future__ import annotations

import asyncio
import logging
import time
import weakref

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram,
                               PlatformCollector, ProcessCollector, disable_created_metrics,
                               generate_latest)
from prometheus_client.core import GaugeMetricFamily

from .ids import TABLE_ID

log = logging.getLogger("stich.service.rpc")
disable_created_metrics()                    # no *_created series: a process has one start time
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)          # process_resident_memory_bytes, open fds, CPU
PlatformCollector(registry=REGISTRY)
CONTENT_TYPE = CONTENT_TYPE_LATEST

# unary calls take 0.1 ms (GetView) to seconds (Analyze, Simulate); a stream's value is its
# lifetime, so the buckets reach a minute
RPC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
BOT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)

RPCS = Counter("stich_rpcs", "Finished stich.v1 calls by door (grpc, http), method and status code",
               ["door", "method", "code"], registry=REGISTRY)
RPC_SECONDS = Histogram("stich_rpc_duration_seconds", "Time from a call's arrival at its door to its "
                        "status (a stream: its lifetime), by door, method and status code",
                        ["door", "method", "code"], buckets=RPC_BUCKETS, registry=REGISTRY)
WATCH_STREAMS = Gauge("stich_watch_streams", "Open WatchTable streams by door", ["door"], registry=REGISTRY)
BOT_SECONDS = Histogram("stich_bot_think_seconds", "Time a bot takes to choose one action (in a table "
                        "thread), by game and level", ["game", "level"], buckets=BOT_BUCKETS,
                        registry=REGISTRY)
HTTP_CONNECTIONS = Gauge("stich_http_connections", "Open connections of the HTTP door", registry=REGISTRY)
HTTP_CLOSED = Counter("stich_http_connections_closed", "HTTP connections the door closed itself, by why: "
                      "per_peer and total (over a cap, answered 503), head_timeout (a request head too slow)",
                      ["why"], registry=REGISTRY)
for _door in ("grpc", "http"):
    WATCH_STREAMS.labels(_door)              # present at 0 before the first stream
for _why in ("per_peer", "total", "head_timeout"):
    HTTP_CLOSED.labels(_why)


class Throttled:
    """A warning that may come in floods (failed accepts, closed connections): written at most
    once per `every` seconds, one line without a traceback, saying how many it stands for."""

    def __init__(self, logger: logging.Logger, every: float = 10.0):
        self.logger = logger
        self.every = every
        self.last = -every
        self.held = 0

    def warn(self, text: str) -> None:
        now = time.monotonic()
        self.held += 1
        if now - self.last < self.every:
            return
        more = f" ({self.held} times since the last such line)" if self.held > 1 else ""
        self.logger.warning("%s%s", text, more)
        self.last, self.held = now, 0


class _OpenTables:
    """`stich_open_tables`: tables held in memory by the live table managers, read at scrape
    time (len of each manager's table cache; nothing is counted twice or kept up to date)."""

    def __init__(self):
        self.managers: weakref.WeakSet = weakref.WeakSet()

    def collect(self):
        yield GaugeMetricFamily("stich_open_tables", "Tables held in memory (in play, watched or "
                                "recently used; finished and unwatched ones leave)",
                                value=sum(len(m.live) for m in list(self.managers)))

    def describe(self):
        return []


_TABLES = _OpenTables()
REGISTRY.register(_TABLES)


def watch_manager(manager) -> None:
    """Count `manager`'s in-memory tables in `stich_open_tables` (for as long as it exists)."""
    _TABLES.managers.add(manager)


def scrape() -> bytes:
    """The metrics in the Prometheus text format."""
    return generate_latest(REGISTRY)


def bot_thought(game: str, level: str, seconds: float) -> None:
    BOT_SECONDS.labels(game, level).observe(seconds)


def table_of(request, response=None) -> str:
    """The table id of a call, if it has one of the shape of a table id: the request's
    `table_id`, else the answer's (CreateTable, JoinTable, GetDailyDeal), else the part of an
    invite code after its dot (which is the table id, not the secret)."""
    for message in (request, response):
        value = getattr(message, "table_id", "")
        if isinstance(value, str) and TABLE_ID.match(value):
            return value
    invite = getattr(request, "invite", "")
    if isinstance(invite, str) and "." in invite:
        value = invite.rsplit(".", 1)[1]
        if TABLE_ID.match(value):
            return value
    return ""


def _value(text: str) -> str:
    """A logfmt value: bare if it is plain, else quoted (peers of IPv6 have colons only, so
    quoting is for the odd unix socket path)."""
    if text and all(c.isalnum() or c in "._:-/[]" for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def finished(door: str, method: str, code: str, started: float, table: str = "", reason: str = "",
             peer: str = "") -> None:
    """Count a finished call and write its one log line. `started`: time.perf_counter() at its
    arrival; `code`: the gRPC status code name (OK, NOT_FOUND, ...).

    The duration is taken now; the counting and the line wait for the event loop's next turn,
    when the answer is on its way: the caller's call ends before they are written, and on the
    wire they cost several times what they cost in a hot loop."""
    seconds = time.perf_counter() - started
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        _record(door, method, code, seconds, table, reason, peer)
    else:
        loop.call_soon(_record, door, method, code, seconds, table, reason, peer)


def _record(door: str, method: str, code: str, seconds: float, table: str, reason: str, peer: str) -> None:
    calls, durations = _series(door, method, code)
    calls.inc()
    durations.observe(seconds)
    if log.isEnabledFor(logging.INFO):
        line = f"rpc door={door} method={method} table={table or '-'} code={code} ms={seconds * 1000:.2f}"
        if reason:
            line += f" reason={_value(reason)}"
        if peer:
            line += f" peer={_value(peer)}"
        # the record made here, not by log.info: the caller is always this line, and finding
        # it walks the stack on every call (a third of the line's cost)
        log.handle(log.makeRecord(log.name, logging.INFO, __file__, _LINE, line, None, None, "_record"))


_LINE = _record.__code__.co_firstlineno
_SERIES: dict[tuple[str, str, str], tuple] = {}


def _series(door: str, method: str, code: str) -> tuple:
    """The call counter and the duration histogram of one (door, method, code). Kept here
    because `labels()` checks and locks on every call; the label values are few (the methods,
    "unknown", the status codes)."""
    key = (door, method, code)
    found = _SERIES.get(key)
    if found is None:
        found = _SERIES[key] = (RPCS.labels(door, method, code), RPC_SECONDS.labels(door, method, code))
    return found
