"""Operations (docs/operations.md): one log line per RPC on both doors that never carries a
secret or a hidden card, the Prometheus metrics at /metrics moving as calls are made, WatchTable
streams ending UNAVAILABLE when the server stops (both doors), and deadlines: a call whose
deadline passes before its turn at the table changes nothing.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import logging
import re
import signal
import struct
import threading
import time
import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from engine_core.match import Match
from engine_core import games
from stich_client import StichClient
from stich_client.gen.stich.v1 import stich_service_pb2 as pb

from service.testing import ServerProcess, wait_until

LINE = re.compile(r"\brpc (.*)$")
FIELDS = {"door": r"grpc|http", "method": r"[A-Z][A-Za-z]+", "table": r"-|t_[A-Za-z0-9_\-]{1,40}",
          "code": r"[A-Z_]+", "ms": r"\d+\.\d\d", "reason": r"[A-Z][A-Z0-9_]+", "peer": r"ipv[46]:[0-9a-f.:\[\]]+"}
CARD = re.compile(r"\b[789TJQKA][CSHD]\b")


def post(address: str, method: str, body: dict, headers: dict | None = None):
    """A Connect unary call in JSON: (HTTP status, decoded body)."""
    conn = http.client.HTTPConnection(address, timeout=20)
    conn.request("POST", f"/stich.v1.StichService/{method}", json.dumps(body),
                 {"content-type": "application/json", **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, json.loads(data) if data else None


def rpc_lines(output: str) -> list[dict]:
    """The RPC log lines of a server's output, parsed; each must have exactly the documented
    keys, each value of its documented shape (so nothing else can hide in a line)."""
    out = []
    for line in output.splitlines():
        m = LINE.search(line)
        if not m:
            continue
        fields = dict(pair.split("=", 1) for pair in m.group(1).split(" "))
        assert {"door", "method", "table", "code", "ms"} <= set(fields) <= set(FIELDS), line
        for key, value in fields.items():
            assert re.fullmatch(FIELDS[key], value), (key, value, line)
        out.append(fields)
    return out


def scrape(address: str) -> dict:
    """{(metric sample name, frozenset of labels): value} of /metrics."""
    text = urllib.request.urlopen(f"http://{address}/metrics", timeout=10).read().decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(metrics: dict, name: str, **labels) -> float:
    return metrics.get((name, frozenset(labels.items())), 0.0)


def play_to_the_end(client: StichClient, table_id: str, tokens: dict[int, str], game: str, seed: int) -> None:
    """Every seat human: the engine's own copy of the match says who acts and what is legal."""
    match = Match(games.get(game), seed, 0, 1, keep_results=False)
    match.deal()
    client.deal(table_id, tokens[0])
    while not match.current.is_over():
        action = match.current.legal_actions()[-1]
        client.act(table_id, tokens[action["seat"]], {k: v for k, v in action.items() if k != "seat"})
        match.apply(action)


# ---- logs -------------------------------------------------------------------------------------------
ACTIONS = ("Bid", "Exchange", "Announce", "Play")


