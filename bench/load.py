"""Load generator for stich servers (docs/operations.md, "Load"): grpc.aio clients on one event
loop, so thousands of tables and streams cost the generator no thread each.

    python bench/load.py play --tables 200 --matches 2000          # 200 tables at once, 2,000 in all
    python bench/load.py play --tables 50 --matches 500 --servers 2
    python bench/load.py play --tables 20 --matches 100 --bots     # 1 human + 3 easy bots a table
    python bench/load.py play --address 127.0.0.1:50051,127.0.0.1:50052 --tables 100 --matches 1000
    python bench/load.py play --tables 64 --matches 640 --servers 2 --database fresh   # 2 servers, one PostgreSQL
    python bench/load.py streams --streams 10000                   # open WatchTable streams on one server
    python bench/load.py stores --tables 1 --matches 20            # Play p50: memory, SQLite, PostgreSQL

`play` keeps `--tables` tables in play at once, `--matches` in all (each a one-deal match),
through the servers round-robin. With every seat human the generator plays all four seats: its
own copy of the engine (same seed, same deal) says whose turn it is and what is legal, so every
call is an action (or the Deal); with `--bots` one human plays against the server's bots and
follows WatchTable between its turns. It reports actions/s, p50/p99 latency of the actions,
error counts by status code and, for servers it started itself, their RSS: the growth per 1,000
finished tables, and whether RSS stayed flat (within ±10%) from the end of warm-up (the first
10% of the matches) to the end, the finished tables having left memory.

`streams` opens `--streams` WatchTable streams on one server (over HTTP/2 connections of 250
streams, at most `--open-concurrency` starting at once: a burst of thousands of new calls loses
some, which end CANCELLED before reaching a handler), each reading its first event, holds them
`--hold` seconds and reports how many stayed open, the server's count of them (/metrics) and
its RSS.

`stores` runs `play` once on each store, in one run, with the same sizes and seeds: one server
in memory, on SQLite, on PostgreSQL with its default disk flush per commit and without it
(`--synchronous-commit off`), and reports each one's figures and the ratios of the Play p50
(PostgreSQL/SQLite, PostgreSQL/memory).

Servers the generator starts itself are `python -m service` children (service.process) on free
loopback ports, with a temporary data directory (SQLite on disk, as deployed; `--memory`: none;
`--database URL`: all of them on that PostgreSQL database, `fresh`: a new database on the test
PostgreSQL, service.testing.postgres, dropped afterwards). On PostgreSQL the figures include the
store's round trips per call (the servers' stich_store_round_trips over the calls: a match's
CreateTable is a transaction of four, every Deal and action one).
The open-file limit is raised to its hard limit first; the children inherit it.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import resource
import sys
import tempfile
import time
import urllib.request
import uuid

import grpc

from engine_core import games
from engine_core.match import Match
from stich_client import convert
from stich_client.gen.stich.v1 import stich_service_pb2 as pb, stich_service_pb2_grpc as pb_grpc, tables_pb2

CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 64 * 2 ** 20), ("grpc.use_local_subchannel_pool", 1)]
STREAMS_PER_CHANNEL = 250          # below the server's --max-connection-streams (1000)
RETRIED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def raise_open_files() -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit (children started later inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory in MiB, from /proc/<pid>/status; 0 for a process that has
    exited (a zombie's status has no memory lines, and a reaped one has no status: a worker's
    short-lived child may end between listing the tree and reading it)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return 0.0
    return 0.0


def process_tree(pid: int) -> list[int]:
    """`pid` and its child processes (a server started with --workers and its workers)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [pid, *(int(p) for p in f.read().split())]
    except OSError:
        return [pid]


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


