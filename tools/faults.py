"""Several servers, one truth, under SIGKILL: server processes on one fresh PostgreSQL database
(or one server on SQLite), clients playing many tables through all of them at once, a random
server SIGKILLed at random moments and restarted, again and again. tests/test_multiserver.py
runs it at CI size; this command runs it long and prints the figures.

    python tools/faults.py --servers 3 --tables 24 --kills 100 --seed 1
    python tools/faults.py --sqlite --kills 20             # one server on SQLite

Clients (a thread per table) act with a request id and expected_version; a call that gets no
answer (the server died) is sent again, with the same id, to another server, until answered.
Checked at the end, from the database itself and from every server: every acknowledged
action is in the store at its version (lost), each human action in the log was acknowledged
once (double_accepts), every server tells each table's events identically and as the store's
log replayed through the engine (diverged), every table reached the end of its match, bots'
tables included (unfinished). Then the races: two clients send the same turn through two
servers at once, exactly one may win.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager

import grpc

from service.testing import ServerProcess
from service.testing.postgres import fresh_database

from stich_client import StichClient, StichError

GAME = "schafkopf"
SEATS = 4
TRANSIENT = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED,
             grpc.StatusCode.UNKNOWN}
SERVER_ARGS = ("--no-http", "--grace", "1", "--evaluate-processes", "0", "--batch-threads", "1",
               "--table-threads", "2")
ANSWER_SECONDS = 90          # a request unanswered by every server for this long is a failure


class Cluster:
    """The server processes (on one database), each SIGKILLed and restarted on demand; a
    restarted server listens on a new port."""

    def __init__(self, servers: int, database: str | None = None, data_dir: str | None = None):
        self.database, self.data_dir = database, data_dir
        self.lock = threading.Lock()
        self.procs: list[ServerProcess | None] = [None] * servers
        self._clients: dict[str, StichClient] = {}
        for i in range(servers):
            self.procs[i] = self._start()

    def _start(self) -> ServerProcess:
        if self.database:
            return ServerProcess(None, "--database", self.database, *SERVER_ARGS)
        return ServerProcess(self.data_dir, *SERVER_ARGS)

    def addresses(self) -> list[str]:
        with self.lock:
            return [p.address for p in self.procs if p is not None and p.proc.poll() is None]

    def client(self, address: str) -> StichClient:
        with self.lock:
            c = self._clients.get(address)
            if c is None:
                c = self._clients[address] = StichClient(address, timeout=15, retries=0)
            return c

    def kill(self, i: int) -> None:
        """SIGKILL server i (it is gone until restart)."""
        with self.lock:
            proc, self.procs[i] = self.procs[i], None
        proc.kill()

    def restart(self, i: int) -> None:
        proc = self._start()
        with self.lock:
            self.procs[i] = proc

    def close(self) -> None:
        for c in list(self._clients.values()):
            c.close()
        for p in self.procs:
            if p is not None:
                p.stop()


# what a run must show even when it is zero
REPORTED = ("kills", "acknowledged", "lost", "diverged", "double_accepts", "unfinished", "stale_reads",
            "refused", "client_failures", "race_rounds", "race_one_winner", "race_bad")


class Figures(Counter):
    def as_dict(self) -> dict:
        return {**dict.fromkeys(REPORTED, 0), **dict(sorted(self.items()))}


class Player:
    """Plays one table to the end of its match through whichever servers are up."""

    def __init__(self, cluster: Cluster, figures: Figures, rng: random.Random, humans: int):
        self.cluster, self.figures, self.rng = cluster, figures, rng
        self.humans = humans
        self.acked: dict[int, tuple[int, dict, str]] = {}     # version -> (seat, action, request id)
        self.seen_version = 0                                  # the highest version acknowledged or seen
        self.problems: list[str] = []

    def call(self, fn, what: str):
        """fn(client) on a server that answers: a transient failure (no answer) sends it again
        to another server, unchanged. The answer, or the StichError the servers refused with."""
        deadline = time.monotonic() + ANSWER_SECONDS
        attempts = 0
        while True:
            addresses = self.cluster.addresses()
            if addresses:
                address = self.rng.choice(addresses)
                try:
                    return fn(self.cluster.client(address))
                except StichError as err:
                    if err.code not in TRANSIENT:
                        raise
                    attempts += 1
                    if attempts == 1:
                        self.figures["calls_resent"] += 1
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what}: no server answered within {ANSWER_SECONDS} s")
            time.sleep(0.05)

    def create(self) -> None:
        seats = ["human"] * self.humans + ["bot:easy"] * (SEATS - self.humans)
        self.rng.shuffle(seats)
        seed = self.rng.randrange(2 ** 32)
        self.handle = self.call(lambda c: c.create_table(GAME, {}, 1, seats, seed=seed), "create")
        self.id = self.handle.table_id
        self.human_seats = set(self.handle.tokens)
        self.seen_version = 1

    def view(self, token: str) -> dict:
        v = self.call(lambda c: c.view(self.id, token), "view")
        if v["version"] < self.seen_version:
            self.figures["stale_reads"] += 1
            self.problems.append(f"{self.id}: a view at version {v['version']} after {self.seen_version} was seen")
        self.seen_version = max(self.seen_version, v["version"])
        return v

    def play(self) -> None:
        self.create()
        token0 = next(iter(self.handle.tokens.values()))
        for _ in range(2000):
            v = self.view(self.handle.spectator_id)
            if v["status"] == "match_over":
                return
            if v["status"] == "waiting_for_deal":
                rid = str(uuid.uuid4())
                self.act(lambda c: c.deal(self.id, token0, v["version"], request_id=rid), None, None, rid)
                continue
            seat = v["to_act"]
            if seat in self.human_seats:
                token = self.handle.tokens[seat]
                mine = self.view(token)
                if mine["version"] != v["version"]:
                    continue
                action = self.rng.choice(mine["legal"])
                rid = str(uuid.uuid4())
                self.act(lambda c: c.act(self.id, token, action, expected_version=mine["version"], request_id=rid),
                         seat, action, rid)
            else:
                self.wait_bots(v["version"])
        self.problems.append(f"{self.id}: not over after 2000 steps")

    def act(self, fn, seat, action, rid) -> None:
        try:
            answer = self.call(fn, "act")
        except StichError as err:                      # nobody else acts here: a defect
            self.figures["refused"] += 1
            self.problems.append(f"{self.id}: {action} refused: {err.reason_id} {err}")
            return
        version = answer["version"]
        if seat is not None:
            if version in self.acked and self.acked[version][2] != rid:
                self.figures["double_accepts"] += 1
                self.problems.append(f"{self.id}: version {version} acknowledged twice")
            self.acked[version] = (seat, action, rid)
            self.figures["acknowledged"] += 1
        else:
            self.figures["deals_acknowledged"] += 1
        self.seen_version = max(self.seen_version, version)

    def wait_bots(self, version: int) -> None:
        """Follow the table's events (on any server) until a human is to act or the deal ends."""
        address = self.rng.choice(self.cluster.addresses() or [""])
        if not address:
            time.sleep(0.1)
            return
        try:
            for e in self.cluster.client(address).watch(self.id, self.handle.spectator_id, version, timeout=5):
                self.seen_version = max(self.seen_version, e["version"])
                if e["to_act"] is None or e["to_act"] in self.human_seats:
                    return
        except StichError as err:
            if err.code not in TRANSIENT:
                raise


