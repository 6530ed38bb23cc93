"""The server as a real process: SIGKILL and restart restores every table (same ids, tokens,
views, versions) from SQLite; SIGTERM lets an in-flight call finish and exits cleanly."""
from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import threading
import time

from grpc_health.v1 import health_pb2, health_pb2_grpc

from engine_core import games
from stich_client import StichClient

GAMES = games.available()


def start(data_dir, address="127.0.0.1:0"):
    proc = subprocess.Popen([sys.executable, "-m", "service", "--address", address, "--data-dir", str(data_dir)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    match = re.search(r"listening on (\S+)", line)
    assert match, line + proc.stdout.read()
    return proc, match.group(1), line


def stop(proc, sig=signal.SIGTERM, timeout=15):
    proc.send_signal(sig)
    try:
        rest, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode, rest


def _play(client, table, seats, steps, rng):
    """`steps` actions by whichever human seat is to act (humans at every seat listed)."""
    for _ in range(steps):
        v = client.view(table.table_id, table.spectator_id)
        if v["status"] == "waiting_for_deal":
            client.deal(table.table_id, next(iter(table.tokens.values())))
            continue
        if v["status"] == "match_over":
            return
        seat = v["to_act"]
        mine = client.view(table.table_id, table.tokens[seat])
        client.act(table.table_id, table.tokens[seat], rng.choice(mine["legal"]),
                   expected_version=mine["version"])


def _all_views(client, tables):
    return {t.table_id: [client.view(t.table_id, tok) for tok in [*t.tokens.values(), t.spectator_id]]
            for t in tables}


def test_sigkill_and_restart_restores_every_table(tmp_path):
    proc, address, _ = start(tmp_path)
    rng = random.Random(5)
    tables = []
    try:
        with StichClient(address, timeout=20) as c:
            for game in GAMES:
                n = games.get(game).seats
                humans = c.create_table(game, {}, 2, ["human"] * n, seed=3)
                _play(c, humans, n, 1 + 40, rng)              # into deal 2 or deep into deal 1
                mixed = c.create_table(game, {}, 2, ["bot"] * (n - 1) + ["human"], seed=4)
                _play(c, mixed, n, 6, rng)
                fresh = c.create_table(game, {}, 1, seed=5)    # never dealt
                tables += [humans, mixed, fresh]
            before = _all_views(c, tables)
    finally:
        proc.kill()
        proc.wait()
    proc, address, banner = start(tmp_path)
    try:
        assert f"{len(tables)} tables restored" in banner
        with StichClient(address, timeout=20) as c:
            assert _all_views(c, tables) == before
            for t in tables:            # and the tables go on to the end of their matches
                n = len(before[t.table_id][-1]["seats"])
                _play(c, t, n, 400, rng)
                assert c.view(t.table_id, t.spectator_id)["status"] == "match_over"
                events = list(c.watch(t.table_id, t.spectator_id, 0, timeout=20))
                assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        code, out = stop(proc)
        assert code == 0, out
    finally:
        if proc.poll() is None:
            proc.kill()


def test_sigterm_finishes_in_flight_calls_and_exits_cleanly(tmp_path):
    """SIGTERM: health watchers see NOT_SERVING, an open EvaluateRecords stream keeps being
    served until the client closes it, then the process exits 0."""
    proc, address, _ = start(tmp_path)
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
        with StichClient(address, timeout=60) as c:
            health = health_pb2_grpc.HealthStub(c.channel).Watch(
                health_pb2.HealthCheckRequest(service=""), timeout=30)
            assert next(health).status == health_pb2.HealthCheckResponse.SERVING
            answers = []
            for k, answer in enumerate(c.evaluate(lines(), timeout=30, chunk=1)):
                answers.append(answer)
                if k == 9:
                    proc.send_signal(signal.SIGTERM)
                    assert next(health).status == health_pb2.HealthCheckResponse.NOT_SERVING
                    signalled.set()
            assert len(answers) == 20 and all("result" in a for a in answers)
        code, out = stop(proc, signal.SIGTERM)
        assert code == 0, out
        assert "stopped" in out
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_table_that_cannot_be_replayed_does_not_stop_the_others(tmp_path):
    from service.server import Server
    from service.store import Store
    srv = Server("127.0.0.1:0", str(tmp_path)).start()
    with StichClient(srv.address) as c:
        good = c.create_table(GAMES[0], {}, 1, seed=1)
        bad = c.create_table(GAMES[0], {}, 1, seed=2)
        c.deal(good.table_id, good.tokens[0])
        c.deal(bad.table_id, bad.tokens[0])
    srv.stop(1)
    store = Store(str(tmp_path))          # a stored action this build would refuse
    store.write(bad.table_id, actions=[(1, 0, {"seat": 0, "type": "play", "card": "ZZ"})])
    store.close()
    srv = Server("127.0.0.1:0", str(tmp_path)).start()
    try:
        assert srv.restored == 1 and bad.table_id in srv.manager.unrestorable
        with StichClient(srv.address) as c:
            assert c.view(good.table_id, good.spectator_id)["status"] == "in_deal"
    finally:
        srv.stop(1)