class Servers:
    """The servers under load: started here (their pids known, so RSS can be read) or given."""

    def __init__(self, addresses: list[str], count: int, memory: bool, extra: tuple[str, ...] = (),
                 database: str = ""):
        self.children = []
        self._dirs = []
        self._exit = contextlib.ExitStack()
        self.database = database
        self.workers = "--workers" in extra
        if addresses:
            self.addresses = addresses
            return
        from service.testing import ServerProcess
        if database == "fresh":
            from service.testing.postgres import find_admin, fresh_database
            admin, own = find_admin()
            if own is not None:
                self._exit.callback(own.stop)
            database = self._exit.enter_context(fresh_database(admin))
        for _ in range(count):
            data = None
            if database:
                extra = (*extra, "--database", database)
            elif not memory:
                self._dirs.append(tempfile.TemporaryDirectory(prefix="stich-load-"))
                data = self._dirs[-1].name
            self.children.append(ServerProcess(data, *extra))
        self.addresses = [c.address for c in self.children]

    def rss(self) -> list[float]:
        """Each started server's RSS (with --workers: its workers' together)."""
        return [sum(rss_mb(p) for p in process_tree(c.proc.pid)) for c in self.children]

    def cpu_seconds(self) -> list[float]:
        """User + system CPU time of each started server (/proc/<pid>/stat; with --workers:
        its workers' together)."""
        out = []
        for c in self.children:
            total = 0.0
            for pid in process_tree(c.proc.pid):
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            out.append(total)
        return out

    def metric(self, index: int, name: str) -> float | None:
        """A sample of a started server's /metrics (the sum over its labels), None if absent."""
        if index >= len(self.children) or not self.children[index].http_address:
            return None
        child = self.children[index]
        try:
            text = urllib.request.urlopen(f"http://{child.http_address}/metrics", timeout=10).read().decode()
        except OSError as err:                   # say what the server said before it went away
            raise RuntimeError(f"server {index} (exit status {child.proc.poll()}) did not answer "
                               f"/metrics: {err}\n{child.output[-6000:]}") from None
        values = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                  if line.startswith(name + "{") or line.startswith(name + " ")]
        return sum(values) if values else None

    def round_trips(self) -> float | None:
        """The started servers' store round trips so far (PostgreSQL only), None elsewhere (and
        with --workers: /metrics is one worker's, whichever the connection lands on)."""
        if not self.database or self.workers:
            return None
        return sum(self.metric(i, "stich_store_round_trips_total") or 0 for i in range(len(self.children)))

    def stop(self) -> list[int | None]:
        codes = [c.stop() for c in self.children]
        for d in self._dirs:
            d.cleanup()
        self._exit.close()
        return codes


class Load:
    """Counters of one run: action latencies, errors by code, finished matches."""

    def __init__(self):
        self.latencies: list[float] = []
        self.by_method: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: collections.Counter = collections.Counter()
        self.calls = 0
        self.finished = 0
        self.abandoned = 0

    async def call(self, method, request, timeout: float, action: bool = True, name: str = ""):
        """One unary call; UNAVAILABLE and DEADLINE_EXCEEDED are retried (the request id makes
        a retried action safe), any other error is counted and raised."""
        for attempt in range(4):
            started = time.perf_counter()
            try:
                answer = await method(request, timeout=timeout)
            except grpc.aio.AioRpcError as err:
                self.errors[err.code().name] += 1
                if err.code() in RETRIED and attempt < 3:
                    await asyncio.sleep(0.05 * 2 ** attempt)
                    continue
                raise
            self.calls += 1
            if action:
                self.latencies.append(time.perf_counter() - started)
                self.by_method[name].append(self.latencies[-1])
            return answer
        raise AssertionError("unreachable")


def choose(rng: random.Random, legal: list[dict]) -> dict:
    """A random legal action, but no "tout" contract (lost at the first trick lost, so a deal
    would rarely be played out): most deals are played to their last card, as people play."""
    plain = [a for a in legal if "tout" not in str(a.get("call", ""))]
    return rng.choice(plain or legal)


