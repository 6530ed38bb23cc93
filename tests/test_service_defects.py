"""Regression tests of the defects D1-D17 of issue 11, each against a real server process.
Each fails on the thread-per-call server (run them against it with STICH_TEST_SERVER_PYTHON /
STICH_TEST_SERVER_PYTHONPATH, see service/process.py); the games a test needs must be built.
"""
from __future__ import annotations

import json
import random
import sqlite3
import statistics
import struct as pystruct
import threading
import time
import uuid

import grpc
import pytest
from google.protobuf import struct_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from engine_core import _codec, games
from engine_core._rng import deal_seed
from stich_client import StichClient, convert
from stich_client.errors import error_info
from stich_client.gen.stich.v1 import stich_service_pb2 as pb, stich_service_pb2_grpc as pb_grpc

from service.testing import ServerProcess
from service.testing.hidden import Mirror, card_strings


def _error(call, request, timeout=10) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=timeout)
    return caught.value


def _reason(err) -> str:
    info = error_info(err)
    assert info is not None and info.domain == "stich.v1", (err.code(), err.details())
    return info.reason


def _finished_record(game="schafkopf", seed=1) -> dict:
    state = games.get(game).deal(seed, seed % games.get(game).seats)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


# ---- D1: idle streams take no thread; health and unary calls go on ----------------------------
def test_d1_idle_streams_and_slow_calls_do_not_starve_other_calls(server, client):
    t = client.create_table("schafkopf", {}, 1, seed=1)
    channels = [grpc.insecure_channel(server.address) for _ in range(4)]
    gate = threading.Event()

    def nothing():
        gate.wait()
        return
        yield  # noqa: an iterator that sends nothing until the end of the test

    opened = []
    health = health_pb2_grpc.HealthStub(client.channel)

    def answers_quickly():
        latencies = []
        for _ in range(20):
            t0 = time.perf_counter()
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=2).status == \
                health_pb2.HealthCheckResponse.SERVING
            client.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=t.spectator_id), timeout=2)
            latencies.append(time.perf_counter() - t0)
        assert statistics.median(latencies) < 0.05, latencies

    try:
        for i in range(64):                      # idle EvaluateRecords streams, no token needed
            opened.append(pb_grpc.StichServiceStub(channels[i % 4]).EvaluateRecords(nothing(), timeout=60))
        time.sleep(0.5)
        answers_quickly()
        watchers = [pb_grpc.StichServiceStub(channels[i % 4]).WatchTable(
            pb.WatchTableRequest(table_id=t.table_id, token=t.spectator_id), timeout=60) for i in range(48)]
        opened += watchers
        firsts = []
        readers = [threading.Thread(target=lambda w=w: firsts.append(next(w).event.version)) for w in watchers]
        for r in readers:
            r.start()
        for r in readers:
            r.join(5)
        assert firsts == [1] * 48                # every watcher got its first event at once
        slow = [pb_grpc.StichServiceStub(channels[i % 4]).Simulate.future(
            pb.SimulateRequest(game="schafkopf", deals=300_000, seed=i), timeout=60) for i in range(16)]
        time.sleep(0.3)
        answers_quickly()
        for f in slow:
            assert f.result(timeout=60).deals == 300_000
    finally:
        gate.set()
        for call in opened:
            call.cancel()
        for ch in channels:
            ch.close()


# ---- D2, D15, D3: face-down cards never reach another seat, on any path ------------------------
def _play_service(client, t, mirror, choose, stop=None):
    """Play the deal through the service, each action chosen by `choose(state, legal)`; every
    view of every seat and of the spectator checked at each step."""
    n = mirror.seats
    tokens = {s: t.tokens[s] for s in range(n)} | {None: t.spectator_id}
    client.deal(t.table_id, t.tokens[0])
    while not mirror.state.is_over():
        for v in tokens:
            msg = client.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=tokens[v]), timeout=10).view
            mirror.check(msg, v, where="view")
        if stop is not None and stop(mirror.state):
            return
        seat = mirror.state.to_act()
        action = choose(mirror.state, mirror.state.legal_actions())
        client.act(t.table_id, t.tokens[seat], action)
        mirror.apply(action)