def test_one_log_line_per_rpc_on_both_doors_and_no_secret_or_card_in_the_log():
    """A played table (with a refused card whose error carries the seat's legal cards), an
    invite joined, a daily deal with a server-issued player token, calls over Connect: every call is one line
    of the documented keys, and the server's whole output holds no token, spectator id, invite,
    secret or card."""
    with ServerProcess(None) as srv, StichClient(srv.address, timeout=20, retries=0) as c:
        t = c.create_table("schafkopf", {}, 1, seed=11)
        match = Match(games.get("schafkopf"), 11, 0, 1, keep_results=False)
        match.deal()
        c.deal(t.table_id, t.tokens[0])
        acts, refused_card = 0, None
        while not match.current.is_over():
            legal = match.current.legal_actions()
            action = legal[-1]
            seat = action["seat"]
            if action["type"] == "play" and refused_card is None:
                refused_card = next(card for other in range(4) if other != seat
                                    for card in match.current.view(other)["hand"])
                with pytest.raises(Exception):         # refused: its `legal` lists the seat's cards
                    c.play(t.table_id, t.tokens[seat], refused_card)
            c.act(t.table_id, t.tokens[seat], {k: v for k, v in action.items() if k != "seat"})
            match.apply(action)
            acts += 1
        assert refused_card is not None
        events = list(c.watch(t.table_id, t.spectator_id))
        room = c.create_table("schafkopf", {}, 1, seats=["human", "open", "human", "human"], seed=12)
        [invite] = room.invites.values()
        _, joined_token, _ = c.join_table(invite)
        daily = c.daily_deal("schafkopf")
        secret = daily["player_token"]
        status, body = post(srv.http_address, "GetView", {"tableId": t.table_id, "token": t.tokens[0]})
        assert status == 200, body
        status, body = post(srv.http_address, "GetView", {"tableId": t.table_id, "token": "st_wrong." + t.table_id})
        assert status == 403 and body["code"] == "permission_denied"
        expected = 2 + acts + 1 + 1 + 2 + 1 + 2          # create, deal, acts, refused, watch, room, join, daily, http
        assert wait_until(lambda: len(rpc_lines(srv.output)) >= expected, 10)
        time.sleep(0.3)
        output = srv.output
    lines = rpc_lines(output)
    assert len(lines) == expected, [(f["door"], f["method"]) for f in lines]
    grpc_lines = [f for f in lines if f["door"] == "grpc"]
    http_lines = [f for f in lines if f["door"] == "http"]
    assert [f["method"] for f in grpc_lines[:2]] == ["CreateTable", "Deal"]
    played = [f for f in grpc_lines if f["method"] in ACTIONS]
    assert len(played) == acts + 1 and all(f["table"] == t.table_id for f in played)
    [refused] = [f for f in played if f["code"] != "OK"]
    assert refused["method"] == "Play" and refused["code"] == "FAILED_PRECONDITION"
    assert refused["reason"] == "CARD_NOT_IN_HAND"
    [watch] = [f for f in grpc_lines if f["method"] == "WatchTable"]
    assert watch["code"] == "OK" and watch["table"] == t.table_id and len(events) > acts
    [join] = [f for f in grpc_lines if f["method"] == "JoinTable"]
    assert join["table"] == room.table_id and join["code"] == "OK"       # from the invite, not its secret
    assert next(f for f in grpc_lines if f["method"] == "GetDailyDeal")["table"] == daily["table_id"]
    assert all(f["peer"] == "ipv4:127.0.0.1" for f in lines)
    assert [(f["method"], f["code"]) for f in http_lines] == [("GetView", "OK"), ("GetView", "PERMISSION_DENIED")]
    assert http_lines[1]["reason"] == "BAD_SEAT_TOKEN"
    secrets = [*t.tokens.values(), t.spectator_id, *room.tokens.values(), room.spectator_id, invite,
               joined_token, secret, daily["token"]]
    for s in secrets:
        assert s.split(".")[0] not in output, "a secret is in the server's output"
    without_ids = re.sub(r"t_[A-Za-z0-9_\-]+", "t_", output)
    assert not CARD.findall(without_ids), CARD.findall(without_ids)[:5]