def action_request(table_id: str, token: str, action: dict):
    """(stub method name, request) of a records.md action, with a fresh request id."""
    rid = uuid.uuid4().hex
    kind = action["type"]
    if kind == "play":
        return "Play", pb.PlayRequest(table_id=table_id, token=token, card=action["card"], request_id=rid)
    if kind == "bid":
        return "Bid", pb.BidRequest(table_id=table_id, token=token, call=action["call"],
                                    suit=action.get("suit", ""), request_id=rid)
    if kind == "announce":
        return "Announce", pb.AnnounceRequest(table_id=table_id, token=token, call=action["call"], request_id=rid)
    if kind == "exchange":
        return "Exchange", pb.ExchangeRequest(table_id=table_id, token=token, call=action["call"],
                                              cards=list(action.get("cards", [])), request_id=rid)
    raise ValueError(f"unknown action type {kind!r}")


async def humans_table(stub, load: Load, game: str, seed: int, timeout: float) -> None:
    """A one-deal match with every seat played here, from the generator's copy of the engine."""
    rng = random.Random(seed)
    created = await load.call(stub.CreateTable, pb.CreateTableRequest(game=game, deals_per_match=1, seed=seed),
                              timeout, action=False)
    tokens = {s.seat: s.token for s in created.seat_tokens}
    table_id = created.table_id
    match = Match(games.get(game), seed, 0, 1, keep_results=False)
    match.deal()
    await load.call(stub.Deal, pb.DealRequest(table_id=table_id, token=tokens[0], request_id=uuid.uuid4().hex), timeout)
    while not match.current.is_over():
        action = choose(rng, match.current.legal_actions())
        name, request = action_request(table_id, tokens[action["seat"]], action)
        answer = await load.call(getattr(stub, name), request, timeout, name=name)
        match.apply(action)
        if answer.view.version != 2 + len(match.current.actions):
            raise AssertionError(f"table {table_id}: version {answer.view.version} after "
                                 f"{len(match.current.actions)} actions")


async def bots_table(stub, load: Load, game: str, seed: int, timeout: float, level: str = "easy") -> None:
    """A one-deal match of one human (played here) against the server's bots: between its turns
    the human follows WatchTable, as a client does."""
    rng = random.Random(seed)
    kinds = [tables_pb2.SEAT_KIND_HUMAN] + [getattr(tables_pb2, f"SEAT_KIND_BOT_{level.upper()}")] * (
        games.get(game).seats - 1)
    created = await load.call(stub.CreateTable, pb.CreateTableRequest(game=game, deals_per_match=1, seed=seed,
                                                                      seats=kinds), timeout, action=False)
    table_id, token = created.table_id, created.seat_tokens[0].token
    await load.call(stub.Deal, pb.DealRequest(table_id=table_id, token=token, request_id=uuid.uuid4().hex), timeout)
    while True:
        view = convert.view_dict((await load.call(stub.GetView, pb.GetViewRequest(table_id=table_id, token=token),
                                                  timeout, action=False)).view)
        if view["status"] != "in_deal":
            return
        if view["to_act"] == view["seat"]:
            name, request = action_request(table_id, token, choose(rng, view["legal"]))
            await load.call(getattr(stub, name), request, timeout, name=name)
            continue
        stream = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, token=token, from_version=view["version"]),
                                 timeout=60)
        try:
            async for r in stream:
                e = r.event
                if (e.HasField("to_act") and e.to_act == view["seat"]) or e.status != tables_pb2.TABLE_STATUS_IN_DEAL:
                    break
        finally:
            stream.cancel()