def _all_messages_after_the_deal(client, t, mirror):
    n = mirror.seats
    for v in [*range(n), None]:
        token = t.tokens[v] if v is not None else t.spectator_id
        score = client.stub.Score(pb.ScoreRequest(table_id=t.table_id, token=token), timeout=10)
        mirror.check(score, v, where="score")
        view = client.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=token), timeout=10)
        mirror.check(view, v, where="view after the deal")
        version = view.view.version
        events = []
        stream = client.stub.WatchTable(pb.WatchTableRequest(table_id=t.table_id, token=token), timeout=20)
        for r in stream:                 # up to now (a redealt deal does not end the match)
            events.append(r)
            if r.event.version >= version:
                stream.cancel()
                break
        for r in events:
            mirror.check(r.event, v, where=f"event {r.event.version}")
        yield v, score, events


def test_d2_the_sheepshead_bury_stays_hidden_in_score_and_events(client):
    seed = 7
    t = client.create_table("sheepshead", {}, 1, seed=seed)
    mirror = Mirror(games.get("sheepshead").deal(deal_seed(seed, 0), 0))
    buried = []

    def choose(state, legal):
        picks = [a for a in legal if a.get("call") == "pick"]
        if picks:
            return picks[0]
        if legal[0]["type"] == "exchange" and legal[0]["call"] == "bury":
            buried.extend(legal[0]["cards"])
        return legal[0]

    _play_service(client, t, mirror, choose)
    assert len(buried) == 2
    picker = mirror.state.result()["contract"]["declarer"]
    for v, score, events in _all_messages_after_the_deal(client, t, mirror):
        shown = card_strings(score) | card_strings(events[-1].event)
        if v == picker:
            assert set(buried) <= shown
        else:
            assert not set(buried) & shown
            assert convert.result_dict(score.result)["contract"]["buried"] == ["??", "??"]


def test_d15_the_cards_of_a_void_armut_stay_hidden_after_the_deal(client):
    g = games.get("doppelkopf")
    for seed in range(500):
        state = g.deal(deal_seed(seed, 0), 0)
        if any(a.get("call") == "armut" for a in state.legal_actions()):
            break
    else:
        pytest.skip("no seat can bid armut first in 500 deals")
    t = client.create_table("doppelkopf", {}, 1, seed=seed)
    mirror = Mirror(g.deal(deal_seed(seed, 0), 0))
    given = []

    def choose(state, legal):
        for call in ("armut", "healthy", "decline"):
            for a in legal:
                if a.get("call") == call and (call != "armut" or not given):
                    return a
        if legal[0].get("call") == "armut_give":
            given.extend(legal[0]["cards"])
        return legal[0]

    _play_service(client, t, mirror, choose)
    assert mirror.state.result()["redeal"] and len(given) == 3
    poor = next(a["seat"] for a in mirror.state.actions if a.get("call") == "armut_give")
    for v, score, events in _all_messages_after_the_deal(client, t, mirror):
        shown = card_strings(score) | {c for r in events for c in card_strings(r.event)}
        if v != poor:
            assert not set(given) & (shown - mirror.allowed(v))


def test_d3_the_spectator_sees_the_unknown_card_in_the_trick_without_an_error(client):
    g = games.get("sheepshead")
    seed, bury = 2, ["TC", "9H"]
    t = client.create_table("sheepshead", {}, 1, seed=seed)
    mirror = Mirror(g.deal(deal_seed(seed, 0), 0))
    unknown = []

    def choose(state, legal):
        for a in legal:
            if a.get("call") == "pick" or (a.get("call") == "bury" and sorted(a["cards"]) == sorted(bury)) \
                    or a.get("call") == "unknown_ace":
                return a
        if legal[0].get("call") == "unknown":
            unknown.extend(legal[0]["cards"])
        plays = [a for a in legal if a["type"] == "play"]
        return plays[-1] if plays else legal[0]

    def in_trick(state):
        return bool(unknown) and unknown[0] in {a.get("card") for a in state.actions[-4:]} \
            and state.phase() == "play"

    _play_service(client, t, mirror, choose)
    assert unknown, "the deal did not call an unknown ace"
    # replay the deal on a second table, stopping while the unknown card lies in the trick
    t2 = client.create_table("sheepshead", {}, 1, seed=seed)
    client.deal(t2.table_id, t2.tokens[0])
    m2 = Mirror(g.deal(deal_seed(seed, 0), 0))
    checked = 0
    for action in mirror.state.actions:
        if m2.state.phase() == "play":
            view = client.stub.GetView(pb.GetViewRequest(table_id=t2.table_id, token=t2.spectator_id), timeout=10).view
            m2.check(view, None, where="spectator")
            assert "tricks" not in convert.view_dict(view)["public"]
            assert len(view.tricks) == len(m2.state.view(None)["tricks"])
            checked += 1
        client.act(t2.table_id, t2.tokens[action["seat"]], action)
        m2.apply(action)
    assert checked and unknown[0] not in card_strings(
        client.stub.GetView(pb.GetViewRequest(table_id=t2.table_id, token=t2.spectator_id), timeout=10))


