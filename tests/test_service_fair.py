"""Fair play, and a server analysis cannot stall (issue 27, items 3 and 4), against a real
server process: Analyze and Hint have a bounded pool of their own, so a bot table goes on
moving under analysis load; a call whose deadline passed stops its search; nobody learns a
day's deal before playing it."""
from __future__ import annotations

import datetime as dt
import json
import random
import sqlite3
import threading
import time

import grpc
import pytest

from engine_core import games
from stich_client import StichClient
from stich_client.errors import error_info
from stich_client.gen.stich.v1 import stich_service_pb2 as pb

from service.testing import ServerProcess, wait_until


def _reason(err: grpc.RpcError) -> str:
    info = error_info(err)
    return info.reason if info is not None else ""


def _heavy_record() -> str:
    """A played Doppelkopf deal: analysing every card with 5,000,000 nodes a search takes
    minutes."""
    state = games.get("doppelkopf").deal(3, 0)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return json.dumps(state.record())


def _analyze_in_background(client, count: int, timeout: float) -> list:
    """`count` Analyze calls at once from threads; their outcomes (a status code or "OK")."""
    record = _heavy_record()
    outcomes: list = []

    def one():
        try:
            client.stub.Analyze(pb.AnalyzeRequest(record=record, budget=5_000_000), timeout=timeout)
            outcomes.append("OK")
        except grpc.RpcError as err:
            outcomes.append((err.code(), _reason(err)))
    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    return outcomes


def test_bots_move_while_analysis_runs(client):
    """Six Analyze calls at once (four over the per-peer bound): the four are refused at once,
    never queued, and while the two admitted ones search, a bot table goes on moving: the
    searches run in the analysis pool without the GIL, never on the table threads. (A fixed
    rate in a fixed time failed on a busy machine; a starved table makes no move at all while
    the searches run, which is what this asks. The deal is random: when all four bots pass it
    ends after four actions and the next deal is started.)"""
    record = _heavy_record()
    calls = [client.stub.Analyze.future(pb.AnalyzeRequest(record=record, budget=5_000_000), timeout=120)
             for _ in range(6)]
    try:
        assert wait_until(lambda: sum(c.done() for c in calls) >= 4, 10), "the calls over the bound waited"
        refused = [c for c in calls if c.done()]
        assert len(refused) == 4
        for call in refused:
            assert (call.code(), _reason(call.exception())) == (grpc.StatusCode.RESOURCE_EXHAUSTED,
                                                                "TOO_MUCH_ANALYSIS")
        searching = [c for c in calls if not c.done()]
        n = games.get("schafkopf").seats
        table = client.create_table("schafkopf", {}, 4, ["bot:easy"] * n)
        start = client.deal(table.table_id)["version"]

        def moved() -> int:
            """The bots' actions since the first deal; a deal they all passed (over after the
            four bids) is followed by the next, so a short deal never reads as a starved table."""
            view = client.view(table.table_id, table.spectator_id)
            if view["phase"] == "over" and view["status"] != "match_over":
                client.deal(table.table_id)
            return view["version"] - start
        assert wait_until(lambda: moved() >= 8, 30, step=0.1), f"the bots made {moved()} moves"
        assert not any(c.done() for c in searching), "the analyses ended before the bots were measured"
    finally:
        for call in calls:
            call.cancel()


def test_an_analysis_whose_deadline_passed_stops_and_frees_its_place(tmp_path):
    """Two analyses whose callers give up after a second: their searches stop, so a third
    call is admitted again within seconds (the per-peer bound is two)."""
    with ServerProcess(tmp_path) as server, StichClient(server.address, timeout=30) as client:
        _deadline_frees_the_place(client)


def _deadline_frees_the_place(client):
    quick = json.dumps(games.get("schafkopf").deal(1, 0).record())      # in the auction: quick

    def admitted():
        try:
            client.stub.Analyze(pb.AnalyzeRequest(record=quick), timeout=10)
            return True
        except grpc.RpcError as err:
            assert _reason(err) == "TOO_MUCH_ANALYSIS", err
            return False
    outcomes = _analyze_in_background(client, 2, timeout=1.0)
    assert wait_until(lambda: len(outcomes) == 2, 10), outcomes
    assert all(o[0] == grpc.StatusCode.DEADLINE_EXCEEDED for o in outcomes), outcomes
    started = time.monotonic()
    assert wait_until(admitted, 8, step=0.25)
    assert time.monotonic() - started < 8


# ---- the daily deal cannot be known or rehearsed -------------------------------------------------
def _today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def _server_daily_key(server) -> bytes:
    db = sqlite3.connect(str(server.data_dir / "stich.sqlite3"))
    try:
        return bytes.fromhex(db.execute("SELECT value FROM server_keys WHERE name='daily-v2'").fetchone()[0])
    finally:
        db.close()


