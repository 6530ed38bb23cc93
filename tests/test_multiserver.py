"""Several servers, one truth, with real processes (tools/faults.py at CI size; the long run is
`python tools/faults.py --servers 3 --kills 100`): three servers on one fresh PostgreSQL
database, clients playing all-human and human+bots tables through all of them, a random
server SIGKILLed and restarted again and again; two clients racing one turn through two
servers; one SQLite server killed and restarted. Bounded: each run stops killing after its
kills or its time limit, and the whole file takes about a minute on two cores."""
from __future__ import annotations

import random
import time

import grpc

import pytest

from conftest import tool

faults = tool("faults")

pytestmark = pytest.mark.multiserver
MUST_BE_ZERO = ("lost", "diverged", "double_accepts", "unfinished", "stale_reads", "refused",
                "client_failures", "race_bad")


def _clean(figures: dict, problems: list[str]) -> None:
    assert not problems, problems[:10]
    assert {k: figures.get(k, 0) for k in MUST_BE_ZERO} == dict.fromkeys(MUST_BE_ZERO, 0), figures


def test_three_servers_one_database_under_sigkill(pg_url):
    started = time.monotonic()
    figures, problems = faults.run(servers=3, tables=6, kills=8, seed=11, time_limit=60, database=pg_url,
                                   races=0, log=lambda _: None)
    _clean(figures, problems)
    assert figures["kills"] == 8 and figures["acknowledged"] > 100
    assert figures["tables_checked"] == figures["tables_played"] >= 6
    assert figures["bot_tables_finished"] == figures["bot_tables"] >= 3     # bots resumed after kills
    assert figures["calls_resent"] >= 1                 # some request was in flight at a kill
    assert time.monotonic() - started < 150


def test_two_clients_racing_one_turn_through_two_servers(pg_url):
    figures = faults.Figures()
    cluster = faults.Cluster(2, pg_url)
    try:
        faults.race(cluster, 50, random.Random(5), figures)
    finally:
        cluster.close()
    assert dict(figures) == {"race_rounds": 50, "race_one_winner": 50}, figures


def test_one_sqlite_server_under_sigkill(tmp_path):
    figures, problems = faults.run(servers=1, tables=4, kills=5, seed=12, time_limit=40, data_dir=str(tmp_path),
                                   races=0, log=lambda _: None)
    _clean(figures, problems)
    assert figures["kills"] == 5 and figures["acknowledged"] > 50
    assert figures["tables_checked"] == figures["tables_played"] and figures["bot_tables_finished"] >= 1


def _two_workers_play_a_match(data_dir: str | None, store_args: list[str]) -> None:
    """--workers 2: two processes on one address (gRPC and HTTP) and one store; a match played
    with every call on a new connection lands on both, reads never go back, and SIGTERM stops
    both (exit 0)."""
    import re
    import urllib.request

    from service.testing import ServerProcess, wait_until
    from stich_client import StichClient

    with ServerProcess(data_dir, *store_args, "--workers", "2", "--evaluate-processes", "0") as srv:
        assert wait_until(lambda: srv.output.count(f"listening on {srv.address}") == 2, 60), srv.output
        assert urllib.request.urlopen(f"http://{srv.http_address}/metrics", timeout=10).status == 200
        with StichClient(srv.address) as c:
            t = c.create_table("schafkopf", {}, 1, seed=4)
        rng = random.Random(4)
        seen = 1

        def connect():
            """A client on a connection of its own: gRPC shares a connection among channels to
            the same address (its global subchannel pool), which would send every call to the
            worker that accepted the first one while that connection lives."""
            from stich_client.client import channel_options
            options = channel_options(3) + [("grpc.use_local_subchannel_pool", 1)]
            return StichClient(srv.address, channel=grpc.insecure_channel(srv.address, options=options))

        for _ in range(200):
            with connect() as c:                                # a new connection: either worker
                v = c.view(t.table_id, t.spectator_id)
            assert v["version"] >= seen, (v["version"], seen)
            seen = v["version"]
            if v["status"] == "match_over":
                break
            with connect() as c:
                if v["status"] == "waiting_for_deal":
                    seen = c.deal(t.table_id, t.tokens[0], v["version"])["version"]
                    continue
                token = t.tokens[v["to_act"]]
                legal = c.view(t.table_id, token)["legal"]
                seen = c.act(t.table_id, token, rng.choice(legal), expected_version=v["version"])["version"]
        assert v["status"] == "match_over"
        # The kernel spreads connections over the two listeners by a hash of the source port, so
        # which worker answers which write is chance; that both answered calls on this table is not
        # (each read the table the other wrote, and the version check above held across them).
        served = {w for w in ("0", "1") if re.search(rf"worker={w} rpc door=grpc method=\w+ table={t.table_id} ",
                                                     srv.output)}
        assert served == {"0", "1"}, srv.output[-2000:]
        # a table with bots: whichever worker takes the person's card, the bots' turns are played
        # (by the worker holding the table's lease) and both workers see the deal end
        with StichClient(srv.address) as c:
            b = c.create_table("schafkopf", {}, 1, seats=["human", "bot:easy", "bot:easy", "bot:easy"], seed=5)
        for _ in range(200):
            with StichClient(srv.address) as c:
                v = c.view(b.table_id, b.tokens[0])
            if v["status"] == "match_over":
                break
            if v["status"] == "waiting_for_deal":
                with StichClient(srv.address) as c:
                    c.deal(b.table_id, b.tokens[0], v["version"])
            elif v.get("legal"):
                with StichClient(srv.address) as c:
                    c.act(b.table_id, b.tokens[0], v["legal"][0], expected_version=v["version"])
            else:
                time.sleep(0.05)
        assert v["status"] == "match_over", v["status"]
        assert srv.stop() == 0


def test_two_workers_share_the_ports_and_the_tables(pg_url):
    _two_workers_play_a_match(None, ["--database", pg_url])


def test_two_workers_share_one_sqlite_file(tmp_path):
    """The same on SQLite: each commit leaves a notice the other process reads when the file's
    data_version moves; the bots' lease is a row as on PostgreSQL. The memory store is refused."""
    import subprocess
    import sys

    _two_workers_play_a_match(str(tmp_path), [])
    refused = subprocess.run([sys.executable, "-m", "service", "--memory", "--workers", "2"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "the memory store (--memory) belongs to one process" in refused.stderr


def test_a_server_stopped_as_soon_as_it_serves_stops_gracefully(tmp_path):
    """SIGTERM right after the banner is a graceful stop, exit 0, for one process and for each
    worker of --workers 2: the signal handlers are in place before the banner is printed (they
    used to follow it, and a worker stopped in between died of the signal: 33 of 40 such stops
    of a two-worker server exited 1)."""
    from service.testing import ServerProcess

    for i in range(4):
        one = ServerProcess(None)
        assert one.stop() == 0, one.output
        two = ServerProcess(str(tmp_path / f"d{i}"), "--workers", "2", "--evaluate-processes", "0")
        assert two.stop() == 0, two.output
        assert two.output.count("stich server stopped") == 2, two.output