@pytest.fixture()
def fresh_deal(client):
    t = client.create_table("schafkopf", {}, 1, seed=11)
    client.deal(t.table_id, t.tokens[0])
    return t


# ---- D6, D14: one bad line never costs the others; large answers are split ---------------------
BAD_LINES = [
    '{"id": ' + "9" * 4400 + ', "record": {}}',                   # an integer of 4,400 digits
    "[" * 100_000 + "]" * 100_000,                                  # deep nesting
    '{"id": "\\ud800", "record": {}}',                              # a lone surrogate id
    '{"id": "' + "x" * 1_000_000 + '", "record": {}}',              # a huge id
    json.dumps({"game": "schafkopf", "options": {"tariff_solo": 2**31}, "dealer": 0, "hands": [], "actions": []}),
    json.dumps({"game": "schafkopf", "dealer": 0, "hands": [], "actions": [
        {"seat": 0, "type": "bid", "call": "rufspiel", "suit": ["D"]}]}),
    '{"id": NaN, "record": {}}', '{"id": Infinity}', "", " " * 1000,
]


def test_d6_one_bad_line_never_ends_the_stream(client):
    good = json.dumps(_finished_record())
    lines = []
    for bad in BAD_LINES:
        lines += [good, bad]
    lines.append(good)
    for with_legal in (False, True):
        reqs = [pb.EvaluateRecordsRequest(lines=lines[i:i + 3], with_legal=with_legal) for i in range(0, len(lines), 3)]
        answers = [a for r in client.stub.EvaluateRecords(iter(reqs), timeout=60) for a in r.answers]
        assert len(answers) == len(lines)
        for i, (line, a) in enumerate(zip(lines, answers), 1):
            json.loads(a.json, parse_constant=lambda c: pytest.fail(f"non-JSON {c} in answer {i}"))
            if line == good:
                assert a.json.encode() == _codec.evaluate_line_bytes(good, i, with_legal)


def test_d14_a_large_with_legal_message_is_answered_in_parts():
    """A message whose answers with legal actions come to over 64 MiB (20,000 records, 17 MiB
    in): every answer comes back, in responses of about a MiB, and the server stays small."""
    lines = [json.dumps(_finished_record(seed=k)) for k in range(40)] * 500
    request = pb.EvaluateRecordsRequest(lines=lines, with_legal=True)
    assert 16 << 20 < request.ByteSize() < 24 << 20
    with ServerProcess(None, env={"STICH_MAX_MESSAGE_BYTES": str(24 << 20)}) as srv, \
            grpc.insecure_channel(srv.address, options=[("grpc.max_send_message_length", 64 << 20),
                                                        ("grpc.max_receive_message_length", 64 << 20)]) as ch:
        t0 = time.perf_counter()
        total = parts = largest = 0
        for r in pb_grpc.StichServiceStub(ch).EvaluateRecords(iter([request]), timeout=120):
            total += len(r.answers)
            parts += 1
            largest = max(largest, r.ByteSize())
            assert all(len(a.legal) > 0 for a in r.answers)
        assert total == 20_000 and parts > 60 and largest < 2 << 20
        assert time.perf_counter() - t0 < 90
        assert srv.peak_rss_mb() < 400


# ---- D9, D16: bad values are INVALID_ARGUMENT, never INTERNAL; output lines are JSON --------------
def _options(**values) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    for k, v in values.items():
        s.fields[k].number_value = v
    return s


def test_d9_nan_infinity_and_deep_options_are_invalid_argument(client):
    for value in (float("nan"), float("inf"), -float("inf")):
        for req, call in ((pb.CreateTableRequest(game="schafkopf", options=_options(tariff_solo=value)), client.stub.CreateTable),
                          (pb.SimulateRequest(game="schafkopf", deals=5, options=_options(tariff_solo=value)), client.stub.Simulate)):
            err = _error(call, req)
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (value, err.details())
            assert _reason(err) == "BAD_OPTION"
    for depth in (40, 99, 150, 1000):
        raw = _struct_bytes_request(depth)
        call = client.channel.unary_unary("/stich.v1.StichService/CreateTable")
        err = _error(call, raw)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (depth, err.details())
        assert _reason(err) in ("INVALID_ARGUMENT", "MALFORMED_REQUEST", "BAD_OPTION")