def _store_rows(database: str | None, data_dir: str | None, table_id: str):
    """(log rows [(version, deal, action)], deals {number: (first_version, start)}, request ids)."""
    if database:
        import psycopg
        with psycopg.connect(database) as conn:
            log = conn.execute("SELECT version, deal, action FROM log WHERE table_id=%s ORDER BY version",
                               (table_id,)).fetchall()
            deals = conn.execute("SELECT number, first_version, start FROM deals WHERE table_id=%s",
                                 (table_id,)).fetchall()
            rids = [r[0] for r in conn.execute("SELECT request_id FROM requests WHERE table_id=%s", (table_id,))]
    else:
        db = sqlite3.connect(os.path.join(data_dir, "stich.sqlite3"))
        try:
            log = db.execute("SELECT version, deal, action FROM log WHERE table_id=? ORDER BY version",
                             (table_id,)).fetchall()
            deals = db.execute("SELECT number, first_version, start FROM deals WHERE table_id=?", (table_id,)).fetchall()
            rids = [r[0] for r in db.execute("SELECT request_id FROM requests WHERE table_id=?", (table_id,))]
        finally:
            db.close()
    log = [(v, d, None if a is None else json.loads(a)) for v, d, a in log]
    return log, {n: (f, json.loads(s)) for n, f, s in deals}, rids


def _same(action: dict, stored: dict | None) -> bool:
    return stored is not None and all(stored.get(k) == v for k, v in action.items())


