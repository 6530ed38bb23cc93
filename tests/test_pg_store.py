"""The stores side by side: every Store coroutine behaves the same in memory (`--memory`), on
SQLite and on PostgreSQL (each PostgreSQL test on a fresh database, service.testing.postgres); the one list of migrations
from an empty database and from schema 2; the parts of a store several servers share (bot
leases, notices of commits, two table managers on one database), on PostgreSQL and on one
SQLite file (--workers); start-up errors of `--database`."""
from __future__ import annotations

import asyncio
import sqlite3
import time
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.manager import TableManager
from service.memstore import MemoryData, MemoryStore
from service.store import (MIGRATIONS, SCHEMA_VERSION, Commit, Conflict, DailyEntry, Exists, NicknameTaken,
                           SqliteStore, StoreError)


KINDS = ["sqlite", "postgres"]


def run(coro):
    return asyncio.run(coro)


@pytest.fixture(params=KINDS)
def make_store(request, tmp_path):
    """A factory of opened-later stores on one database of the parameter's kind."""
    if request.param == "sqlite":
        return lambda **kw: SqliteStore(str(tmp_path))
    url = request.getfixturevalue("pg_url")
    from service.pgstore import PostgresStore
    return lambda **kw: PostgresStore(url, **kw)


@pytest.fixture(params=["memory", *KINDS])
def any_store(request, tmp_path):
    """make_store and the memory store: the contract every Store keeps (a memory store's
    factory shares one MemoryData, as servers share a database)."""
    if request.param == "memory":
        data = MemoryData()
        return lambda **kw: MemoryStore(data)
    if request.param == "sqlite":
        return lambda **kw: SqliteStore(str(tmp_path))
    url = request.getfixturevalue("pg_url")
    from service.pgstore import PostgresStore
    return lambda **kw: PostgresStore(url, **kw)


def _spec():
    return {"spec": 1}


@pytest.fixture(params=KINDS)
def shared_store(request, tmp_path):
    """A factory of stores several servers share, named for the bots' leases: PostgreSQL, or
    one SQLite file used by several processes (--workers; here several stores in one)."""
    if request.param == "sqlite":
        return lambda name, **kw: SqliteStore(str(tmp_path), shared=True, server_id=name, **kw)
    url = request.getfixturevalue("pg_url")
    from service.pgstore import PostgresStore
    return lambda name, **kw: PostgresStore(url, name, **kw)


def test_tables_log_and_conflicts(any_store):
    make_store = any_store
    async def main():
        s = make_store()
        await s.open()
        try:
            assert await s.count_tables() == 0
            await s.create_table("t_a", _spec())
            with pytest.raises(Exists):
                await s.create_table("t_a", _spec())
            assert await s.last_version("t_a") == 1 and await s.last_version("t_none") is None
            t = await s.load_table("t_a")
            assert (t.spec, t.version, t.deal, t.claims) == (_spec(), 1, None, {})
            start = {"progress": {}, "dealer": 0, "hands": [["AS"]]}
            await s.commit("t_a", Commit(1, [(2, 1, None)], deal_start=(1, 2, start),
                                         request=("r1", "fp1", {"view": 2})))
            with pytest.raises(Conflict):                         # the same version again
                await s.commit("t_a", Commit(1, [(2, 1, None)]))
            with pytest.raises(Conflict):                         # a base that is not the last
                await s.commit("t_a", Commit(5, [(6, 1, {"x": 1})]))
            await s.commit("t_a", Commit(2, [(3, 1, {"seat": 0, "type": "play", "card": "AS"})]))
            t = await s.load_table("t_a")
            assert t.version == 3 and t.deal.number == 1 and t.deal.first_version == 2
            assert t.deal.start == start and t.deal.actions == [{"seat": 0, "type": "play", "card": "AS"}]
            await s.commit("t_a", Commit(3, [(4, 2, None)], deal_start=(2, 4, {"n": 2})))
            assert (await s.load_deal("t_a", 1)).actions == [{"seat": 0, "type": "play", "card": "AS"}]
            assert (await s.load_table("t_a")).deal.number == 2 and await s.load_deal("t_a", 9) is None
            assert [await s.deal_of_version("t_a", v) for v in (1, 2, 3, 4, 5)] == [0, 1, 1, 2, None]
            assert await s.find_request("t_a", "r1") == ("fp1", {"view": 2})
            assert await s.find_request("t_a", "r2") is None
            assert await s.count_tables() == 1 and await s.load_table("t_none") is None
        finally:
            await s.close()
    run(main())