def _struct_bytes_request(depth: int) -> bytes:
    """CreateTableRequest{game: "schafkopf", options: {tariff_solo: {x: {x: ... 1}}}} as raw
    bytes, `depth` Structs deep (built by hand: no protobuf limit on the way out)."""
    def ld(tag: int, payload: bytes) -> bytes:
        return _varint(tag << 3 | 2) + _varint(len(payload)) + payload
    value = b"\x11" + pystruct.pack("<d", 1.0)          # Value{number_value: 1.0} (field 2, fixed64)
    for _ in range(depth):
        entry = ld(1, b"x") + ld(2, value)          # Struct.FieldsEntry{key, value}
        value = ld(5, ld(1, entry))                  # Value{struct_value: Struct{fields}}
    entry = ld(1, b"tariff_solo") + ld(2, value)
    return ld(1, b"schafkopf") + ld(2, ld(1, entry))


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


@pytest.mark.parametrize("method", ["CreateTable", "Deal", "GetView", "Bid", "Exchange", "Announce", "Play",
                                    "Score", "Simulate", "ListGames"])
def test_d9_malformed_protobuf_bytes_are_invalid_argument(client, method):
    call = client.channel.unary_unary(f"/stich.v1.StichService/{method}")
    for raw in (b"\xff\xff\xff\xff", b"\x0a\xff", b"\x12\x05ab", bytes(range(256))):
        err = _error(call, raw)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, raw[:8], err.details())
        assert _reason(err) == "MALFORMED_REQUEST"


def test_d9_malformed_stream_messages_are_invalid_argument(client):
    call = client.channel.stream_stream("/stich.v1.StichService/EvaluateRecords")
    with pytest.raises(grpc.RpcError) as e:
        list(call(iter([b"\x0a\xff\xff"]), timeout=10))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and _reason(e.value) == "MALFORMED_REQUEST"
    call = client.channel.unary_stream("/stich.v1.StichService/WatchTable")
    with pytest.raises(grpc.RpcError) as e:
        list(call(b"\x0a\xff\xff", timeout=10))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_d16_unknown_seat_kinds_are_refused(client):
    for bad in (99, 7, -3, 0):
        err = _error(client.stub.CreateTable, pb.CreateTableRequest(game="schafkopf", seats=[1, 1, bad, 1]))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and _reason(err) == "BAD_SEAT_KIND"
        assert error_info(err).metadata["field"] == "seats[2]"


def test_d16_every_answer_line_is_json_even_for_nan_ids(client):
    record = _finished_record()
    lines = ['{"id": NaN, "record": %s}' % json.dumps(record), '{"id": Infinity, "record": {}}',
             '{"id": -Infinity}', '{"id": 1e999, "record": {}}', json.dumps({"id": 1e308, "record": record})]
    answers = list(client.evaluate(lines, raw=True))
    assert len(answers) == len(lines)
    for text in answers:
        json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in {text[:80]}"))


# ---- D10, D12: nothing half-committed; a damaged row costs only its table ------------------------
def test_d10_deals_per_match_out_of_range_commits_nothing(tmp_path):
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        for bad in (2**31 - 1, 1001, -1, -(2**31)):
            err = _error(c.stub.CreateTable, pb.CreateTableRequest(game="schafkopf", deals_per_match=bad))
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (bad, err.details())
            assert error_info(err).metadata["field"] == "deals_per_match"
        ok = c.create_table("schafkopf", {}, 1000, seed=1)
        assert ok.view["deals_per_match"] == 1000
    with ServerProcess(tmp_path) as srv:
        assert "(data: " in srv.banner and "1 tables stored" in srv.banner


