"""The table manager in-process (no gRPC): what leaves memory and comes back from the store,
and the store interface's compare-and-set; on SQLite and on PostgreSQL (a fresh database)."""
from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.errors import ServiceError
from service.manager import TableManager
from service.sections import locked
from service.memstore import MemoryData, MemoryStore
from service.store import Commit, Conflict, SqliteStore


def run(coro):
    return asyncio.run(coro)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def new_store(request, tmp_path):
    if request.param == "memory":
        data = MemoryData()
        return lambda: MemoryStore(data)
    if request.param == "sqlite":
        return lambda: SqliteStore(str(tmp_path))
    from service.pgstore import PostgresStore
    url = request.getfixturevalue("pg_url")
    return lambda: PostgresStore(url)


async def _manager(new_store, live=10_000):
    store = new_store()
    await store.open()
    m = TableManager(store, ThreadPoolExecutor(2), live)
    m.start()
    return m, store


def test_a_finished_match_leaves_memory_and_comes_back_the_same(new_store):
    async def main():
        m, store = await _manager(new_store)
        view, tokens, spectator, _ = await m.create("schafkopf", {}, 2, ["human", "bot:easy", "bot:easy", "bot:easy"], seed=3)
        tid = view["table_id"]
        rng = random.Random(3)
        for _ in range(2):
            v = await _turn(m, tid, tokens[0], await m.deal(tid, tokens[0], None))
            while v["status"] == "in_deal":
                kind, fields = _fields(rng.choice(v["deal"]["legal"]))
                v = await _turn(m, tid, tokens[0], await m.act(tid, tokens[0], kind, fields, None))
        assert v["status"] == "match_over"
        for _ in range(400):                          # a bot's last move: its task ends first
            if tid not in m.live:
                break
            await asyncio.sleep(0.005)
        assert tid not in m.live                      # gone from memory once the match is over
        again = await m.view(tid, tokens[0])
        assert again == v and tid not in m.live        # reloaded, and gone again
        score = await m.score(tid, spectator, 1)
        assert score["deal_number"] == 1 and score["match_over"]
        await m.close()
        await store.close()
    run(main())


def test_a_match_the_bots_finish_leaves_memory_without_another_call(new_store):
    """When a bot makes the last move, nobody calls again: the table must still leave memory
    once the bots' task is done (inside the task it is not idle yet)."""
    async def main():
        m, store = await _manager(new_store)
        rng = random.Random(5)
        bot_last = 0
        for seed in range(6):
            view, tokens, _, _ = await m.create("schafkopf", {}, 1, ["human", "bot:easy", "bot:easy", "bot:easy"], seed=seed)
            tid = view["table_id"]
            v = await _turn(m, tid, tokens[0], await m.deal(tid, tokens[0], None))
            while v["status"] == "in_deal":
                kind, fields = _fields(rng.choice(v["deal"]["legal"]))
                v = await m.act(tid, tokens[0], kind, fields, None)
                if v["status"] == "in_deal" and v["deal"]["to_act"] != v["seat"]:
                    # the bots' turn: wait for the human's next turn, or the end, without a call
                    for _ in range(2000):
                        t = m.live.get(tid)
                        if t is None or t.bot_to_act() is None:
                            break
                        await asyncio.sleep(0.005)
                    t = m.live.get(tid)
                    if t is None or t.match.is_over():
                        # a bot made the last move: the table leaves memory once the bots'
                        # task is done (after its last commit, and on PostgreSQL its lease)
                        for _ in range(400):
                            if tid not in m.live:
                                break
                            await asyncio.sleep(0.005)
                        assert tid not in m.live, f"seed {seed}: the bots finished, the table stayed in memory"
                        bot_last += 1
                        break
                    v = await m.view(tid, tokens[0])
            for _ in range(400):
                if tid not in m.live:
                    break
                await asyncio.sleep(0.005)
            assert tid not in m.live, f"seed {seed}: the finished table stayed in memory"
        assert bot_last > 0, "no deal ended with a bot's move: the case is not exercised"
        await m.close()
        await store.close()
    run(main())