# ---- metrics ----------------------------------------------------------------------------------------
def test_metrics_count_calls_by_door_method_and_code_and_track_tables_streams_and_bots():
    with ServerProcess(None) as srv, StichClient(srv.address, timeout=20) as c:
        before = scrape(srv.http_address)
        tables = [c.create_table("schafkopf", {}, 1, seed=i) for i in range(3)]
        for _ in range(5):
            c.view(tables[0].table_id, tables[0].tokens[0])
        for _ in range(2):
            assert post(srv.http_address, "GetView", {"tableId": tables[0].table_id, "token": tables[0].tokens[0]})[0] == 200
        with pytest.raises(Exception):
            c.view("t_nosuchtable", "st_x.t_nosuchtable")
        streams = [c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=30)
                   for t in tables]
        for s in streams:
            assert next(s).event.version == 1
        during = scrape(srv.http_address)
        for s in streams:
            s.cancel()
        bots = c.create_table("schafkopf", {}, 1, seats=["human", "bot:easy", "bot:easy", "bot:easy"], seed=4)
        c.deal(bots.table_id, bots.tokens[0])
        c.wait_turn(bots.table_id, bots.tokens[0])
        play_to_the_end(c, tables[1].table_id, tables[1].tokens, "schafkopf", 1)
        assert wait_until(lambda: value(scrape(srv.http_address), "stich_watch_streams", door="grpc") == 0, 10)
        after = scrape(srv.http_address)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("stich_rpcs_total", door="grpc", method="CreateTable", code="OK") == 4
    assert delta("stich_rpcs_total", door="grpc", method="GetView", code="OK") >= 5
    assert delta("stich_rpcs_total", door="http", method="GetView", code="OK") == 2
    assert delta("stich_rpcs_total", door="grpc", method="GetView", code="NOT_FOUND") == 1
    assert delta("stich_rpc_duration_seconds_count", door="http", method="GetView", code="OK") == 2
    assert delta("stich_rpc_duration_seconds_bucket", door="http", method="GetView", code="OK", le="+Inf") == 2
    assert delta("stich_rpcs_total", door="grpc", method="WatchTable", code="CANCELLED") >= 3
    assert value(during, "stich_watch_streams", door="grpc") == 3
    assert value(during, "stich_open_tables") == value(before, "stich_open_tables") + 3
    # the finished table left memory (nobody watches it); the other two and the bots' table stay
    assert value(after, "stich_open_tables") == value(before, "stich_open_tables") + 3
    assert delta("stich_bot_think_seconds_count", game="schafkopf", level="easy") >= 1
    assert value(after, "process_resident_memory_bytes") > 10 * 2 ** 20


# ---- shutdown ---------------------------------------------------------------------------------------
def _connect_stream(address: str, table_id: str, token: str):
    """WatchTable over Connect: a generator of (flags, message) envelopes."""
    conn = http.client.HTTPConnection(address, timeout=30)
    request = json.dumps({"tableId": table_id, "token": token}).encode()
    conn.request("POST", "/stich.v1.StichService/WatchTable", struct.pack(">BI", 0, len(request)) + request,
                 {"content-type": "application/connect+json", "connect-protocol-version": "1"})
    r = conn.getresponse()
    assert r.status == 200
    while True:
        head = r.read(5)
        if len(head) < 5:
            return
        flags, size = struct.unpack(">BI", head)
        yield flags, json.loads(r.read(size))


def test_watch_streams_end_unavailable_when_the_server_stops():
    """SIGTERM: an open WatchTable ends UNAVAILABLE (SHUTTING_DOWN) on the gRPC door and with
    Connect's `unavailable` on the HTTP door, not OK, so that clients watch again elsewhere;
    the server still exits 0."""
    srv = ServerProcess(None)
    try:
        with StichClient(srv.address, timeout=20) as c:
            t = c.create_table("schafkopf", {}, 1, seed=5)
            stream = c.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=30)
            assert next(stream).event.version == 1
            connect = _connect_stream(srv.http_address, t.table_id, t.tokens[0])
            flags, first = next(connect)
            assert flags == 0 and first["event"]["version"] == 1
            srv.proc.send_signal(signal.SIGTERM)
            with pytest.raises(grpc.RpcError) as ended:
                next(stream)
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "shutting down" in ended.value.details()
            flags, last = next(connect)
            assert flags & 2 and last["error"]["code"] == "unavailable", last
        assert srv.stop() == 0
    finally:
        srv.kill()