def test_the_daily_deal_is_keyed_by_the_servers_secret(server, client):
    """The public v1 formula no longer tells the day's cards: the seed is an HMAC under the
    key the server made at its first start and keeps in its store."""
    today = _today()
    daily = client.daily_deal("schafkopf")
    hand = sorted(daily["view"]["hand"])
    dealer = daily["view"]["dealer"]
    public = games.get("schafkopf").deal(games.daily_seed("schafkopf", today), dealer)
    assert hand != sorted(public.view(0)["hand"])
    key = _server_daily_key(server)
    assert len(key) == 32
    keyed = games.get("schafkopf").deal(games.keyed_daily_seed(key, "schafkopf", today), dealer)
    assert hand == sorted(keyed.view(0)["hand"])


def test_no_practice_table_of_a_day_not_over(client):
    """CreateTable(daily_date=today) would rehearse the daily deal with hints and the same
    bots: refused for today and every later day; a past day is practice."""
    today = dt.date.fromisoformat(_today())
    for day in (today, today + dt.timedelta(days=1), today + dt.timedelta(days=400)):
        with pytest.raises(grpc.RpcError) as err:
            client.stub.CreateTable(pb.CreateTableRequest(game="schafkopf", daily_date=day.isoformat()),
                                    timeout=10)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert _reason(err.value) == "DAILY_NOT_OVER"
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    a = client.create_table("schafkopf", {}, 1, daily_date=yesterday)
    b = client.create_table("schafkopf", {}, 1, daily_date=yesterday)
    assert client.deal(a.table_id, a.tokens[0])["hand"] == client.deal(b.table_id, b.tokens[0])["hand"]


def test_new_daily_players_are_limited_per_address(tmp_path):
    """Every new player secret a client made up was a new leaderboard entry: now the server
    issues the identities, one address gets at most a few a day, a made-up one is refused, and
    a player who comes back (with the issued token, at any game) is not a new one."""
    from service.daily import PLAYERS_PER_ADDRESS
    with ServerProcess(tmp_path) as server, StichClient(server.address, timeout=30) as client:
        first = [client.daily_deal("klaverjas") for _ in range(PLAYERS_PER_ADDRESS)]
        players = {d["player_token"] for d in first}
        assert len(players) == PLAYERS_PER_ADDRESS and len({d["table_id"] for d in first}) == PLAYERS_PER_ADDRESS
        for made_up in ("player-secret-0001", "pt_" + "a" * 32 + "." + "b" * 32):
            with pytest.raises(grpc.RpcError) as err:
                client.stub.GetDailyDeal(pb.GetDailyDealRequest(game="klaverjas", player_token=made_up), timeout=10)
            assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert _reason(err.value) == "BAD_PLAYER_TOKEN"
        for game in ("klaverjas", "schafkopf"):
            with pytest.raises(grpc.RpcError) as err:
                client.stub.GetDailyDeal(pb.GetDailyDealRequest(game=game), timeout=10)
            assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _reason(err.value) == "TOO_MANY_DAILY_PLAYERS"
        again = client.daily_deal("klaverjas", first[0]["player_token"])
        assert again["table_id"] == first[0]["table_id"] and again["token"] == first[0]["token"]   # resumes
        other = client.daily_deal("schafkopf", first[-1]["player_token"])                         # another game
        assert other["player_token"] == first[-1]["player_token"]


def test_a_nickname_is_one_players_per_game_and_day(tmp_path):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from service.errors import ServiceError
    from service.manager import TableManager
    from service.store import SqliteStore

    async def finish(m, table_id, token):
        for _ in range(400):
            state = (await m.table(table_id)).match.current
            if state.is_over():
                return
            if state.to_act() == 0:
                action = state.legal_actions()[0]
                await m.act(table_id, token, action["type"],
                            {k: v for k, v in action.items() if k not in ("seat", "type")}, None)
            await asyncio.sleep(0.01)
        raise AssertionError("the daily deal did not end")

    async def run():
        store = SqliteStore(str(tmp_path))
        await store.open()
        m = TableManager(store, ThreadPoolExecutor(2))
        tables = []
        for _ in range(2):
            _, table_id, token, _, player = await m.daily("klaverjas", "", "10.0.0.1")
            await finish(m, table_id, token)
            tables.append((table_id, token, player))
        (t1, k1, s1), (t2, k2, s2) = tables
        await m.submit_daily(t1, k1, "Anna", s1)
        with pytest.raises(ServiceError) as err:
            await m.submit_daily(t2, k2, "anna", s2)
        assert err.value.reason == "NICKNAME_TAKEN"
        await m.submit_daily(t2, k2, "Bert", s2)
        assert (await store.daily_entries("klaverjas", m.today(), 10))[1] == 2
        key = await store.server_key("daily-v2", "00" * 32)
        assert key != "00" * 32 and await store.server_key("daily-v2", "11" * 32) == key   # made once
        await m.close()
        await store.close()
    asyncio.run(run())