async def play(args, servers: Servers) -> dict:
    load = Load()
    # several connections to each server (--workers: the kernel gives each connection to one worker)
    channels = [grpc.aio.insecure_channel(a, options=[*CHANNEL_OPTIONS, ("stich.load.connection", i)])
                for i in range(args.connections) for a in servers.addresses]
    stubs = [pb_grpc.StichServiceStub(ch) for ch in channels]
    before = servers.rss()
    trips_before = servers.round_trips()
    cpu_before = servers.cpu_seconds()
    warm_at = max(1, args.matches // 10)
    warm: dict = {}
    next_index = 0

    async def worker():
        nonlocal next_index
        while next_index < args.matches:
            index = next_index
            next_index += 1
            stub = stubs[index % len(stubs)]                       # round-robin over the servers
            try:
                if args.bots:
                    await bots_table(stub, load, args.game, args.seed + index, args.timeout)
                else:
                    await humans_table(stub, load, args.game, args.seed + index, args.timeout)
                load.finished += 1
            except grpc.aio.AioRpcError:
                load.abandoned += 1
            if load.finished + load.abandoned == warm_at and not warm:
                warm.update(rss=servers.rss(), at=time.perf_counter(), actions=len(load.latencies))

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(min(args.tables, args.matches))))
    seconds = time.perf_counter() - started
    await asyncio.sleep(args.settle)             # let bots' last turns and evictions finish
    after = servers.rss()
    for ch in channels:
        await ch.close()
    lat = sorted(load.latencies)
    out = {"mode": "play", "servers": len(servers.addresses), "started_here": bool(servers.children),
           "game": args.game, "bots": args.bots, "concurrent_tables": min(args.tables, args.matches),
           "matches": args.matches, "finished": load.finished, "abandoned": load.abandoned,
           "seconds": round(seconds, 2), "actions": len(lat), "calls": load.calls,
           "actions_per_s": round(len(lat) / seconds, 1), "calls_per_s": round(load.calls / seconds, 1),
           "p50_ms": round(percentile(lat, 0.50) * 1000, 2), "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
           "play_p50_ms": round(percentile(sorted(load.by_method["Play"]), 0.50) * 1000, 2),
           "errors": dict(load.errors)}
    if servers.children:
        cpu = sum(servers.cpu_seconds()) - sum(cpu_before)
        out["server_cpu_ms_per_call"] = round(1000 * cpu / max(1, load.calls), 3)
    if trips_before is not None:
        out["store_round_trips_per_call"] = round((servers.round_trips() - trips_before) / max(1, load.calls), 3)
    if servers.children:
        out["rss_mb_before"] = [round(x, 1) for x in before]
        out["rss_mb_after"] = [round(x, 1) for x in after]
        per_server = max(1, load.finished / len(servers.children))
        out["rss_growth_mb_per_1000_tables"] = [round((a - b) / per_server * 1000, 2) for a, b in zip(after, before)]
        if warm:
            out["rss_mb_after_warmup"] = [round(x, 1) for x in warm["rss"]]
            change = [(a - w) / w for a, w in zip(after, warm["rss"])]
            out["rss_change_after_warmup_pct"] = [round(100 * c, 1) for c in change]
            out["rss_flat_within_10pct"] = all(abs(c) <= 0.10 for c in change)
        out["open_tables_after"] = [servers.metric(i, "stich_open_tables") for i in range(len(servers.children))]
    return out


# (name, in memory, database, more server flags): PostgreSQL with a disk flush per commit (its
# default) and without one (the durability of SQLite's synchronous=NORMAL; docs/service.md)
STORES = (("memory", True, "", ()), ("sqlite", False, "", ()),
          ("postgres", False, "fresh", ("--synchronous-commit", "on")),
          ("postgres_no_flush", False, "fresh", ("--synchronous-commit", "off")))


def stores(args, extra: tuple[str, ...]) -> dict:
    """`play` on one server in memory, on SQLite and on PostgreSQL, one after the other."""
    out = {"mode": "stores"}
    for store, memory, database, flags in STORES:
        servers = Servers([], 1, memory, (*extra, *flags), database=database)
        try:
            figures = asyncio.run(play(args, servers))
        finally:
            codes = servers.stop()
        out[store] = {**figures, "server_exit_codes": codes}
    for pg in ("postgres", "postgres_no_flush"):
        for key in ("play_p50_ms", "p50_ms"):
            out[f"{key}_{pg}_over_sqlite"] = round(out[pg][key] / out["sqlite"][key], 2)
            out[f"{key}_{pg}_over_memory"] = round(out[pg][key] / out["memory"][key], 2)
    return out