# ---- deadlines --------------------------------------------------------------------------------------
class InProcess:
    """A server on a thread's event loop, so that the test can hold its table thread."""

    def __init__(self):
        from service.config import Config
        from service.server import Server
        self.loop = asyncio.new_event_loop()
        self.server = Server(Config(address="127.0.0.1:0", http_address="127.0.0.1:0", data_dir=None,
                                    table_threads=1, grace=1))
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self.server.start())
            ready.set()
            self.loop.run_until_complete(self.server.stopped.wait())

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(30)

    def stop(self):
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(30)
        self.thread.join(10)


def hold_commits(store) -> tuple[threading.Event, threading.Event]:
    """Make the store slow: every commit waits (off the loop, as a PostgreSQL round trip does)
    until `release` is set; `entered` is set once a commit waits."""
    release, entered = threading.Event(), threading.Event()
    commit = store.commit

    async def held(table_id, c):
        entered.set()
        await asyncio.to_thread(release.wait, 30)
        return await commit(table_id, c)
    store.commit = held
    return release, entered


def test_a_call_whose_deadline_passes_while_it_waits_changes_nothing(caplog):
    """The store's commits are held, so the first bid holds the table while its commit waits;
    the next seat's bid (gRPC, 0.3 s deadline) and its bid over Connect (connect-timeout-ms 300)
    wait behind it: both end DEADLINE_EXCEEDED and neither is applied once the thread is free.
    A call whose deadline passes after it has begun at the table completes (sections.py): its
    retry with the same request id gets that answer, and it is applied once."""
    caplog.set_level(logging.INFO, logger="stich.service.rpc")
    srv = InProcess()
    try:
        address, http_address = srv.server.address, srv.server.http.address
        with StichClient(address, timeout=30, retries=0) as c:
            t = c.create_table("schafkopf", {}, 1, seed=7)
            one = c.deal(t.table_id, t.tokens[0])["to_act"]
            two = (one + 1) % 4
            release, entered = hold_commits(srv.server.store)
            first: dict = {}
            bidder = threading.Thread(target=lambda: first.update(
                view=c.bid(t.table_id, t.tokens[one], "pass", request_id="first-bid")))
            bidder.start()
            assert entered.wait(30)            # the first bid holds the table, its commit held
            with pytest.raises(grpc.RpcError) as late:
                c.stub.Bid(pb.BidRequest(table_id=t.table_id, token=t.tokens[two], call="pass"), timeout=0.3)
            assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            status, body = post(http_address, "Bid", {"tableId": t.table_id, "token": t.tokens[two], "call": "pass"},
                                {"connect-timeout-ms": "300"})
            assert body["code"] == "deadline_exceeded", (status, body)
            release.set()
            bidder.join(10)
            assert first["view"]["version"] == 3
            view = c.view(t.table_id, t.spectator_id)
            assert view["version"] == 3 and view["to_act"] == two     # the late bids were not applied
            logged = [LINE.search(r.getMessage()).group(1) for r in caplog.records if r.name == "stich.service.rpc"]
            for door in ("grpc", "http"):
                assert any(f"door={door} method=Bid table={t.table_id} code=DEADLINE_EXCEEDED" in x for x in logged), logged

            # past its deadline inside its turn at the table: completed, and answered to a retry
            release2, _ = hold_commits(srv.server.store)
            request = pb.BidRequest(table_id=t.table_id, token=t.tokens[two], call="pass", request_id="second-bid")
            with pytest.raises(grpc.RpcError) as begun:
                c.stub.Bid(request, timeout=0.3)
            assert begun.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            release2.set()
            assert wait_until(lambda: c.view(t.table_id, t.spectator_id)["version"] == 4, 10)
            again = c.stub.Bid(request, timeout=10)
            assert again.view.version == 4 and c.view(t.table_id, t.spectator_id)["version"] == 4
    finally:
        srv.stop()