async def _turn(m, tid, token, v):
    """The seat's view once it is to act or the deal is over (bots act in their own task)."""
    for _ in range(2000):
        if v["status"] != "in_deal" or v["deal"]["to_act"] == v["seat"]:
            return v
        await asyncio.sleep(0.005)
        v = await m.view(tid, token)
    raise AssertionError("the bots did not finish their turns")


def _fields(action):
    return action["type"], {k: v for k, v in action.items() if k not in ("seat", "type")}


def test_at_most_live_tables_stay_in_memory(new_store):
    async def main():
        m, store = await _manager(new_store, live=3)
        made = [await m.create("schafkopf", {}, 1, [], seed=i) for i in range(8)]
        for view, tokens, _, _ in made:
            await m.deal(view["table_id"], tokens[0], None)
        assert len(m.live) <= 3
        for view, tokens, _, _ in made:               # each comes back from the store
            v = await m.view(view["table_id"], tokens[0])
            assert v["status"] == "in_deal" and v["deal_number"] == 1
        await m.close()
        await store.close()
    run(main())


def test_a_commit_on_a_stale_version_is_a_conflict(new_store):
    async def main():
        store = new_store()
        await store.open()
        await store.create_table("t_x", {"spec": 1})
        await store.commit("t_x", Commit(1, [(2, 1, None)]))
        with pytest.raises(Conflict):
            await store.commit("t_x", Commit(1, [(2, 1, None)]))
        assert (await store.load_table("t_x")).version == 2
        await store.close()
    run(main())


def test_a_commit_that_meets_its_request_id_again_is_a_conflict(new_store):
    async def main():
        store = new_store()
        await store.open()
        await store.create_table("t_x", {"spec": 1})
        first = Commit(1, [(2, 1, None)])
        first.request = ("r-1", "fp", {"answer": 1})
        await store.commit("t_x", first)
        again = Commit(2, [(3, 1, None)])           # at the right version, with an answered id
        again.request = ("r-1", "fp", {"answer": 2})
        with pytest.raises(Conflict):
            await store.commit("t_x", again)
        assert (await store.load_table("t_x")).version == 2
        assert await store.find_request("t_x", "r-1") == ("fp", {"answer": 1})
        await store.close()
    run(main())


class _Reads:
    """Counts a store's request-id reads."""

    def __init__(self, store):
        self.count = 0
        inner = store.find_request

        async def find_request(*args):
            self.count += 1
            return await inner(*args)
        store.find_request = find_request


def test_a_request_id_is_read_back_only_when_a_request_is_retried(new_store):
    async def main():
        m, store = await _manager(new_store)
        reads = _Reads(store)
        view, tokens, spectator, _ = await m.create("schafkopf", {}, 1, [], seed=5)
        tid = view["table_id"]
        dealt = await m.deal(tid, tokens[0], None, "d-1")
        seat = dealt["deal"]["to_act"]
        kind, fields = _fields((await m.view(tid, tokens[seat]))["deal"]["legal"][0])
        first = await m.act(tid, tokens[seat], kind, fields, None, "a-1")
        assert reads.count == 0                       # first uses: no reads
        assert await m.act(tid, tokens[seat], kind, fields, None, "a-1") == first
        assert await m.deal(tid, tokens[0], None, "d-1") == dealt
        assert reads.count == 2                       # each retry read its answer back
        nxt = (seat + 1) % 4
        kind2, fields2 = _fields((await m.view(tid, tokens[nxt]))["deal"]["legal"][0])
        with pytest.raises(ServiceError) as err:      # the id of another request: refused
            await m.act(tid, tokens[nxt], kind2, fields2, None, "a-1")
        assert err.value.reason == "REQUEST_ID_REUSED"
        assert (await m.view(tid, spectator))["version"] == first["version"]
        await m.close()
        await store.close()
    run(main())