def test_d12_a_damaged_row_does_not_stop_the_server(tmp_path):
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        good = c.create_table("schafkopf", {}, 2, seed=1)
        bad_log = c.create_table("schafkopf", {}, 2, seed=2)
        bad_spec = c.create_table("schafkopf", {}, 2, seed=3)
        bad_action = c.create_table("schafkopf", {}, 2, seed=4)
        for t in (good, bad_log, bad_spec, bad_action):
            v = c.deal(t.table_id, t.tokens[0])
            c.act(t.table_id, t.tokens[v["to_act"]], c.view(t.table_id, t.tokens[v["to_act"]])["legal"][0])
        before = c.view(good.table_id, good.tokens[0])
    db = sqlite3.connect(tmp_path / "stich.sqlite3")
    log = {r[0] for r in db.execute("SELECT name FROM sqlite_master")} & {"log", "actions"}
    if log == {"log"}:                 # this server's layout: a row per version
        rows = "UPDATE log SET action=? WHERE table_id=? AND version=3"
    else:                              # the thread-per-call server's: a row per action
        rows = "UPDATE actions SET action=? WHERE table_id=? AND deal=1 AND idx=0"
    db.execute(rows, ("{not json", bad_log.table_id))
    db.execute(rows, ('{"seat":0,"type":"play","card":"ZZ"}', bad_action.table_id))
    db.execute("UPDATE tables SET spec='[1,2' WHERE id=?", (bad_spec.table_id,))
    db.commit()
    db.close()
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        assert c.view(good.table_id, good.tokens[0]) == before
        for t in (bad_log, bad_spec, bad_action):
            err = _error(c.stub.GetView, pb.GetViewRequest(table_id=t.table_id, token=t.spectator_id))
            assert err.code() == grpc.StatusCode.DATA_LOSS and _reason(err) == "TABLE_DAMAGED"
        assert c.health() == "SERVING"
        assert c.create_table("schafkopf", {}, 1).table_id


# ---- D11: echoed values are bounded -------------------------------------------------------------------
def test_d11_errors_echo_at_most_a_few_kilobytes(server):
    huge = "Q" * (1024 * 1024)
    with grpc.insecure_channel(server.address) as ch:       # default limits: 4 MiB, 8 KiB of metadata
        stub = pb_grpc.StichServiceStub(ch)
        t = StichClient(server.address).create_table("schafkopf", {}, 1, seed=3)
        requests = [
            (stub.GetView, pb.GetViewRequest(table_id=huge, token="x")),
            (stub.GetView, pb.GetViewRequest(table_id=t.table_id, token=huge)),
            (stub.Play, pb.PlayRequest(table_id=t.table_id, token=t.tokens[0], card=huge)),
            (stub.Bid, pb.BidRequest(table_id=t.table_id, token=t.tokens[0], call=huge)),
            (stub.Bid, pb.BidRequest(table_id=t.table_id, token=t.tokens[0], call="pass", request_id=huge)),
            (stub.CreateTable, pb.CreateTableRequest(game=huge)),
            (stub.CreateTable, pb.CreateTableRequest(game="schafkopf", daily_date=huge)),
            (stub.Exchange, pb.ExchangeRequest(table_id=t.table_id, token=t.tokens[0], call="bury", cards=[huge])),
        ]
        s = struct_pb2.Struct()
        s.fields[huge[:500_000]].number_value = 1
        requests.append((stub.CreateTable, pb.CreateTableRequest(game="schafkopf", options=s)))
        s = struct_pb2.Struct()
        s.fields["tariff_solo"].string_value = huge
        requests.append((stub.CreateTable, pb.CreateTableRequest(game="schafkopf", options=s)))
        for call, req in requests:
            err = _error(call, req)
            assert err.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
                                  grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.FAILED_PRECONDITION), err
            size = sum(len(k) + len(v) for k, v in err.trailing_metadata()) + len(err.details())
            assert size < 4096, (type(req).__name__, size)
            assert error_info(err) is not None


def test_d11_oversized_requests_do_not_swell_the_server():
    with ServerProcess(None) as srv:
        with grpc.insecure_channel(srv.address, options=[("grpc.max_send_message_length", 64 << 20)]) as ch:
            stub = pb_grpc.StichServiceStub(ch)
            base = srv.rss_mb()
            for _ in range(5):
                err = _error(stub.GetView, pb.GetViewRequest(table_id="t_" + "A" * (30 << 20), token="x"), timeout=30)
                assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert srv.rss_mb() - base < 150
            assert pb_grpc.StichServiceStub(ch).ListGames(pb.ListGamesRequest(), timeout=5).games