def test_racing_commits_and_claims_one_wins(any_store):
    make_store = any_store
    """Two stores (two servers) on one database: the keys decide."""
    async def main():
        a, b = make_store(), make_store()
        await a.open()
        await b.open()
        try:
            await a.create_table("t_r", _spec())
            got = await asyncio.gather(a.commit("t_r", Commit(1, [(2, 1, None)])),
                                       b.commit("t_r", Commit(1, [(2, 1, None)])), return_exceptions=True)
            assert sorted(type(g).__name__ for g in got) == ["Conflict", "NoneType"]
            got = await asyncio.gather(a.claim_seat("t_r", 1, "h1", 2), b.claim_seat("t_r", 1, "h2", 2),
                                       return_exceptions=True)
            assert sum(g is None for g in got) == 1 and sum(isinstance(g, Exists) for g in got) == 1
            with pytest.raises(Conflict):
                await a.claim_seat("t_r", 2, "h3", 2)           # the claim made version 3
            t = await b.load_table("t_r")
            assert list(t.claims) == [1] and t.version == 3
        finally:
            await a.close()
            await b.close()
    run(main())


def test_daily_entries(any_store):
    make_store = any_store
    async def main():
        s = make_store()
        await s.open()
        try:
            for i, score in enumerate([10, 30, 20]):
                await s.add_daily_entry(DailyEntry("schafkopf", "2026-12-01", f"p{i}", f"n{i}", score, f"t_{i}",
                                                   f"2026-12-01T10:00:0{i}"))
            with pytest.raises(Exists):
                await s.add_daily_entry(DailyEntry("schafkopf", "2026-12-01", "p0", "again", 99, "t_9", "x"))
            entries, total = await s.daily_entries("schafkopf", "2026-12-01", 2)
            assert total == 3 and [e.nickname for e in entries] == ["n1", "n2"]
            assert entries[0] == DailyEntry("schafkopf", "2026-12-01", "p1", "n1", 30, "t_1", "2026-12-01T10:00:01")
            assert await s.daily_entries("schafkopf", "2026-12-02", 5) == ([], 0)
        finally:
            await s.close()
    run(main())


def test_a_nickname_is_one_players_a_day_and_the_daily_key_is_made_once(any_store):
    make_store = any_store
    async def main():
        s = make_store()
        await s.open()
        try:
            await s.add_daily_entry(DailyEntry("schafkopf", "2026-12-01", "p0", "Anna", 10, "t_0", "a"))
            with pytest.raises(NicknameTaken):
                await s.add_daily_entry(DailyEntry("schafkopf", "2026-12-01", "p1", "anna", 20, "t_1", "b"))
            await s.add_daily_entry(DailyEntry("schafkopf", "2026-12-02", "p1", "anna", 20, "t_2", "c"))
            await s.add_daily_entry(DailyEntry("klaverjas", "2026-12-01", "p1", "Anna", 20, "t_3", "d"))
            assert (await s.daily_entries("schafkopf", "2026-12-01", 5))[1] == 1
            assert await s.server_key("daily-v2", "aa" * 32) == "aa" * 32
            assert await s.server_key("daily-v2", "bb" * 32) == "aa" * 32
        finally:
            await s.close()
        again = make_store()                       # kept across starts
        await again.open()
        try:
            assert await again.server_key("daily-v2", "cc" * 32) == "aa" * 32
        finally:
            await again.close()
    run(main())


# ---- migrations ------------------------------------------------------------------------------
def _applied_sqlite(path) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")]
    finally:
        db.close()


async def _applied_pg(url) -> list[int]:
    import psycopg
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute("SELECT version FROM schema_version ORDER BY version")
        return [r[0] for r in await cur.fetchall()]


def test_one_list_of_migrations():
    assert [m.version for m in MIGRATIONS] == sorted({m.version for m in MIGRATIONS}) == [2, 3, 4, 5, 6, 7]
    assert SCHEMA_VERSION == 7
    for m in MIGRATIONS:
        assert (m.statements("sqlite") or m.statements("postgres")) and m.description


def test_migrations_from_an_empty_database(make_store, tmp_path):
    async def main():
        s = make_store()
        await s.open()
        await s.create_table("t_m", _spec())
        await s.claim_seat("t_m", 0, "h", 1)
        await s.close()
        again = make_store()                      # a second start applies nothing more
        await again.open()
        assert (await again.load_table("t_m")).version == 2
        await again.close()
        if isinstance(s, SqliteStore):
            return _applied_sqlite(s.path)
        return await _applied_pg(s.url)
    assert run(main()) == [2, 3, 4, 5, 6, 7]