def test_a_retry_that_reaches_another_server_gets_the_first_answer(pg_url):  # noqa: F811
    """Two managers over one PostgreSQL database: the second holds the table as it was before
    the first answered (its freshness check skipped, as when the first commits between that
    check and the second's judging), and a retry sent to it is not applied again."""
    from service.pgstore import PostgresStore

    async def main():
        one, store_one = await _manager(lambda: PostgresStore(pg_url))
        two, store_two = await _manager(lambda: PostgresStore(pg_url))
        view, tokens, spectator, _ = await one.create("schafkopf", {}, 1, [], seed=6)
        tid = view["table_id"]
        await one.deal(tid, tokens[0], None)
        before = await two.view(tid, spectator)          # the second server holds it now
        seat = before["deal"]["to_act"]
        kind, fields = _fields((await two.view(tid, tokens[seat]))["deal"]["legal"][0])
        first = await one.act(tid, tokens[seat], kind, fields, None, "a-1")
        two._fresh = lambda table: asyncio.sleep(0)      # judged on the table as it was
        assert await two.act(tid, tokens[seat], kind, fields, None, "a-1") == first
        assert (await one.view(tid, spectator))["version"] == before["version"] + 1
        for m, store in ((one, store_one), (two, store_two)):
            await m.close()
            await store.close()
    run(main())


# ---- a table's lock: the section runs eagerly, and to its end once begun --------------------
class _Table:
    def __init__(self):
        self.lock = asyncio.Lock()


def test_a_section_that_never_suspends_runs_in_the_callers_step_without_a_task():
    async def main():
        table, seen = _Table(), []

        async def section():
            seen.append((table.lock.locked(), asyncio.current_task()))
            return 42
        before = len(asyncio.all_tasks())
        assert await locked(table, section) == 42
        assert seen == [(True, asyncio.current_task())] and not table.lock.locked()
        assert len(asyncio.all_tasks()) == before

        async def failing():
            raise ValueError("refused")
        with pytest.raises(ValueError, match="refused"):
            await locked(table, failing)
        assert not table.lock.locked()
    run(main())


def test_a_section_that_suspends_goes_on_in_a_task_to_its_end_when_its_caller_is_cancelled():
    async def main():
        table, steps = _Table(), []
        release = asyncio.Event()

        async def section():
            steps.append("begun")
            await release.wait()                 # suspends: the rest is the task's
            steps.append("ended")
            return "answer"
        caller = asyncio.ensure_future(locked(table, section))
        await asyncio.sleep(0.01)
        assert steps == ["begun"] and table.lock.locked()
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        release.set()
        for _ in range(100):
            if not table.lock.locked():
                break
            await asyncio.sleep(0.01)
        assert steps == ["begun", "ended"] and not table.lock.locked()

        # a caller cancelled while it still waits for the lock leaves nothing
        release.clear()
        steps.clear()
        holder = asyncio.ensure_future(locked(table, section))
        await asyncio.sleep(0.01)

        async def second():
            steps.append("second")
        waiter = asyncio.ensure_future(locked(table, second))
        await asyncio.sleep(0.01)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        release.set()
        assert await holder == "answer"
        await asyncio.sleep(0.01)
        assert steps == ["begun", "ended"] and not table.lock.locked()
    run(main())


def test_sqlite_commits_on_the_loop_and_checkpoints_in_its_thread(tmp_path):
    """The loop's connection never checkpoints (wal_autocheckpoint=0); every CHECKPOINT_ROWS
    rows the store's thread copies the WAL into the database file, and closing leaves no WAL."""
    import os
    import threading

    async def main():
        store = SqliteStore(str(tmp_path))
        await store.open()
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        db = os.path.join(str(tmp_path), "stich.sqlite3")
        empty = os.path.getsize(db)
        store.CHECKPOINT_ROWS = 10
        threads = []
        checkpoint = store._checkpoint_wal
        store._checkpoint_wal = lambda: (threads.append(threading.current_thread().name), checkpoint())[1]
        for i in range(6):                          # two rows each
            await store.create_table(f"t_{i:016d}", {"game": "schafkopf"})
        assert store._checkpoint is not None        # begun after the fifth table's rows
        await store._checkpoint
        assert threads and all(name.startswith("stich-store") for name in threads)
        assert os.path.getsize(db) > empty          # the pages are in the database file now
        assert await store.count_tables() == 6
        await store.close()
        assert not os.path.exists(db + "-wal")
        again = SqliteStore(str(tmp_path))
        await again.open()
        assert await again.count_tables() == 6
        await again.close()
    run(main())