# ---- D13: costs do not grow with the deals played -------------------------------------------------
def test_d13_a_call_costs_the_same_at_deal_1_and_deal_1000(client):
    t = client.create_table("schafkopf", {}, 1000, ["bot:easy"] * 4, seed=5)
    deal_ms, view_ms = [], []
    for k in range(1000):
        t0 = time.perf_counter()
        client.stub.Deal(pb.DealRequest(table_id=t.table_id), timeout=30)
        deal_ms.append(time.perf_counter() - t0)
        client.wait_turn(t.table_id, t.spectator_id)          # the bots play the deal out
        if k < 30 or k >= 970:
            t0 = time.perf_counter()
            client.stub.GetView(pb.GetViewRequest(table_id=t.table_id, token=t.spectator_id), timeout=30)
            view_ms.append(time.perf_counter() - t0)
    assert client.view(t.table_id, t.spectator_id)["status"] == "match_over"
    # a cost that grew with the history would be tens of times larger at deal 1000; the margin
    # is for a machine busy with other work (1.9x was seen on a loaded 2-core machine)
    early, late = statistics.median(deal_ms[10:60]), statistics.median(deal_ms[-50:])
    assert late < 3 * early + 0.002, (early, late)
    assert statistics.median(view_ms[-30:]) < 3 * statistics.median(view_ms[:30]) + 0.002
    t0 = time.perf_counter()
    client.score(t.table_id, t.spectator_id, 3)                  # an early deal, from the store
    assert time.perf_counter() - t0 < 0.1


# ---- D17: a retried action is never applied twice --------------------------------------------------
def _d17_scenario(g, rng):
    """A seed and the actions of a Doppelkopf deal up to a moment where a seat plays one of its
    two copies of a card and, at its next turn, that same play is legal again."""
    for seed in range(500):
        state = g.deal(deal_seed(seed, 0), 0)
        actions = []
        while not state.is_over():
            seat = state.to_act()
            legal = state.legal_actions()
            hand = state.view(seat)["hand"]
            twice = [a for a in legal if a["type"] == "play" and hand.count(a["card"]) == 2]
            for action in twice:
                probe = state.copy()
                probe.apply(action)
                later = []
                while not probe.is_over() and probe.to_act() != seat:
                    a = rng.choice(probe.legal_actions())
                    probe.apply(a)
                    later.append(a)
                if not probe.is_over() and action in probe.legal_actions():
                    return seed, actions, action, later
            a = rng.choice(legal)
            state.apply(a)
            actions.append(a)
    pytest.fail("no Doppelkopf deal with a second copy playable at the seat's next turn")


def test_d17_a_retried_play_is_not_applied_at_the_seats_next_turn(client):
    """Doppelkopf has two copies of every card: without a request id, a Play retried after its
    answer was lost would play the second copy at the seat's next turn."""
    seed, before, action, later = _d17_scenario(games.get("doppelkopf"), random.Random(2))
    t = client.create_table("doppelkopf", {}, 1, ["human"] * 4, seed=seed)
    client.deal(t.table_id, t.tokens[0])
    for a in before:
        client.act(t.table_id, t.tokens[a["seat"]], a)
    seat = action["seat"]
    rid = str(uuid.uuid4())
    first = client.act(t.table_id, t.tokens[seat], action, request_id=rid)
    for a in later:
        client.act(t.table_id, t.tokens[a["seat"]], a)
    version = client.view(t.table_id, t.spectator_id)["version"]
    assert client.view(t.table_id, t.spectator_id)["to_act"] == seat
    again = client.act(t.table_id, t.tokens[seat], action, request_id=rid)    # the lost answer's retry
    assert again == first
    assert client.view(t.table_id, t.spectator_id)["version"] == version
    assert client.view(t.table_id, t.tokens[seat])["hand"].count(action["card"]) == 1


def test_d17_a_retry_survives_a_restart(tmp_path):
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        t = c.create_table("schafkopf", {}, 1, seed=9)
        v = c.deal(t.table_id, t.tokens[0], request_id="d-1")
        seat = v["to_act"]
        action = c.view(t.table_id, t.tokens[seat])["legal"][0]
        first = c.act(t.table_id, t.tokens[seat], action, request_id="a-1")
    with ServerProcess(tmp_path) as srv, StichClient(srv.address) as c:
        assert c.act(t.table_id, t.tokens[seat], action, request_id="a-1") == first
        assert c.deal(t.table_id, t.tokens[0], request_id="d-1") == v
        assert c.view(t.table_id, t.spectator_id)["version"] == first["version"]