def _fill_schema_2(execute):
    """A table with its creation and a started deal, as a schema 2 server wrote them."""
    execute("INSERT INTO tables VALUES ('t_old', '{\"spec\": 2}')")
    execute("INSERT INTO log VALUES ('t_old', 1, 0, NULL)")
    execute("INSERT INTO log VALUES ('t_old', 2, 1, NULL)")
    execute("INSERT INTO deals VALUES ('t_old', 1, 2, '{\"hands\": []}')")
    execute("INSERT INTO requests VALUES ('t_old', 'r-old', 'fp-old', '{\"version\": 2}')")


def _check_migrated(s) -> None:
    async def main():
        await s.open()
        try:
            t = await s.load_table("t_old")
            assert t.spec == {"spec": 2} and t.version == 2 and t.deal.number == 1 and t.claims == {}
            assert await s.find_request("t_old", "r-old") == ("fp-old", {"version": 2})   # kept by step 5
            await s.add_daily_entry(DailyEntry("g", "2026-12-01", "p", "n", 1, "t_old", "now"))
            await s.commit("t_old", Commit(2, [(3, 1, {"a": 1})], bot_turn=True))
            assert (await s.load_table("t_old")).version == 3
        finally:
            await s.close()
    run(main())


def test_sqlite_from_schema_2(tmp_path):
    """A store of schema 2 as it was written then: PRAGMA user_version=2, no schema_version."""
    db = sqlite3.connect(tmp_path / "stich.sqlite3", isolation_level=None)
    for statement in MIGRATIONS[0].statements("sqlite"):
        db.execute(statement)
    _fill_schema_2(db.execute)
    db.execute("PRAGMA user_version=2")
    db.close()
    _check_migrated(SqliteStore(str(tmp_path)))
    assert _applied_sqlite(tmp_path / "stich.sqlite3") == [2, 3, 4, 5, 6, 7]
    assert sqlite3.connect(tmp_path / "stich.sqlite3").execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_postgres_from_schema_2(pg_url):
    import psycopg

    from service.pgstore import PostgresStore, migrate

    async def upto_2():
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
            assert await migrate(conn, upto=2) == 2
            cur = await conn.execute("SELECT count(*) FROM pg_tables WHERE tablename IN ('claims', 'daily_entries')")
            assert (await cur.fetchone())[0] == 0
    run(upto_2())
    with psycopg.connect(pg_url, autocommit=True) as conn:
        _fill_schema_2(conn.execute)
    _check_migrated(PostgresStore(pg_url))
    assert run(_applied_pg(pg_url)) == [2, 3, 4, 5, 6, 7]


def test_a_newer_schema_is_refused(make_store):
    async def main():
        s = make_store()
        await s.open()
        await s.close()
        if isinstance(s, SqliteStore):
            db = sqlite3.connect(s.path, isolation_level=None)
            db.execute("INSERT INTO schema_version VALUES (99, 'future', 'x')")
            db.close()
        else:
            import psycopg
            async with await psycopg.AsyncConnection.connect(s.url, autocommit=True) as conn:
                await conn.execute("INSERT INTO schema_version (version, description) VALUES (99, 'future')")
        with pytest.raises(StoreError, match=f"schema version 99; this build knows up to {SCHEMA_VERSION}"):
            await make_store().open()
    run(main())


# ---- PostgreSQL: leases and notifications ------------------------------------------------------
def test_bot_leases(shared_store):
    async def main():
        a, b = shared_store("a", lease_seconds=0.5), shared_store("b", lease_seconds=0.5)
        await a.open()
        await b.open()
        try:
            await a.create_table("t_l", _spec())
            assert not await a.take_bot_lease("t_l")          # no bot to act: nothing to lease
            await a.commit("t_l", Commit(1, [(2, 1, None)], bot_turn=True))      # a's lease
            assert not await b.take_bot_lease("t_l") and await a.take_bot_lease("t_l")
            assert await b.due_bot_tables(10) == []
            await asyncio.sleep(0.7)                          # a died: its lease expires
            assert await b.due_bot_tables(10) == ["t_l"]
            assert await b.take_bot_lease("t_l") and not await a.take_bot_lease("t_l")
            await b.release_bot_lease("t_l")                  # given up: at once due again
            assert await a.due_bot_tables(10) == ["t_l"] and await a.take_bot_lease("t_l")
            await a.commit("t_l", Commit(2, [(3, 1, {"x": 1})], bot_turn=False))  # a human's turn
            assert not await a.take_bot_lease("t_l") and await a.due_bot_tables(10) == []
        finally:
            await a.close()
            await b.close()
    run(main())