async def hold_streams(spec: dict, release: asyncio.Future, on_open) -> dict:
    """Open spec["streams"] WatchTable streams on spec["address"] (over connections of
    spec["per_connection"] streams), each reading its first event, and tell `on_open` what the
    opening found; once `release` is done, count how many are still open and close them."""
    k = spec["streams"]
    nchannels = max(1, -(-k // spec["per_connection"]))
    # each channel its own connection (a local subchannel pool, and an argument that differs)
    channels = [grpc.aio.insecure_channel(spec["address"], options=CHANNEL_OPTIONS + [("stich.load.channel", i)])
                for i in range(nchannels)]
    stubs = [pb_grpc.StichServiceStub(ch) for ch in channels]
    watched = spec["watched"]
    opened = 0
    closing = False
    errors: collections.Counter = collections.Counter()
    first_event = asyncio.Semaphore(spec["open_concurrency"])
    calls = []

    async def watch(i: int):
        nonlocal opened
        table_id, spectator = watched[i % len(watched)]
        try:
            async with first_event:           # at most open_concurrency calls starting at once
                call = stubs[i % nchannels].WatchTable(pb.WatchTableRequest(table_id=table_id, token=spectator),
                                                      timeout=24 * 3600)
                calls.append(call)
                first = await call.read()
            if first is grpc.aio.EOF:
                errors["EOF"] += 1
                return
            opened += 1
            await call.read()                 # nothing more comes until the stream is ended
            errors["ENDED_EARLY"] += 1
        except grpc.aio.AioRpcError as err:
            if not (closing and err.code() == grpc.StatusCode.CANCELLED):   # not our own cancel
                errors[err.code().name] += 1
        except asyncio.CancelledError:
            pass

    started = time.perf_counter()
    tasks = [asyncio.ensure_future(watch(i)) for i in range(k)]
    while opened + sum(errors.values()) < k and time.perf_counter() - started < spec["timeout"]:
        await asyncio.sleep(0.1)
    on_open({"opened": opened, "seconds_to_open": round(time.perf_counter() - started, 2),
             "connections": nchannels, "errors": dict(errors)})
    await release
    still_open = sum(1 for t in tasks if not t.done())
    closing = True
    for call in calls:
        call.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for ch in channels:
        await ch.close()
    return {"still_open": still_open, "errors": dict(errors), "rss_mb": round(rss_mb(os.getpid()), 1)}


async def streams(args, servers: Servers) -> dict:
    address = servers.addresses[0]
    k = args.streams
    setup = Load()
    channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
    stub = pb_grpc.StichServiceStub(channel)
    watched = []
    for i in range(max(1, k // args.watchers_per_table)):
        created = await setup.call(stub.CreateTable, pb.CreateTableRequest(game=args.game, deals_per_match=1,
                                                                           seed=args.seed + i),
                                   args.timeout, action=False)
        watched.append((created.table_id, created.spectator_id))
    await channel.close()
    rss_before = servers.rss()
    spec = {"address": address, "streams": k, "watched": watched, "per_connection": args.per_connection,
            "open_concurrency": args.open_concurrency, "timeout": args.timeout + k / 50}
    release = asyncio.get_running_loop().create_future()
    sample: dict = {}

    def on_open(first: dict) -> None:
        async def hold():
            cpu = servers.cpu_seconds()
            await asyncio.sleep(args.hold)
            sample.update(count=servers.metric(0, "stich_watch_streams"), rss=servers.rss(),
                          cpu=[(b - a) / args.hold for a, b in zip(cpu, servers.cpu_seconds())])
            release.set_result(None)
        sample["first"] = first
        asyncio.ensure_future(hold())

    last = await hold_streams(spec, release, on_open)
    closed_at = time.perf_counter()
    while servers.children and servers.metric(0, "stich_watch_streams") and time.perf_counter() - closed_at < 60:
        await asyncio.sleep(0.5)              # the server ends its handlers of the cancelled streams
    first = sample["first"]
    out = {"mode": "streams", "streams": k, "tables": len(watched), "connections": first["connections"],
           "opened": first["opened"], "seconds_to_open": first["seconds_to_open"], "held_s": args.hold,
           "still_open_after_hold": last["still_open"], "server_counts_open": sample["count"],
           "errors": last["errors"], "generator_rss_mb": last["rss_mb"]}
    opened = first["opened"]
    rss_open = sample["rss"]
    if servers.children:
        rss_after = servers.rss()
        out.update(rss_mb_before=round(rss_before[0], 1), rss_mb_open=round(rss_open[0], 1),
                   rss_mb_after_close=round(rss_after[0], 1),
                   rss_kb_per_stream=round((rss_open[0] - rss_before[0]) * 1024 / max(1, opened), 2),
                   server_cpu_while_held_pct=round(100 * sample["cpu"][0], 1),
                   server_counts_after_close=servers.metric(0, "stich_watch_streams"),
                   seconds_to_close=round(time.perf_counter() - closed_at, 2))
    return out


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/load.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for name in ("play", "streams", "stores"):
        p = sub.add_parser(name)
        p.add_argument("--address", default="", help="comma-separated host:port of running servers "
                       "(default: start --servers children here)")
        p.add_argument("--servers", type=int, default=1, help="servers to start when no --address")
        p.add_argument("--memory", action="store_true", help="started servers keep nothing on disk")
        p.add_argument("--game", default="schafkopf")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--timeout", type=float, default=30.0, help="deadline of each call, seconds")
        p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
        p.add_argument("--workers", type=int, default=1, help="started servers run this many worker "
                       "processes each (--workers of the server; on SQLite or --database, not --memory)")
        p.add_argument("--database", default="", help="started servers share this PostgreSQL database "
                       "(a URL, or `fresh`: a new one on the test PostgreSQL, dropped afterwards)")
        if name in ("play", "stores"):
            p.add_argument("--tables", type=int, default=200, help="tables in play at once")
            p.add_argument("--matches", type=int, default=2000, help="one-deal matches to finish in all")
            p.add_argument("--bots", action="store_true", help="one human and three easy bots a table")
            p.add_argument("--connections", type=int, default=8, help="connections to each server (the "
                           "tables use them in turn; with --workers each lands on one worker)")
            p.add_argument("--settle", type=float, default=1.0, help="seconds before the final RSS")
        else:
            p.add_argument("--streams", type=int, default=10_000)
            p.add_argument("--watchers-per-table", type=int, default=100)
            p.add_argument("--hold", type=float, default=10.0, help="seconds the streams stay open")
            p.add_argument("--open-concurrency", type=int, default=100, help="streams starting at once")
            p.add_argument("--per-connection", type=int, default=STREAMS_PER_CHANNEL,
                           help="streams per HTTP/2 connection (the server allows --max-connection-streams)")
    args = parser.parse_args(argv)
    for name in ("tables", "matches", "streams", "servers", "watchers_per_table", "open_concurrency",
                 "per_connection", "workers", "connections"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    nofile = raise_open_files()
    extra: tuple[str, ...] = ("--workers", str(args.workers)) if args.workers > 1 else ()
    if args.mode == "streams":                  # room for every stream of this one peer
        limit = str(args.streams + 100)
        extra = (*extra, "--max-streams-per-peer", limit, "--max-streams", limit)
    addresses = [a.strip() for a in args.address.split(",") if a.strip()]
    if args.mode == "stores":
        out, codes = stores(args, extra), []
    else:
        servers = Servers(addresses, args.servers, args.memory, extra, args.database)
        try:
            out = asyncio.run(play(args, servers) if args.mode == "play" else streams(args, servers))
        finally:
            codes = servers.stop()
    out["open_file_limit"] = nofile[0]
    if codes:
        out["server_exit_codes"] = codes
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:34} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