def check(cluster: Cluster, players: list[Player], figures: Figures) -> None:
    """Compare what was acknowledged, what the store holds, what every server tells."""
    from service.tables import Spec, replay
    for p in players:
        if not hasattr(p, "id"):
            continue
        log, deals, rids = _store_rows(cluster.database, cluster.data_dir, p.id)
        by_version = {v: a for v, _, a in log}
        for version, (seat, action, _) in p.acked.items():
            if not _same({"seat": seat, **action}, by_version.get(version)):
                figures["lost"] += 1
                p.problems.append(f"{p.id}: acknowledged version {version} {action} not in the store")
        humans_logged = {v for v, _, a in log if a is not None and a.get("seat") in p.human_seats}
        extra = humans_logged - set(p.acked)
        if extra or len(rids) != len(set(rids)):
            figures["double_accepts"] += len(extra) or 1
            p.problems.append(f"{p.id}: human actions in the log never acknowledged: {sorted(extra)}")
        if [v for v, _, _ in log] != list(range(1, len(log) + 1)):
            figures["diverged"] += 1
            p.problems.append(f"{p.id}: log versions not 1..{len(log)}")
            continue
        # the engine's replay of the store's log, deal by deal
        spec = Spec.from_dict(_spec_of(cluster, p.id))
        replayed_over = True
        try:
            for number, (first, start) in sorted(deals.items()):
                actions = [a for v, d, a in log if d == number and v > first]
                match, _ = replay(spec, number, first, start, actions)
                replayed_over = match.is_over()
        except Exception as err:  # noqa: BLE001 - any failure to replay is a divergence
            figures["diverged"] += 1
            p.problems.append(f"{p.id}: the store's log does not replay: {err}")
            continue
        # every server tells the same events, and they are the store's log
        told = []
        for address in cluster.addresses():
            events = []
            try:
                for e in cluster.client(address).watch(p.id, p.handle.spectator_id, 0, timeout=30):
                    events.append((e["version"], e["kind"], _plain(e["action"])))
                    if e["version"] >= len(log):
                        break
            except StichError as err:
                p.problems.append(f"{p.id}: WatchTable on {address}: {err.reason_id} {err}")
            told.append(events)
        expected = [(v, "table_created" if v == 1 else ("deal_started" if a is None else "action"),
                     None if a is None else {k: x for k, x in a.items()}) for v, _, a in log]
        if any(t != told[0] for t in told) or not _events_match(told[0], expected):
            figures["diverged"] += 1
            p.problems.append(f"{p.id}: servers' events differ from each other or from the store")
        if not replayed_over or not deals:
            figures["unfinished"] += 1
            p.problems.append(f"{p.id}: the match did not finish")
        figures["tables_checked"] += 1
        if p.humans < SEATS:
            figures["bot_tables"] += 1
            figures["bot_tables_finished"] += replayed_over


def _plain(action):
    return None if action is None else {k: v for k, v in action.items() if v not in (None, "", [])}


def _events_match(told, expected) -> bool:
    if [t[:2] for t in told] != [e[:2] for e in expected]:
        return False
    return all(e[2] is None or _same(_plain(t[2]) or {}, e[2]) or _same(_plain(e[2]), t[2] or {})
               for t, e in zip(told, expected))


def _spec_of(cluster: Cluster, table_id: str) -> dict:
    if cluster.database:
        import psycopg
        with psycopg.connect(cluster.database) as conn:
            return json.loads(conn.execute("SELECT spec FROM tables WHERE id=%s", (table_id,)).fetchone()[0])
    db = sqlite3.connect(os.path.join(cluster.data_dir, "stich.sqlite3"))
    try:
        return json.loads(db.execute("SELECT spec FROM tables WHERE id=?", (table_id,)).fetchone()[0])
    finally:
        db.close()


def race(cluster: Cluster, rounds: int, rng: random.Random, figures: Figures) -> None:
    """Two clients, two servers, one turn, the same expected_version: exactly one wins, the
    other is told STALE_VERSION, and the store holds the winner's action at that version."""
    a_addr, b_addr = cluster.addresses()[:2]
    clients = [StichClient(a_addr, timeout=20, retries=0), StichClient(b_addr, timeout=20, retries=0)]
    try:
        t = clients[0].create_table(GAME, {}, 50, ["human"] * SEATS, seed=rng.randrange(2 ** 32))
        for _ in range(rounds):
            v = clients[1].view(t.table_id, t.spectator_id)
            if v["status"] == "waiting_for_deal":
                clients[0].deal(t.table_id, t.tokens[0], v["version"])
                v = clients[1].view(t.table_id, t.spectator_id)
            seat = v["to_act"]
            if seat is None:
                figures["race_bad"] += 1          # a deal in progress has a seat to act
                continue
            legal = clients[0].view(t.table_id, t.tokens[seat])["legal"]
            picks = [rng.choice(legal), rng.choice(legal)]
            barrier = threading.Barrier(2)
            outcome: list = [None, None]

            def go(i):
                barrier.wait()
                try:
                    outcome[i] = ("won", clients[i].act(t.table_id, t.tokens[seat], picks[i],
                                                        expected_version=v["version"])["version"])
                except StichError as err:
                    outcome[i] = (err.reason_id, None)

            threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            won = [i for i in range(2) if outcome[i][0] == "won"]
            after = [c.view(t.table_id, t.spectator_id)["version"] for c in clients]
            log, _, _ = _store_rows(cluster.database, cluster.data_dir, t.table_id)
            stored = {ver: a for ver, _, a in log}.get(v["version"] + 1)
            ok = (len(won) == 1 and outcome[1 - won[0]][0] == "STALE_VERSION" and after == [v["version"] + 1] * 2
                  and _same({"seat": seat, **picks[won[0]]}, stored))
            figures["race_rounds"] += 1
            figures["race_one_winner" if ok else "race_bad"] += 1
    finally:
        for c in clients:
            c.close()