def test_a_commit_notifies_every_listener(shared_store):
    async def main():
        a, b = shared_store("a"), shared_store("b")
        await a.open()
        await b.open()
        heard = []
        ready = asyncio.Event()

        def on_change(table_id, version):
            heard.append((table_id, version))
            ready.set()
        b.listen(on_change)
        try:
            await asyncio.wait_for(ready.wait(), 10)          # (None, None): listening
            await a.create_table("t_n", _spec())
            with pytest.raises(Conflict):
                await a.commit("t_n", Commit(7, [(8, 1, None)]))          # rolled back: no notice
            await a.commit("t_n", Commit(1, [(2, 1, None)]))
            await a.claim_seat("t_n", 1, "h", 2)
            for _ in range(100):
                if len(heard) >= 3:
                    break
                await asyncio.sleep(0.05)
            assert heard == [(None, None), ("t_n", 2), ("t_n", 3)]
        finally:
            await a.close()
            await b.close()
    run(main())


# ---- two table managers (two servers) on one database --------------------------------------------
async def _managers(url, n=2):
    from service.pgstore import PostgresStore
    return await _managers_on(lambda name, **kw: PostgresStore(url, name, **kw), n)


async def _managers_on(shared_store, n=2):
    out = []
    for i in range(n):
        s = shared_store(f"m{i}", lease_seconds=1.0)
        await s.open()
        m = TableManager(s, ThreadPoolExecutor(2))
        m.start()
        out.append(m)
    return out


async def _close(managers):
    for m in managers:
        await m.close()
        await m.store.close()


def _fields(action):
    return action["type"], {k: v for k, v in action.items() if k not in ("seat", "type")}


def _turn(table):
    state = table.match.current
    return state.to_act(), *_fields(state.legal_actions()[0])


def test_two_managers_one_truth(shared_store):
    """A cached table catches up before a request is judged; STALE_VERSION says the store's
    version; a retried request id is answered once by either manager; the other manager's
    watcher sees every action."""
    async def main():
        a, b = await _managers_on(shared_store)
        try:
            view, tokens, spectator, _ = await a.create("schafkopf", {}, 1, [], seed=7)
            tid = view["table_id"]
            assert (await b.deal(tid, tokens[0], 1))["version"] == 2       # b loads it and deals
            events = []

            async def watch():
                async for e in await b.watch(tid, spectator, 0):
                    events.append(e["version"])
                    if e["version"] >= 6:
                        return
            watcher = asyncio.ensure_future(watch())
            assert (await a.view(tid, tokens[0]))["version"] == 2          # a held version 1
            for version, m in ((3, a), (4, b), (5, a)):                    # turns through both
                seat, kind, fields = _turn(await m.table(tid))
                assert (await m.act(tid, tokens[seat], kind, fields, version - 1))["version"] == version
            seat, kind, fields = _turn(await a.table(tid))
            with pytest.raises(Exception) as info:                         # b: expected 4, store at 5
                await b.act(tid, tokens[seat], kind, fields, 4)
            assert info.value.reason == "STALE_VERSION" and info.value.metadata["version"] == "5"
            assert (await b.act(tid, tokens[seat], kind, fields, 5, "rid-6"))["version"] == 6
            again = await a.act(tid, tokens[seat], kind, fields, 5, "rid-6")   # the retry elsewhere
            assert again["version"] == 6 and await a.store.last_version(tid) == 6
            await asyncio.wait_for(watcher, 10)
            assert events == [1, 2, 3, 4, 5, 6]
        finally:
            await _close([a, b])
    run(main())


