"""The server as a real process: SIGKILL and restart restores every table (same ids, tokens,
views, versions, events), tables come back from the store one at a time when first used;
SIGTERM lets calls in flight finish and exits 0; a store of the old layout is kept aside."""
from __future__ import annotations

import json
import random
import signal
import sqlite3
import threading
import time

from grpc_health.v1 import health_pb2, health_pb2_grpc

from engine_core import games
from stich_client import StichClient

from service.testing import ServerProcess

GAMES = games.available()


def _built():
    out = []
    for g in GAMES:
        try:
            games.spec_of(g)
            out.append(g)
        except ImportError:
            pass
    return out


def _play(client, table, steps, rng):
    """`steps` actions by whichever human seat is to act; bots act by themselves (the function
    returns once no bot is to act, so the table stands still)."""
    for _ in range(steps):
        v = _settle(client, table)
        if v["status"] == "waiting_for_deal":
            client.deal(table.table_id, next(iter(table.tokens.values())))
            continue
        if v["status"] == "match_over":
            return
        seat = v["to_act"]
        mine = client.view(table.table_id, table.tokens[seat])
        client.act(table.table_id, table.tokens[seat], rng.choice(mine["legal"]), expected_version=mine["version"])
    _settle(client, table)


def _settle(client, table):
    """The spectator's view once no bot is to act."""
    v = client.view(table.table_id, table.spectator_id)
    if v["to_act"] is not None and v["to_act"] not in table.tokens:
        for e in client.watch(table.table_id, table.spectator_id, v["version"], timeout=30):
            if e["to_act"] is None or e["to_act"] in table.tokens:
                break
        v = client.view(table.table_id, table.spectator_id)
    return v


def _events_so_far(client, t) -> list:
    """Every event up to the table's current version, as the spectator and seat 0 see them."""
    version = client.view(t.table_id, t.spectator_id)["version"]
    out = []
    for token in (t.spectator_id, *t.tokens.values()):
        for e in client.watch(t.table_id, token, 0, timeout=20):
            out.append(e)
            if e["version"] >= version:
                break
    return out


def _all_views(client, tables):
    return {t.table_id: [client.view(t.table_id, tok) for tok in [*t.tokens.values(), t.spectator_id]]
            for t in tables}


def test_sigkill_and_restart_restores_every_table(tmp_path):
    rng = random.Random(5)
    tables = []
    srv = ServerProcess(tmp_path)
    try:
        with StichClient(srv.address, timeout=20) as c:
            for game in _built():
                n = games.get(game).seats
                humans = c.create_table(game, {}, 2, ["human"] * n, seed=3)
                _play(c, humans, 1 + 40, rng)                  # into deal 2 or deep into deal 1
                mixed = c.create_table(game, {}, 2, ["bot:easy"] * (n - 1) + ["human"], seed=4)
                _play(c, mixed, 6, rng)
                fresh = c.create_table(game, {}, 1, seed=5)     # never dealt
                tables += [humans, mixed, fresh]
            before = _all_views(c, tables)
            events_before = {t.table_id: _events_so_far(c, t) for t in tables}
    finally:
        srv.kill()
    with ServerProcess(tmp_path) as srv, StichClient(srv.address, timeout=20) as c:
        assert f"{len(tables)} tables stored" in srv.banner
        assert _all_views(c, tables) == before
        assert {t.table_id: _events_so_far(c, t) for t in tables} == events_before
        for t in tables:            # and the tables go on to the end of their matches
            _play(c, t, 400, rng)
            assert c.view(t.table_id, t.spectator_id)["status"] == "match_over"
            events = list(c.watch(t.table_id, t.spectator_id, 0, timeout=20))
            assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert srv.proc.returncode == 0


def test_sigterm_finishes_in_flight_calls_and_exits_cleanly(tmp_path):
    """SIGTERM: health watchers see NOT_SERVING, an open EvaluateRecords stream keeps being
    served until the client closes it, then the process exits 0."""
    srv = ServerProcess(tmp_path)
    game = GAMES[0]
    state = games.get(game).deal(1, 0)
    rng = random.Random(1)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    line = json.dumps(state.record())
    signalled = threading.Event()

    def lines():
        for i in range(20):
            if i == 10:
                signalled.wait(10)
                time.sleep(0.2)
            yield line

    try:
        with StichClient(srv.address, timeout=60) as c:
            health = health_pb2_grpc.HealthStub(c.channel).Watch(health_pb2.HealthCheckRequest(service=""), timeout=30)
            assert next(health).status == health_pb2.HealthCheckResponse.SERVING
            answers = []
            for k, answer in enumerate(c.evaluate(lines(), timeout=30, chunk=1)):
                answers.append(answer)
                if k == 9:
                    srv.proc.send_signal(signal.SIGTERM)
                    assert next(health).status == health_pb2.HealthCheckResponse.NOT_SERVING
                    signalled.set()
            assert len(answers) == 20 and all("result" in a for a in answers)
        # the SIGTERM above is the stop: wait for the exit (a second SIGTERM from stop() could
        # land in the interpreter's teardown, after the loop's handlers are gone, on a slow machine)
        assert srv.proc.wait(20) == 0
        assert srv.stop() == 0
        assert "stopped" in srv.output
    finally:
        srv.kill()


def test_tables_are_restored_when_first_used(tmp_path):
    """Start-up reads no table: a store of many tables starts as fast as an empty one, and a
    table comes back (its current deal replayed) at its first call."""
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        handles = [c.create_table("schafkopf", {}, 1, seed=i) for i in range(200)]
        for t in handles[:5]:
            c.deal(t.table_id, t.tokens[0])
        views = [c.view(t.table_id, t.tokens[0]) for t in handles[:5]]
    t0 = time.perf_counter()
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        started = time.perf_counter() - t0
        assert "200 tables stored" in srv.banner
        assert [c.view(t.table_id, t.tokens[0]) for t in handles[:5]] == views
    assert started < 10


def test_a_store_of_the_old_layout_is_kept_aside(tmp_path):
    db = sqlite3.connect(tmp_path / "stich.sqlite3")
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
        CREATE TABLE deals (table_id TEXT NOT NULL, number INTEGER NOT NULL, start TEXT NOT NULL,
                            PRIMARY KEY (table_id, number));
        CREATE TABLE actions (table_id TEXT NOT NULL, deal INTEGER NOT NULL, idx INTEGER NOT NULL,
                              action TEXT NOT NULL, PRIMARY KEY (table_id, deal, idx));
        INSERT INTO tables VALUES ('t_old', '{}');""")
    db.commit()
    db.close()
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        assert "0 tables stored" in srv.banner
        assert c.create_table("schafkopf", {}, 1).table_id
    names = {r[0] for r in sqlite3.connect(tmp_path / "stich.sqlite3").execute(
        "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"legacy_tables", "legacy_deals", "legacy_actions", "tables", "log", "deals", "requests"} <= names
