"""Where several servers on PostgreSQL stop scaling: the commits per second PostgreSQL takes
through the store's own commit statement (service.pgstore.PostgresStore.commit, the one
statement an action costs), with no server in front of it (docs/operations.md, "Several
servers").

- one table: a table's actions follow one another (each commit names the version before it),
  so one table's ceiling is one commit's round trip, whatever the number of servers;
- in all: `--tables` tables committed at once, each table by its own task, split over
  `--procs` client processes (each with a pool of `--pool` connections, as servers would be):
  the database's ceiling, which bounds all servers together (one Python client process tops
  out first, so give it as many processes as the machine has cores to spare).

Each with PostgreSQL's flush per commit (`synchronous_commit` on, the default) and without
(off). The database is a fresh one on the test PostgreSQL (service.testing.postgres), dropped
at the end.

    .venv/bin/python bench/pg_writes.py [--seconds 3] [--tables 64] [--pool 16]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import time

from service.pgstore import PostgresStore
from service.store import Commit
from service.testing.postgres import find_admin, fresh_database

ACTION = {"seat": 0, "type": "play", "card": "AS"}


async def _table_loop(store: PostgresStore, table_id: str, until: float, latencies: list[float]) -> int:
    """Commit one action after another to one table until `until`; the commits made."""
    await store.create_table(table_id, {"bench": True})
    version, done = 1, 0
    while time.perf_counter() < until:
        t0 = time.perf_counter()
        await store.commit(table_id, Commit(version, [(version + 1, 1, ACTION)]))
        latencies.append(time.perf_counter() - t0)
        version += 1
        done += 1
    return done


async def measure(url: str, tables: int, pool: int, seconds: float, sync: str, run: int) -> dict:
    store = PostgresStore(url, f"bench{run}", pool_size=pool, synchronous_commit=sync)
    await store.open()
    try:
        latencies: list[float] = []
        until = time.perf_counter() + seconds
        started = time.perf_counter()
        counts = await asyncio.gather(*(_table_loop(store, f"t_{run}_{sync}_{k}", until, latencies)
                                        for k in range(tables)))
        spent = time.perf_counter() - started
    finally:
        await store.close()
    latencies.sort()
    return {"tables": tables, "synchronous_commit": sync, "commits_per_s": round(sum(counts) / spent, 1),
            "per_table_per_s": round(sum(counts) / spent / tables, 1),
            "commit_p50_ms": round(1000 * statistics.median(latencies), 3),
            "commit_p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 3)}


def _process(job: tuple, out) -> None:
    url, tables, pool, seconds, sync, run = job
    out.put(asyncio.run(measure(url, tables, pool, seconds, sync, run)))


def measure_all(url: str, tables: int, procs: int, pool: int, seconds: float, sync: str, run: int) -> dict:
    """`tables` tables over `procs` processes, started together; their commits added up."""
    procs = max(1, min(procs, tables))
    shares = [tables // procs + (k < tables % procs) for k in range(procs)]
    ctx = multiprocessing.get_context("fork")      # before any event loop of this process
    out = ctx.Queue()
    children = [ctx.Process(target=_process, args=((url, n, pool, seconds, sync, run * 100 + k), out))
                for k, n in enumerate(shares)]
    for c in children:
        c.start()
    parts = [out.get(timeout=seconds + 120) for _ in children]
    for c in children:
        c.join()
    return {"tables": tables, "procs": procs, "synchronous_commit": sync,
            "commits_per_s": round(sum(p["commits_per_s"] for p in parts), 1),
            "per_table_per_s": round(sum(p["commits_per_s"] for p in parts) / tables, 1),
            "commit_p50_ms": round(statistics.median(p["commit_p50_ms"] for p in parts), 3),
            "commit_p99_ms": max(p["commit_p99_ms"] for p in parts)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    p.add_argument("--tables", type=int, default=64, help="tables committed at once for the 'in all' rows")
    p.add_argument("--pool", type=int, default=16, help="connections of each client process's pool")
    p.add_argument("--procs", type=int, default=2, help="client processes for the 'in all' rows")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    admin, own = find_admin()
    rows = []
    try:
        with fresh_database(admin, "stich_bench_") as url:
            for run, (sync, tables) in enumerate((("on", 1), ("on", args.tables), ("off", 1), ("off", args.tables))):
                procs = 1 if tables == 1 else args.procs
                rows.append(measure_all(url, tables, procs, args.pool, args.seconds, sync, run))
    finally:
        if own is not None:
            own.stop()
    if args.json:
        print(json.dumps(rows))
    else:
        print("| synchronous_commit | tables at once | client processes | commits/s in all | per table | commit p50 ms | p99 ms |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['synchronous_commit']} | {r['tables']} | {r['procs']} | {r['commits_per_s']:,} | {r['per_table_per_s']:,} "
                  f"| {r['commit_p50_ms']} | {r['commit_p99_ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