def test_a_table_follows_the_other_servers_actions(shared_store):
    """A table held on b, moved on by a within the deal, catches up by applying a's rows
    (Freshness.follow: no whole read), and ends exactly as a whole read builds it; a new deal
    is read whole."""
    from service.restore import restore

    async def main():
        a, b = await _managers_on(shared_store)
        whole_reads = []
        read = b.restorer.read

        async def counting(table_id, **kw):
            whole_reads.append(table_id)
            return await read(table_id, **kw)
        b.restorer.read = counting
        try:
            view, tokens, _, _ = await a.create("schafkopf", {"ramsch": True}, 2, [], seed=3)   # all pass: played
            tid = view["table_id"]
            await a.deal(tid, tokens[0], 1)
            held = await b.table(tid)                      # b reads it whole once
            assert whole_reads == [tid]
            for version in range(3, 8):                    # five cards or calls on a
                seat, kind, fields = _turn(await a.table(tid))
                await a.act(tid, tokens[seat], kind, fields, version - 1)
            assert (await b.view(tid, tokens[0]))["version"] == 7 and whole_reads == [tid]
            stored = restore(tid, await b.store.load_table(tid))
            assert held.version == stored.version == 7
            assert held.match.current.record() == stored.match.current.record()
            assert held.deal.entries == stored.deal.entries
            assert await b.view(tid, tokens[1]) == await a.view(tid, tokens[1])
            table = await a.table(tid)                     # a finishes the deal and deals the next
            while table.match.current is not None and not table.match.current.is_over():
                seat, kind, fields = _turn(table)
                await a.act(tid, tokens[seat], kind, fields, table.version)
            await a.deal(tid, tokens[0], table.version)
            assert (await b.view(tid, tokens[0]))["version"] == table.version
            assert whole_reads == [tid, tid]               # a new deal: read whole
        finally:
            await _close([a, b])
    run(main())


def _count_conflicts(store) -> list:
    """The base versions of `store`'s commits that met a Conflict, in order (the store's commit
    is wrapped; the Conflict still reaches the caller)."""
    conflicts: list = []
    commit = store.commit

    async def counting(table_id, c):
        try:
            return await commit(table_id, c)
        except Conflict:
            conflicts.append(c.base_version)
            raise
    store.commit = counting
    return conflicts

def test_a_lost_commit_is_judged_again_on_the_fresh_table(pg_url):
    """b's copy is behind and its freshness check misses a's commit (it lands in between):
    b's commit conflicts, b reloads and judges again: refused by the rules, or STALE_VERSION."""
    async def main():
        a, b = await _managers(pg_url)
        conflicts = _count_conflicts(b.store)
        try:
            view, tokens, _, _ = await a.create("schafkopf", {}, 1, [], seed=3)
            tid = view["table_id"]
            await a.deal(tid, tokens[0], 1)
            tb = await b.table(tid)
            seat, kind, fields = _turn(tb)
            assert (await a.act(tid, tokens[seat], kind, fields, None))["version"] == 3
            for expected, reason in ((None, "NOT_YOUR_TURN"), (2, "STALE_VERSION")):
                tb.version, tb.match, tb.deal = 2, (await _at_version_2(b, tid)).match, tb.deal
                b.store.last_version = _stale_once(b.store.last_version, tid)
                with pytest.raises(Exception) as info:
                    await b.act(tid, tokens[seat], kind, fields, expected)
                got = getattr(info.value, "reason", None) or info.value.err.reason_id
                assert got == reason and (await b.table(tid)).version == 3
            assert conflicts == [2, 2]
            assert await a.store.last_version(tid) == 3
        finally:
            await _close([a, b])
    run(main())


async def _at_version_2(m, tid):
    """The table as it stood at version 2 (its deal just dealt), replayed from the store."""
    from service.tables import replay
    t = await m.table(tid)
    stored = await m.store.load_deal(tid, 1)
    match, dlog = replay(t.spec, 1, stored.first_version, stored.start, [])
    t.deal = dlog
    return type("At2", (), {"match": match})


def _stale_once(last_version, tid):
    """last_version that answers 2 once for `tid`: a commit landing just after the check."""
    left = [1]

    async def fake(table_id):
        if table_id == tid and left[0]:
            left[0] -= 1
            return 2
        return await last_version(table_id)
    return fake


def test_bots_resume_on_another_manager_when_theirs_dies(pg_url):
    async def main():
        a, b = await _managers(pg_url)
        try:
            seats = ["bot:easy", "bot:easy", "bot:easy", "human"]
            view, tokens, _, _ = await a.create("schafkopf", {}, 1, seats, seed=5, settings={"bot_delay_ms": 300})
            tid = view["table_id"]
            await a.deal(tid, tokens[3], 1)
            ta = await a.table(tid)
            while ta.bot_to_act() is None:                    # the human acts until a bot is to act
                seat, kind, fields = _turn(ta)
                await a.act(tid, tokens[3], kind, fields, None)
            version = ta.version
            # a dies in its bots' turn: its tasks stop, nothing is released
            a.closing = True
            a.bots.sweeper.cancel()
            ta.bots.cancel()
            await a.store.close()
            loop = asyncio.get_running_loop()
            started = loop.time()
            while loop.time() - started < 30:
                if b.live.get(tid) is not None and b.live[tid].bot_to_act() is None \
                        and b.live[tid].version > version:
                    break
                await asyncio.sleep(0.1)
            tb = b.live[tid]
            assert tb.version > version and tb.bot_to_act() is None
            assert tb.match.current.to_act() == 3 or tb.match.current.is_over()
            assert await b.store.due_bot_tables(10) == []
        finally:
            await b.close()
            await b.store.close()
    run(main())


