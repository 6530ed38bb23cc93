"""The table manager in-process (no gRPC): what leaves memory and comes back from the store,
and the store interface's compare-and-set; on SQLite and on PostgreSQL (a fresh database)."""
from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.manager import TableManager
from service.store import Commit, Conflict, SqliteStore

from pg_util import pg_admin, pg_url  # noqa: F401 - fixtures


def run(coro):
    return asyncio.run(coro)


@pytest.fixture(params=["sqlite", "postgres"])
def new_store(request, tmp_path):
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
                    if tid not in m.live:
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
