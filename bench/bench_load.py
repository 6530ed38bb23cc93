"""Smoke test of bench/load.py (the load generator of docs/operations.md): tiny sizes through
servers it starts itself, every figure present and sane; timings are not asserted. `make
bench` skips this (it has no benchmark fixture)."""
import importlib.util
import json
from pathlib import Path


def _load_module():
    spec = importlib.util.spec_from_file_location("stich_bench_load", Path(__file__).with_name("load.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _postgres_or_skip() -> None:
    """Skip unless a PostgreSQL answers (the benches start their own fresh databases on it)."""
    import pytest
    from service.testing.postgres import find_admin
    try:
        _, own = find_admin()
    except RuntimeError as err:
        pytest.skip(f"no PostgreSQL: {err}")
    if own is not None:
        own.stop()


def _run(capsys, argv):
    assert _load_module().main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def bench_load_plays_every_seat_through_two_servers(capsys):
    out = _run(capsys, ["play", "--tables", "4", "--matches", "8", "--servers", "2", "--settle", "0.2"])
    assert out["finished"] == 8 and out["abandoned"] == 0 and out["errors"] == {}
    assert out["actions"] >= 8 * 4 and out["p50_ms"] <= out["p99_ms"]
    assert len(out["rss_mb_after"]) == 2 and all(x > 0 for x in out["rss_mb_after"])
    assert out["open_tables_after"] == [0.0, 0.0]        # finished and unwatched: evicted
    assert out["server_exit_codes"] == [0, 0]


def bench_load_plays_against_bots(capsys):
    out = _run(capsys, ["play", "--tables", "2", "--matches", "3", "--bots", "--memory", "--settle", "0.2"])
    assert out["finished"] == 3 and out["errors"] == {} and out["actions"] >= 3


def bench_load_holds_watch_streams(capsys):
    out = _run(capsys, ["streams", "--streams", "60", "--watchers-per-table", "20", "--hold", "0.5", "--memory"])
    assert out["opened"] == 60 and out["still_open_after_hold"] == 60 and out["errors"] == {}
    assert out["server_counts_open"] == 60 and out["server_counts_after_close"] == 0
    assert out["server_exit_codes"] == [0]


def bench_load_counts_the_round_trips_on_postgres(capsys):
    _postgres_or_skip()
    out = _run(capsys, ["play", "--tables", "4", "--matches", "8", "--database", "fresh", "--settle", "0.2"])
    assert out["finished"] == 8 and out["errors"] == {} and out["server_exit_codes"] == [0]
    # a match: its CreateTable a transaction (four round trips), its Deal and every action one;
    # besides them only the bots' sweep, once a second
    assert 1.0 < out["store_round_trips_per_call"] <= 1.2, out


def bench_load_two_workers_on_one_sqlite_file(capsys):
    out = _run(capsys, ["play", "--tables", "4", "--matches", "8", "--workers", "2", "--settle", "0.2"])
    assert out["finished"] == 8 and out["abandoned"] == 0 and out["errors"] == {}
    assert out["server_exit_codes"] == [0]


def bench_pg_writes_measures_every_row(capsys):
    """bench/pg_writes.py at a tiny size: one table and all tables, flush on and off."""
    _postgres_or_skip()
    spec = importlib.util.spec_from_file_location("stich_bench_pg_writes", Path(__file__).with_name("pg_writes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--seconds", "0.2", "--tables", "3", "--procs", "2", "--pool", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["synchronous_commit"], r["tables"]) for r in rows] == [("on", 1), ("on", 3), ("off", 1), ("off", 3)]
    assert all(r["commits_per_s"] > 0 and r["commit_p50_ms"] <= r["commit_p99_ms"] for r in rows)