# ---- start-up --------------------------------------------------------------------------------
def _server(*args, timeout=30):
    return subprocess.run([sys.executable, "-m", "service", "--address", "127.0.0.1:0", "--no-http", *args],
                          capture_output=True, text=True, timeout=timeout)


def test_an_unreachable_database_is_one_line_and_exit_1():
    done = _server("--database", "postgresql://postgres@127.0.0.1:1/stich")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m service: cannot open the database: cannot connect to "
                                                   "postgresql://postgres@127.0.0.1:1/stich: "), lines
    assert "Traceback" not in done.stderr


def test_a_missing_database_and_a_bad_url(pg_admin):
    done = _server("--database", pg_admin.rsplit("/", 1)[0] + "/stich_no_such_db")
    assert done.returncode == 1 and 'database "stich_no_such_db" does not exist' in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = _server("--database", "mysql://x")
    assert done.returncode == 2 and "--database: must be a postgresql://" in done.stderr
    done = _server("--database", "postgresql://a@b/c?bogus_option=1")
    assert done.returncode == 2 and "is not a valid PostgreSQL URL" in done.stderr
    done = _server("--database", "postgresql://a@b/c", "--memory")
    assert done.returncode == 2 and "exclude each other" in done.stderr


def test_stich_database_env_starts_servers_that_share_tables(pg_url, tmp_path):
    from service.testing import ServerProcess
    from stich_client import StichClient
    env = {"STICH_DATABASE": pg_url}
    with ServerProcess(tmp_path, "--no-http", env=env) as one, ServerProcess(tmp_path, "--no-http", env=env) as two:
        assert "data: postgresql://postgres@127.0.0.1:" in one.banner and "tables stored" in one.banner
        with StichClient(one.address) as a, StichClient(two.address) as b:
            t = a.create_table("schafkopf", {}, 1, seed=1)
            assert b.deal(t.table_id, t.tokens[0])["version"] == 2
            assert a.view(t.table_id, t.spectator_id)["version"] == 2
    assert not (tmp_path / "stich.sqlite3").exists()


def test_the_fixture_starts_its_own_server_when_none_answers():
    """The fallback of service.testing.postgres: initdb + pg_ctl on a free port, a fresh database on it."""
    import glob

    from service.testing import postgres
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("no /usr/lib/postgresql/*/bin/initdb here: the fallback cannot run")
    own = postgres.OwnServer()
    try:
        assert postgres._answers(own.url) is None
        with postgres.fresh_database(own.url) as url:
            async def main():
                from service.pgstore import PostgresStore
                s = PostgresStore(url)
                await s.open()
                await s.create_table("t_own", _spec())
                assert await s.last_version("t_own") == 1
                await s.close()
            run(main())
    finally:
        own.stop()
    assert postgres._answers(own.url) is not None


def test_a_database_that_goes_away_is_unavailable_then_served_again():
    """PostgreSQL dies under a running server: calls are UNAVAILABLE (STORE_UNAVAILABLE, so
    clients retry), nothing else breaks, and once the database is back the server serves on."""
    import glob

    from service.testing import postgres
    from service.testing import ServerProcess
    from stich_client import StichClient
    from stich_client.errors import StichError
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("no /usr/lib/postgresql/*/bin/initdb here: no server of our own to stop")
    own = postgres.OwnServer()
    try:
        name, url = postgres.create_database(own.url)
        with ServerProcess(None, "--no-http", "--database", url) as srv, StichClient(srv.address, retries=0) as c:
            t = c.create_table("schafkopf", {}, 1, seed=2)
            own.halt()
            with pytest.raises(StichError) as info:
                c.deal(t.table_id, t.tokens[0], 1, request_id="deal-1")
            assert info.value.code.name == "UNAVAILABLE" and info.value.reason_id == "STORE_UNAVAILABLE"
            own.start()
            for _ in range(100):                       # the pool reconnects
                try:
                    v = c.deal(t.table_id, t.tokens[0], 1, request_id="deal-1")
                    break
                except StichError as err:
                    assert err.reason_id == "STORE_UNAVAILABLE", err
                    time.sleep(0.2)
            assert v["version"] == 2 and c.view(t.table_id, t.spectator_id)["version"] == 2
            assert "Traceback" not in srv.output
    finally:
        own.stop()