def run(servers: int = 3, tables: int = 12, kills: int = 5, seed: int = 1, time_limit: float = 150.0,
        database: str | None = None, data_dir: str | None = None, races: int = 50,
        kill_gap: tuple[float, float] = (0.5, 2.0), log=print) -> tuple[dict, list[str]]:
    """The whole run: (figures, problems). `tables` tables are played at once (half all-human,
    half one human and three bots); a finished table is followed by a new one until `kills`
    kills are done or `time_limit` seconds have passed."""
    rng = random.Random(seed)
    figures = Figures()
    cluster = Cluster(servers, database, data_dir)
    players: list[Player] = []
    stop = threading.Event()
    started = time.monotonic()
    lock = threading.Lock()

    def client_loop(k: int):
        local = random.Random(rng.random())
        while not stop.is_set():
            p = Player(cluster, figures, random.Random(local.random()), SEATS if k % 2 == 0 else 1)
            with lock:
                players.append(p)
            try:
                p.play()
            except Exception as err:  # noqa: BLE001 - counted and reported, the others go on
                figures["client_failures"] += 1
                p.problems.append(f"client: {type(err).__name__}: {err}")
            figures["tables_played"] += 1

    try:
        threads = [threading.Thread(target=client_loop, args=(k,), daemon=True) for k in range(tables)]
        for th in threads:
            th.start()
        while figures["kills"] < kills and time.monotonic() - started < time_limit:
            time.sleep(rng.uniform(*kill_gap))
            i = rng.randrange(servers)
            cluster.kill(i)
            figures["kills"] += 1
            cluster.restart(i)
            if figures["kills"] % 10 == 0:
                log(f"  {figures['kills']} kills, {figures['acknowledged']} actions acknowledged, "
                    f"{time.monotonic() - started:.0f} s")
        stop.set()
        for th in threads:
            th.join(ANSWER_SECONDS + 60)
        figures["seconds_under_kills"] = round(time.monotonic() - started)
        check(cluster, players, figures)
        if servers >= 2 and races:
            race(cluster, races, rng, figures)
    finally:
        stop.set()
        cluster.close()
    problems = [x for p in players for x in p.problems]
    return figures.as_dict(), problems


@contextmanager
def fresh_postgres(admin: str):
    with fresh_database(admin, "stich_faults_") as url:
        yield url


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--servers", type=int, default=3, help="server processes on one database (default 3)")
    ap.add_argument("--tables", type=int, default=12, help="tables played at once (default 12)")
    ap.add_argument("--kills", type=int, default=100, help="SIGKILLs (each followed by a restart)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=1800.0, help="seconds of kills at most")
    ap.add_argument("--races", type=int, default=50, help="two-server races of one turn at the end")
    ap.add_argument("--sqlite", action="store_true", help="one server on SQLite instead")
    ap.add_argument("--admin", default=os.environ.get("STICH_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres"),
                    help="a PostgreSQL server to create the fresh database on")
    args = ap.parse_args(argv)
    if args.servers < 1 or args.tables < 1 or args.kills < 0:
        ap.error("--servers and --tables must be at least 1, --kills at least 0")
    if args.sqlite and args.servers != 1:
        ap.error("SQLite serves one server: --sqlite needs --servers 1")
    print(f"faults: {args.servers} servers, {args.tables} tables at once, {args.kills} kills, seed {args.seed}",
          flush=True)
    if args.sqlite:
        with tempfile.TemporaryDirectory() as d:
            figures, problems = run(1, args.tables, args.kills, args.seed, args.time_limit, data_dir=d, races=0)
    else:
        with fresh_postgres(args.admin) as url:
            figures, problems = run(args.servers, args.tables, args.kills, args.seed, args.time_limit,
                                    database=url, races=args.races)
    print(json.dumps(figures, indent=1))
    for line in problems[:20]:
        print("problem:", line)
    bad = sum(figures.get(k, 0) for k in ("lost", "diverged", "double_accepts", "unfinished", "race_bad",
                                          "stale_reads", "refused", "client_failures"))
    return 1 if bad or problems else 0


if __name__ == "__main__":
    sys.exit(main())