def test_a_full_disk_is_store_unavailable_and_the_retry_applies_once(tmp_path):
    """SQLite's "database or disk is full" (max_page_count stands in for the disk) answers
    UNAVAILABLE with STORE_UNAVAILABLE, never INTERNAL: the table is unchanged, and the retry
    with the same request id, once there is room, applies the action exactly once."""
    import grpc

    from service import errors as service_errors
    from service.store import Unavailable

    async def main():
        store = SqliteStore(str(tmp_path))
        await store.open()
        m = TableManager(store, ThreadPoolExecutor(2))
        view, tokens, spectator, _ = await m.create("schafkopf", {}, 1, [], seed=5)
        tid = view["table_id"]
        await m.deal(tid, tokens[0], None, "d-1")
        db = store._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count={pages}")
        failed = None
        for n in range(400):                           # until the rows no longer fit
            v = await m.view(tid, spectator)
            if v["status"] != "in_deal":
                break
            seat = v["deal"]["to_act"]
            kind, fields = _fields((await m.view(tid, tokens[seat]))["deal"]["legal"][0])
            before = v["version"]
            try:
                await m.act(tid, tokens[seat], kind, fields, None, f"a-{n}")
            except Unavailable as err:
                failed = (err, seat, kind, fields, f"a-{n}", before)
                break
        assert failed is not None, "the disk never filled"
        err, seat, kind, fields, rid, before = failed
        assert "full" in str(err)
        code, _, info = service_errors.error_info(err)
        assert code == grpc.StatusCode.UNAVAILABLE and info.reason == "STORE_UNAVAILABLE"
        assert (await m.view(tid, spectator))["version"] == before       # nothing changed
        db.execute("PRAGMA max_page_count=1073741823")                   # room again
        first = await m.act(tid, tokens[seat], kind, fields, None, rid)
        assert first["version"] == before + 1
        assert await m.act(tid, tokens[seat], kind, fields, None, rid) == first
        assert (await m.view(tid, spectator))["version"] == before + 1  # applied once
        await m.close()
        await store.close()
    run(main())


_OPEN_AT_ONCE = """
import asyncio, sys, time
from service.store import SqliteStore
start = float(sys.argv[2])
while time.time() < start:
    pass
async def main():
    store = SqliteStore(sys.argv[1], shared=True)
    try:
        await store.open()
        print("opened", await store.count_tables())
    except Exception as err:
        print("failed:", type(err).__name__, err)
    finally:
        await store.close()
asyncio.run(main())
"""


def test_processes_opening_a_new_sqlite_file_at_once_all_open_it(tmp_path):
    """The workers of --workers N open one new file at the same moment. Switching it to WAL
    needs the file's exclusive lock, and SQLite answered the loser "database is locked" at
    once (14 of 40 pairs here): that worker exited, and the supervisor stopped the server (a
    multi-worker test failed so in a fresh clone). The open is now tried again."""
    import subprocess
    import sys
    import time
    for round_ in range(4):
        start = time.time() + 1.0
        children = [subprocess.Popen([sys.executable, "-c", _OPEN_AT_ONCE, str(tmp_path / f"d{round_}"), str(start)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                    for _ in range(3)]
        outputs = [child.communicate(timeout=60)[0] for child in children]
        assert all(out.strip() == "opened 0" for out in outputs), outputs