def test_the_several_server_flags_reach_the_store_and_the_manager(pg_url):
    """--lease-seconds, --pool-size, --sweep-seconds and --conflict-retries are used, not only parsed."""
    from service import config
    from service.server import Server

    cfg = config.parse(["--database", pg_url, "--address", "127.0.0.1:0", "--no-http", "--lease-seconds", "7.5",
                        "--pool-size", "3", "--sweep-seconds", "0.25", "--conflict-retries", "2",
                        "--synchronous-commit", "off"])

    async def main():
        server = await Server(cfg).start()
        try:
            assert (server.store.lease_seconds, server.store.pool_size) == (7.5, 3)
            assert (server.manager.sweep_seconds, server.manager.conflict_retries) == (0.25, 2)
            assert (await server.store._one("SHOW synchronous_commit"))[0] == "off"
        finally:
            await server.stop()
    run(main())
    defaults = config.parse(["--memory"])
    assert (defaults.lease_seconds, defaults.sweep_seconds, defaults.pool_size, defaults.conflict_retries) == (3.0, 1.0, 8, 8)
    assert defaults.synchronous_commit == ""                   # the database's own setting
    bad = subprocess.run([sys.executable, "-m", "service", "--memory", "--synchronous-commit", "maybe"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--synchronous-commit: must be one of on, off, local" in bad.stderr


# ---- round trips and the listening connection ------------------------------------------------------
def _trips(m):
    return m.store.round_trips


def _onward(table):
    """A turn that keeps the deal going: a Wenz bid where one may be bid, else the first legal."""
    state = table.match.current
    legal = state.legal_actions()
    chosen = next((a for a in legal if a.get("call") == "wenz"), legal[0])
    return state.to_act(), *_fields(chosen)


def test_an_action_is_one_round_trip_and_a_read_one(pg_url):
    """A Deal, a card with a request id and a bot's reply each cost the store one round trip
    (one statement): no freshness read before an action, the notices keep the table current."""
    async def main():
        a, b = await _managers(pg_url)
        try:
            view, tokens, _, _ = await a.create("schafkopf", {}, 1, [], seed=5)
            tid = view["table_id"]
            before = _trips(a)
            await a.deal(tid, tokens[0], 1, "rid-deal")
            assert _trips(a) - before == 1
            for i in range(6):
                table = await a.table(tid)
                seat, kind, fields = _onward(table)
                before = _trips(a)
                await a.act(tid, tokens[seat], kind, fields, table.version, f"rid-{i}")
                assert _trips(a) - before == 1, i
            before = _trips(a)
            assert (await a.view(tid, tokens[0]))["version"] == 8
            assert _trips(a) - before == 1                        # a read asks the store once
            # b holds the table, a moves it: b hears the notice and judges on the fresh table
            await b.table(tid)
            seat, kind, fields = _onward(await a.table(tid))
            await a.act(tid, tokens[seat], kind, fields, None)
            assert await _until(lambda: b.freshness.heard.get(tid) == 9)
            seat, kind, fields = _onward(await a.table(tid))
            assert (await b.act(tid, tokens[seat], kind, fields, None))["version"] == 10
        finally:
            await _close([a, b])
    run(main())


async def _until(predicate, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return predicate()


async def _terminate_listener(m) -> None:
    """pg_terminate_backend of the manager's LISTEN connection (an operator's or a network's doing)."""
    row = await m.store._one("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             "WHERE application_name=%s", (m.store.listener_name,))
    assert row[0] == 1


def test_a_lost_listen_connection_is_caught_up(pg_url):
    """b's LISTEN connection is terminated and a commits while b hears nothing: b's copy stays
    behind, and b takes every held table for possibly behind. Once b listens again its watched
    table catches up at once, and the other is read from the store before its next action (no
    commit of b meets a newer version)."""
    async def main():
        a, b = await _managers(pg_url)
        b.store.reconnect_seconds = 1.0           # a deaf spell long enough for a's commits
        conflicts = _count_conflicts(b.store)
        try:
            assert await _until(lambda: a.store.listening and b.store.listening)
            view, tokens, _, _ = await a.create("schafkopf", {}, 1, [], seed=9)
            wview, wtokens, wspectator, _ = await a.create("schafkopf", {}, 1, [], seed=10)
            tid, wid = view["table_id"], wview["table_id"]
            await a.deal(tid, tokens[0], 1)
            await a.deal(wid, wtokens[0], 1)
            held = await b.table(tid)
            assert held.version == 2 and not b.freshness.behind(held)
            events = []

            async def watch():
                async for e in await b.watch(wid, wspectator, 0):
                    events.append(e["version"])
                    if e["version"] >= 3:
                        return
            watcher = asyncio.ensure_future(watch())
            assert await _until(lambda: events == [1, 2])

            await _terminate_listener(b)
            assert await _until(lambda: not b.store.listening)
            for t, toks in ((tid, tokens), (wid, wtokens)):
                seat, kind, fields = _onward(await a.table(t))
                assert (await a.act(t, toks[seat], kind, fields, 2))["version"] == 3
            await asyncio.sleep(0.1)
            assert not b.store.listening and b.live[tid].version == 2 and tid not in b.freshness.heard
            assert b.freshness.behind(held) and events == [1, 2]        # deaf: asks before acting

            assert await _until(lambda: b.store.listening)
            await asyncio.wait_for(watcher, 10)                          # watched: caught up at once
            assert events == [1, 2, 3]
            assert b.live[tid].version == 2 and b.freshness.behind(held)  # held: before its next action
            seat, kind, fields = _onward(await a.table(tid))
            assert (await b.act(tid, tokens[seat], kind, fields, None, "rid-b"))["version"] == 4
            assert conflicts == [] and not b.freshness.behind(held)
        finally:
            await _close([a, b])
    run(main())


def test_lost_pool_connections_are_unavailable_once_then_replaced(pg_url):
    """Every pooled connection of b is terminated (PostgreSQL restarted them, a proxy dropped
    them): a call on a dead one is UNAVAILABLE (the client retries with its request id), the
    pool replaces it, and the retry is answered once, at the right version."""
    from service import errors
    from service.store import Unavailable

    async def main():
        a, b = await _managers(pg_url)
        try:
            view, tokens, _, _ = await a.create("schafkopf", {}, 1, [], seed=12)
            tid = view["table_id"]
            await b.deal(tid, tokens[0], 1, "rid-deal")
            row = await a.store._one("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                     "WHERE application_name=%s", (b.store.pool_name,))
            assert row[0] >= 1
            seat, kind, fields = _onward(b.live[tid])                   # held: no read
            answers, unavailable = [], 0
            for _ in range(b.store.pool_size + 2):
                try:
                    answers.append(await b.act(tid, tokens[seat], kind, fields, 2, "rid-1"))
                    break
                except (Unavailable, errors.ServiceError) as err:
                    assert isinstance(err, Unavailable) or err.reason == "STORE_UNAVAILABLE", err
                    unavailable += 1
            assert answers and answers[0]["version"] == 3 and unavailable >= 1
            again = await b.act(tid, tokens[seat], kind, fields, 2, "rid-1")      # answered once
            assert again["version"] == 3 and await a.store.last_version(tid) == 3
        finally:
            await _close([a, b])
    run(main())


def test_a_bots_action_is_one_round_trip(pg_url):
    """Bots answering a person: the lease is taken once, then each bot's commit (which keeps
    the lease this server's while a bot is to act) is the bot's only round trip."""
    from service.pgstore import PostgresStore

    async def main():
        s = PostgresStore(pg_url, "solo", lease_seconds=5.0)
        await s.open()
        m = TableManager(s, ThreadPoolExecutor(2), sweep_seconds=3600)     # no sweep in the count
        m.start()
        try:
            assert await _until(lambda: s.listening)           # else every action asks first
            seats = ["human", "bot:easy", "bot:easy", "bot:easy"]
            view, tokens, _, _ = await m.create("schafkopf", {}, 1, seats, seed=6)
            tid = view["table_id"]
            table = await m.table(tid)
            before, version = s.round_trips, table.version
            await m.deal(tid, tokens[0], 1)
            humans, runs = 1, 0                                # the Deal, the person's actions; bots' runs
            for _ in range(40):
                if table.bots is not None and not table.bots.done() or table.bot_to_act() is not None:
                    runs += 1
                    await table.bots
                if table.match.current.is_over():
                    break
                seat, kind, fields = _onward(table)
                await m.act(tid, tokens[0], kind, fields, None)
                humans += 1
            bot_actions = table.version - version - humans
            assert bot_actions >= 6 and runs >= 2
            # one round trip a person's action and a bot's, and one lease a run of bots
            assert s.round_trips - before == humans + bot_actions + runs
        finally:
            await m.close()
            await s.close()
    run(main())
